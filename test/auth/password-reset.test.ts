import assert from 'node:assert/strict';
import type { TestApi } from '../support/api.ts';
import type { MailCatcher } from '../support/mail-catcher.ts';
import { cookieValue, createPasswordUser, HOUR, TestClock, tokenFromMail } from './helpers.ts';
import {
  mailedToken,
  startApiWithMail,
  stopApiWithMail,
  type ApiWithMail,
  takeMail,
} from './mailed-links.ts';

describe('password reset (POST /api/auth/password-reset, POST /api/auth/password-reset/confirm)', () => {
  const clock = new TestClock();
  let mail: MailCatcher;
  let api: TestApi;
  let withMail: ApiWithMail;
  before(async () => {
    withMail = await startApiWithMail(clock);
    ({ api, mail } = withMail);
  });
  after(() => stopApiWithMail(withMail));

  const requestReset = (email: string) =>
    mailedToken({ api, mail }, '/api/auth/password-reset', email, {
      subject: 'Reset your password',
      page: '/reset-password',
    });

  const login = (email: string, password: string) =>
    api.request('POST', '/api/auth/login', { body: { email, password } });

  it('sets the new password by the emailed token: the new one logs in, the old one no longer does', async () => {
    const user = await createPasswordUser('tester');
    const token = await requestReset(user.email);
    const confirm = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'a brand new password' },
    });
    assert.equal(confirm.status, 200);
    assert.equal((await login(user.email, 'a brand new password')).status, 200);
    assert.equal((await login(user.email, user.password)).status, 401);
  });

  it('ends every existing login of the account (refresh tokens revoked)', async () => {
    const user = await createPasswordUser('tester');
    const refresh = cookieValue((await login(user.email, user.password)).headers, 'refresh_token');
    const token = await requestReset(user.email);
    await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'another new password' },
    });
    const response = await api.request('POST', '/api/auth/refresh', {
      headers: { Cookie: `refresh_token=${refresh}` },
    });
    assert.equal(response.status, 401);
  });

  it("refuses the account's existing session JWTs at once on the instance that reset the password", async () => {
    const user = await createPasswordUser('tester');
    const jwt = cookieValue((await login(user.email, user.password)).headers, 'session');
    // Answered (and remembered as a live login for up to 60 s) before the reset.
    assert.equal((await api.request('GET', '/api/auth/me', { token: jwt })).status, 200);
    const token = await requestReset(user.email);
    const confirm = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'yet another new password' },
    });
    assert.equal(confirm.status, 200);
    const after = await api.request('GET', '/api/auth/me', { token: jwt });
    assert.equal(after.status, 401, 'no clock moved: the old JWT must be refused immediately');
  });

  it('a reset token works once', async () => {
    const user = await createPasswordUser('tester');
    const token = await requestReset(user.email);
    const body = { token, password: 'first new password' };
    assert.equal((await api.request('POST', '/api/auth/password-reset/confirm', { body })).status, 200);
    const again = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'second new password' },
    });
    assert.equal(again.status, 401);
    assert.equal((await login(user.email, 'second new password')).status, 401);
  });

  it('a reset token expires after 60 minutes', async () => {
    const user = await createPasswordUser('tester');
    const token = await requestReset(user.email);
    clock.advance(HOUR + 1000);
    const response = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'too late password' },
    });
    assert.equal(response.status, 401);
  });

  it('a magic-link token cannot reset a password', async () => {
    const user = await createPasswordUser('tester');
    await api.request('POST', '/api/auth/magic-link', { body: { email: user.email } });
    const message = await takeMail(mail, user.email);
    const token = tokenFromMail(message.text, '/login/magic-link');
    const response = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token, password: 'sneaky new password' },
    });
    assert.equal(response.status, 401);
  });

  it('voids the magic links and other reset links mailed before the reset', async () => {
    const user = await createPasswordUser('tester');
    await api.request('POST', '/api/auth/magic-link', { body: { email: user.email } });
    const message = await takeMail(mail, user.email);
    const magicLink = tokenFromMail(message.text, '/login/magic-link');
    const olderReset = await requestReset(user.email);
    const reset = await requestReset(user.email);
    const confirm = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token: reset, password: 'the password after the reset' },
    });
    assert.equal(confirm.status, 200);
    const signIn = await api.request('POST', '/api/auth/magic-link/verify', { body: { token: magicLink } });
    assert.equal(signIn.status, 401, 'a sign-in link mailed before the reset no longer opens the account');
    const again = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token: olderReset, password: 'a password set by an older link' },
    });
    assert.equal(again.status, 401);
    assert.equal((await login(user.email, 'the password after the reset')).status, 200);
  });
});
