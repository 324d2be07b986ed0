import assert from 'node:assert/strict';
import Koa, { type Context } from 'koa';
import {
  requireCronSecret,
  requireServiceToken,
  requireWebhookSecret,
} from '../../api/auth/service-credentials.ts';
import { ApiError } from '../../lib/errors.ts';

/** A Koa context carrying the given request headers. */
function contextWith(headers: Record<string, string>): Context {
  const app = new Koa();
  const req = {
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    url: '/',
    method: 'POST',
    socket: {},
  };
  return app.createContext(req as never, { setHeader() {}, getHeader() {}, removeHeader() {} } as never);
}

function status(check: () => void): number {
  try {
    check();
    return 200;
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error.status;
  }
}

describe('service credentials (x-webhook-secret, Bearer CRON_SECRET, Token)', () => {
  it('x-webhook-secret: the configured secret passes; absent or wrong answers 401', () => {
    assert.equal(
      status(() => requireWebhookSecret(contextWith({ 'x-webhook-secret': 's3cret' }), 's3cret')),
      200,
    );
    assert.equal(
      status(() => requireWebhookSecret(contextWith({}), 's3cret')),
      401,
    );
    assert.equal(
      status(() => requireWebhookSecret(contextWith({ 'x-webhook-secret': 's3cre' }), 's3cret')),
      401,
    );
  });

  it('Authorization: Bearer <CRON_SECRET>: the secret passes; another scheme or value answers 401', () => {
    const ok = contextWith({ Authorization: 'Bearer cron-secret' });
    assert.equal(
      status(() => requireCronSecret(ok, 'cron-secret')),
      200,
    );
    assert.equal(
      status(() => requireCronSecret(contextWith({ Authorization: 'Token cron-secret' }), 'cron-secret')),
      401,
    );
    assert.equal(
      status(() => requireCronSecret(contextWith({ Authorization: 'Bearer other' }), 'cron-secret')),
      401,
    );
    assert.equal(
      status(() => requireCronSecret(contextWith({}), 'cron-secret')),
      401,
    );
  });

  it('Authorization: Token <TOKEN>: any configured token passes; others answer 401', () => {
    const tokens = ['first-token', 'second-token'];
    assert.equal(
      status(() => requireServiceToken(contextWith({ Authorization: 'Token second-token' }), tokens)),
      200,
    );
    assert.equal(
      status(() => requireServiceToken(contextWith({ Authorization: 'Bearer second-token' }), tokens)),
      401,
    );
    assert.equal(
      status(() => requireServiceToken(contextWith({ Authorization: 'Token third' }), tokens)),
      401,
    );
    assert.equal(
      status(() => requireServiceToken(contextWith({}), [])),
      401,
    );
  });
});
