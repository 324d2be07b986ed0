import assert from 'node:assert/strict';
import type { ParsedMail } from 'mailparser';
import { tmpdir } from 'node:os';
import { createEmailSender } from '../../clients/email.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createTestServiceWorker } from '../support/temporal.ts';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.ts';
import { tokenFromMail, type TestClock } from './helpers.ts';

export interface ApiWithMail {
  readonly api: TestApi;
  readonly mail: MailCatcher;
  readonly stopWorker?: () => Promise<void>;
}

let suites = 0;

/**
 * The API on `clock` (the real one without), and a service worker on a task queue of their own
 * whose outbox sends mail to a catcher of its own: recovery links go through the outbox.
 */
export async function startApiWithMail(clock?: TestClock, env: NodeJS.ProcessEnv = {}): Promise<ApiWithMail> {
  const mail = await startMailCatcher();
  const taskQueue = `mailed-links-${process.pid}-${(suites += 1)}`;
  const email = createEmailSender({
    smtpUrl: mail.url,
    from: 'Usability service <no-reply@localhost>',
    outboxDir: tmpdir(),
  });
  const worker = await createTestServiceWorker(taskQueue, { email });
  const running = worker.run();
  const api = await startTestApi({
    ...(clock ? { now: clock.now } : {}),
    worker: false,
    env: { SMTP_URL: mail.url, TEMPORAL_TASK_QUEUE: taskQueue, ...env },
  });
  const stopWorker = async () => {
    worker.shutdown();
    await running;
  };
  return { api, mail, stopWorker };
}

/** Stops what startApiWithMail started, the API first. */
export async function stopApiWithMail({ api, mail, stopWorker }: ApiWithMail): Promise<void> {
  await api.stop();
  await stopWorker?.();
  await mail.stop();
}

/** Waits for the first mail to `email` and takes it out of the catcher, so the next wait finds a newer one. */
export async function takeMail(mail: MailCatcher, email: string): Promise<ParsedMail> {
  const message = await mail.waitFor(email);
  mail.messages.splice(mail.messages.indexOf(message), 1);
  return message;
}

/**
 * POSTs `email` to `path` (202), takes the mail it sends, checks its subject and returns the token of
 * its link to `page` of the web app.
 */
export async function mailedToken(
  { api, mail }: ApiWithMail,
  path: string,
  email: string,
  expected: { subject: string; page: string },
): Promise<string> {
  const response = await api.request('POST', path, { body: { email } });
  assert.equal(response.status, 202);
  const message = await takeMail(mail, email);
  assert.equal(message.subject, expected.subject);
  return tokenFromMail(message.text, expected.page);
}
