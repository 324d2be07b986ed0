import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createEmailSender } from '../../clients/email.ts';

describe('email without SMTP_URL', () => {
  it('writes each message as an .eml file in the outbox instead', async () => {
    const outboxDir = await mkdtemp(join(tmpdir(), 'outbox-'));
    const sender = createEmailSender({
      smtpUrl: undefined,
      from: 'Service <no-reply@example.com>',
      outboxDir,
    });
    try {
      await sender.send({ to: 'someone@example.com', subject: 'Hello', text: 'Body text' });
      const files = await readdir(outboxDir);
      assert.equal(files.length, 1);
      assert.match(files[0]!, /\.eml$/);
      const mail = await simpleParser(await readFile(join(outboxDir, files[0]!)));
      assert.equal(mail.subject, 'Hello');
      assert.equal(mail.text?.trim(), 'Body text');
    } finally {
      sender.close();
      await rm(outboxDir, { recursive: true, force: true });
    }
  });
});
