import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../config/index.ts';
import { LOCAL_PAYMENTS_WEBHOOK_SECRET } from '../../config/payments.ts';
import { business, draftStudy, event } from './fixtures.ts';
import { startPaymentsHarness } from './harness.ts';

const SECRET = 'a-production-secret-of-enough-length-0123';

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  return assert.fail('expected a ConfigError');
}

describe('payment configuration', () => {
  it('without credentials outside production: the local provider, signing with the local secret', () => {
    const { payments } = loadConfig({});
    assert.equal(payments.mode, 'local');
    assert.equal(payments.webhookSecret, LOCAL_PAYMENTS_WEBHOOK_SECRET);
    assert.equal(payments.localWebhookUrl, 'http://localhost:3000/api/webhooks/payments');
  });

  it('the local provider runs only in development and test, or when PAYMENTS_PROVIDER=local asks for it', () => {
    assert.equal(loadConfig({ NODE_ENV: 'development' }).payments.mode, 'local');
    assert.equal(loadConfig({ NODE_ENV: 'test' }).payments.mode, 'local');
    assert.equal(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).payments.mode, 'disabled');
    const explicit = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: SECRET,
      PAYMENTS_PROVIDER: 'local',
      STRIPE_WEBHOOK_SECRET: 'whsec_own_local_signing_secret_0123',
    }).payments;
    assert.deepEqual(
      [explicit.mode, explicit.webhookSecret],
      ['local', 'whsec_own_local_signing_secret_0123'],
    );
    // Asked for in production, it must not sign with the secret everyone can read in the repository.
    assert.match(
      refusal({ NODE_ENV: 'production', JWT_SECRET: SECRET, PAYMENTS_PROVIDER: 'local' }),
      /STRIPE_WEBHOOK_SECRET: PAYMENTS_PROVIDER=local in production/,
    );
    assert.match(refusal({ PAYMENTS_PROVIDER: 'stripe' }), /STRIPE_SECRET_KEY: required/);
    assert.match(refusal({ PAYMENTS_PROVIDER: 'elsewhere' }), /PAYMENTS_PROVIDER/);
  });

  it('the Connect endpoint has a secret of its own: both verify, and production requires it', () => {
    const { payments } = loadConfig({
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_platform',
      STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect',
    });
    assert.deepEqual(payments.webhookSecrets, ['whsec_platform', 'whsec_connect']);
    const production = { NODE_ENV: 'production', JWT_SECRET: SECRET, STRIPE_SECRET_KEY: 'sk_live_x' };
    assert.match(
      refusal({ ...production, STRIPE_WEBHOOK_SECRET: 'whsec_platform' }),
      /STRIPE_CONNECT_WEBHOOK_SECRET: required in production/,
    );
    assert.equal(
      loadConfig({
        ...production,
        STRIPE_WEBHOOK_SECRET: 'whsec_platform',
        STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect',
      }).payments.mode,
      'stripe',
    );
  });

  it('a secret key needs the webhook secret; STRIPE_API_BASE names host, port and protocol', () => {
    assert.match(
      refusal({ STRIPE_SECRET_KEY: 'sk_live_x' }),
      /STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set/,
    );
    const { payments } = loadConfig({
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
    });
    assert.equal(payments.mode, 'stripe');
    assert.deepEqual(payments.api, { host: '127.0.0.1', port: 12111, protocol: 'http' });
    assert.match(refusal({ STRIPE_API_BASE: 'http://127.0.0.1:12111/v1' }), /STRIPE_API_BASE/);
  });

  it('production: no credentials disables payments, and the local secret is refused', () => {
    const { payments } = loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET });
    assert.deepEqual(
      [payments.mode, payments.webhookSecret, payments.webhookSecrets],
      ['disabled', undefined, []],
    );
    assert.match(
      refusal({
        NODE_ENV: 'production',
        JWT_SECRET: SECRET,
        STRIPE_WEBHOOK_SECRET: LOCAL_PAYMENTS_WEBHOOK_SECRET,
      }),
      /STRIPE_WEBHOOK_SECRET/,
    );
  });

  it('disabled payments answer 503 on checkout and on the webhook (never a pretend payment)', async () => {
    const h = await startPaymentsHarness({ local: true, worker: false, env: { NODE_ENV: 'production' } });
    try {
      const owner = await business();
      const jobId = await draftStudy(h, owner);
      const checkout = await h.request('POST', '/api/billing/checkout', {
        token: owner.token,
        body: { jobId },
      });
      assert.equal(checkout.status, 503, checkout.text);
      const hook = await h.postPaymentEvent(event('customer.created', { id: 'cus_1' }), {
        secret: LOCAL_PAYMENTS_WEBHOOK_SECRET,
      });
      assert.equal(hook.status, 503, hook.text);
    } finally {
      await h.stop();
    }
  });
});
