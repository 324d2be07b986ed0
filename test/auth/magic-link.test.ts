import assert from 'node:assert/strict';
import type { TestApi } from '../support/api.ts';
import type { MailCatcher } from '../support/mail-catcher.ts';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { cookieValue, createPasswordUser, MINUTE, TestClock } from './helpers.ts';
import { mailedToken, startApiWithMail, stopApiWithMail, type ApiWithMail } from './mailed-links.ts';

describe('magic link login (POST /api/auth/magic-link, POST /api/auth/magic-link/verify)', () => {
  const clock = new TestClock();
  let mail: MailCatcher;
  let api: TestApi;
  let withMail: ApiWithMail;
  before(async () => {
    withMail = await startApiWithMail(clock);
    ({ api, mail } = withMail);
  });
  after(() => stopApiWithMail(withMail));

  const requestLink = (email: string) =>
    mailedToken({ api, mail }, '/api/auth/magic-link', email, {
      subject: 'Your sign-in link',
      page: '/login/magic-link',
    });

  it('emails a one-time link whose token logs the user in with session and refresh cookies', async () => {
    const user = await createPasswordUser('business');
    const token = await requestLink(user.email);
    const response = await api.request('POST', '/api/auth/magic-link/verify', { body: { token } });
    assert.equal(response.status, 200);
    const jwt = cookieValue(response.headers, 'session');
    assert.ok(cookieValue(response.headers, 'refresh_token'));
    const me = await api.request('GET', '/api/auth/me', { token: jwt });
    assert.equal((me.body.data as { id: string }).id, user.id);
    // The mail went through the durable outbox, which keeps no token once it is sent.
    const outboxOf = () =>
      asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('notification_outbox')
          .select(['kind', 'status', 'payload', 'body'])
          .where('user_id', '=', user.id)
          .execute(),
      );
    let queued = await outboxOf();
    for (let waited = 0; queued[0]?.status !== 'sent' && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      queued = await outboxOf();
    }
    assert.equal(queued.length, 1);
    assert.deepEqual([queued[0]!.kind, queued[0]!.status], ['magic_link', 'sent']);
    assert.equal(queued[0]!.payload.secret, undefined);
    assert.ok(!queued[0]!.body.includes(token), 'the stored text holds a placeholder, not the token');
  });

  it('a magic link works once', async () => {
    const user = await createPasswordUser('tester');
    const token = await requestLink(user.email);
    assert.equal((await api.request('POST', '/api/auth/magic-link/verify', { body: { token } })).status, 200);
    const again = await api.request('POST', '/api/auth/magic-link/verify', { body: { token } });
    assert.equal(again.status, 401);
  });

  it('a magic link expires after 15 minutes', async () => {
    const user = await createPasswordUser('tester');
    const token = await requestLink(user.email);
    clock.advance(15 * MINUTE + 1000);
    assert.equal((await api.request('POST', '/api/auth/magic-link/verify', { body: { token } })).status, 401);
  });

  it('answers an unknown email exactly as a known one (202), so it reveals nothing', async () => {
    const user = await createPasswordUser('tester');
    const known = await api.request('POST', '/api/auth/magic-link', { body: { email: user.email } });
    const unknown = await api.request('POST', '/api/auth/magic-link', {
      body: { email: `nobody-${Date.now()}@example.com` },
    });
    assert.equal(unknown.status, known.status);
    assert.deepEqual(unknown.body, known.body);
  });

  it('a suspended account gets no link (202 all the same)', async () => {
    const suspended = await createPasswordUser('tester', 'suspended');
    const response = await api.request('POST', '/api/auth/magic-link', { body: { email: suspended.email } });
    assert.equal(response.status, 202);
    const issued = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('one_time_tokens').select('id').where('user_id', '=', suspended.id).execute(),
    );
    assert.equal(issued.length, 0);
  });
});
