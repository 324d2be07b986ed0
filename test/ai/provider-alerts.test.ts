import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROVIDER_REFUSED_KIND, providerRefusalAlerts } from '../../activities/ai/provider-alerts.ts';
import { silentLogger } from '../../activities/ai/failover.ts';
import { createEmailSender } from '../../clients/email.ts';
import { asSystem } from '../../db/doors.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createAdmin } from '../support/factories.ts';

describe('a provider that refuses the service (its key, its model) alerts the admins', () => {
  let outbox: string;
  before(async () => {
    outbox = await mkdtemp(join(tmpdir(), 'provider-alerts-'));
  });
  after(() => rm(outbox, { recursive: true, force: true }));

  it('every admin once a day per provider, whatever the number of refusals', async () => {
    const admin = await createAdmin();
    const clock = { now: new Date('2026-11-29T10:00:00Z') };
    const alert = providerRefusalAlerts({
      db: serviceDatabase(),
      email: createEmailSender({ smtpUrl: undefined, from: 'service@localhost', outboxDir: outbox }),
      logger: silentLogger,
      now: () => clock.now,
    });
    const refusal = { provider: 'openai', kind: 'refused', reason: 'HTTP 401: invalid api key' } as const;
    await alert(refusal);
    await alert(refusal);
    await alert({ ...refusal, provider: 'google', reason: 'HTTP 404: model not found' });
    clock.now = new Date('2026-11-30T09:00:00Z');
    await alert(refusal);

    const sent = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('notification_outbox')
        .select(['subject', 'body', 'status'])
        .where('user_id', '=', admin.sub)
        .where('kind', '=', PROVIDER_REFUSED_KIND)
        .orderBy('created_at')
        .execute(),
    );
    assert.deepEqual(
      sent.map((row) => [row.subject, row.status]),
      [
        ["The AI provider openai refuses the service's requests", 'sent'],
        ["The AI provider google refuses the service's requests", 'sent'],
        ["The AI provider openai refuses the service's requests", 'sent'],
      ],
    );
    assert.match(sent[0]!.body, /HTTP 401: invalid api key/);
    assert.ok((await readdir(outbox)).length >= 3, 'the mails were written');
  });

  it('an alert that cannot be sent does not stop the agent', async () => {
    const warnings: string[] = [];
    const alert = providerRefusalAlerts({
      db: serviceDatabase(),
      email: {
        destination: 'nowhere',
        send: () => Promise.reject(new Error('SMTP down')),
        close() {},
      },
      logger: { info() {}, warn: (_details, message) => void warnings.push(message) },
    });
    await createAdmin();
    await alert({ provider: 'anthropic', kind: 'refused', reason: 'HTTP 403: forbidden' });
    assert.deepEqual(warnings, ['the AI provider alert was not sent']);
  });
});
