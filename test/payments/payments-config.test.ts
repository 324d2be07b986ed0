import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../config/index.ts';
import { LOCAL_PAYMENTS_WEBHOOK_SECRET } from '../../config/payments.ts';

const SECRET = 'a-production-secret-of-enough-length-0123';
/** Production with the other providers' stand-ins asked for, so what is refused is payments'. */
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: SECRET,
  EMAIL_PROVIDER: 'local',
  MESSAGING_PROVIDER: 'local',
  AI_PROVIDER: 'local',
};

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
    // Production without a key starts only when the stand-in is asked for by name.
    assert.match(
      refusal(PRODUCTION),
      /STRIPE_SECRET_KEY: required in production; set PAYMENTS_PROVIDER=local for the local stand-in instead/,
    );
    const explicit = loadConfig({
      ...PRODUCTION,
      PAYMENTS_PROVIDER: 'local',
      STRIPE_WEBHOOK_SECRET: 'whsec_own_local_signing_secret_0123',
    }).payments;
    assert.deepEqual(
      [explicit.mode, explicit.webhookSecret],
      ['local', 'whsec_own_local_signing_secret_0123'],
    );
    // Asked for in production, it must not sign with the secret everyone can read in the repository.
    assert.match(
      refusal({ ...PRODUCTION, PAYMENTS_PROVIDER: 'local' }),
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
    const production = { ...PRODUCTION, STRIPE_SECRET_KEY: 'sk_live_x' };
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

  it('production: the local development secret is refused', () => {
    assert.match(
      refusal({
        ...PRODUCTION,
        PAYMENTS_PROVIDER: 'local',
        STRIPE_WEBHOOK_SECRET: LOCAL_PAYMENTS_WEBHOOK_SECRET,
      }),
      /STRIPE_WEBHOOK_SECRET: the local development secret is refused in production/,
    );
  });
});
