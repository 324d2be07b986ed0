import assert from 'node:assert/strict';
import type { ParsedMail } from 'mailparser';
import { startTestApi, type TestApi } from '../support/api.ts';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.ts';
import { tokenFromMail, type TestClock } from './helpers.ts';

export interface ApiWithMail {
  readonly api: TestApi;
  readonly mail: MailCatcher;
}

/** The API (no worker) on `clock`, sending its mail to a catcher of its own. */
export async function startApiWithMail(clock: TestClock): Promise<ApiWithMail> {
  const mail = await startMailCatcher();
  const api = await startTestApi({ now: clock.now, worker: false, env: { SMTP_URL: mail.url } });
  return { api, mail };
}

/** Stops what startApiWithMail started, the API first. */
export async function stopApiWithMail({ api, mail }: ApiWithMail): Promise<void> {
  await api.stop();
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
