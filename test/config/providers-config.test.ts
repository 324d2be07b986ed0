import assert from 'node:assert/strict';
import { loadConfig } from '../../config/index.ts';
import { providerSummary } from '../../config/providers.ts';
import { PRODUCTION_WITH_STAND_INS } from '../support/config.ts';
import { assertRefused } from './refusal.ts';

const SECRET = 'a-production-secret-of-enough-length-0123';
const PRODUCTION = { ...PRODUCTION_WITH_STAND_INS, JWT_SECRET: SECRET };

/** Production with one provider's stand-in variable left out. */
function without(variable: 'EMAIL_PROVIDER' | 'MESSAGING_PROVIDER' | 'AI_PROVIDER'): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...PRODUCTION };
  delete env[variable];
  return env;
}

describe('providers: real, or a local stand-in asked for by name', () => {
  it('development and test use every stand-in unasked', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const { providers, email, messaging, ai } = loadConfig({ NODE_ENV });
      assert.deepEqual(providers, {
        email: 'local',
        messaging: 'local',
        ai: 'local',
        payments: 'local',
        facialEngine: 'off',
      });
      assert.equal(email.smtpUrl, undefined);
      assert.equal(messaging.botToken, undefined);
      assert.equal(ai.openai.apiKey, undefined);
    }
  });

  it('production without SMTP_URL refuses to start, naming it and EMAIL_PROVIDER=local', () => {
    const error = assertRefused(without('EMAIL_PROVIDER'), 'SMTP_URL');
    assert.match(
      error.message,
      /required in production; set EMAIL_PROVIDER=local to write mail to OUTBOX_DIR/,
    );
    assert.equal(
      loadConfig({ ...without('EMAIL_PROVIDER'), SMTP_URL: 'smtp://mail:587' }).providers.email,
      'real',
    );
  });

  it('production without a bot token refuses to start, naming it and MESSAGING_PROVIDER=local', () => {
    const error = assertRefused(without('MESSAGING_PROVIDER'), 'MESSAGING_BOT_TOKEN');
    assert.match(error.message, /set MESSAGING_PROVIDER=local/);
    const real = loadConfig({ ...without('MESSAGING_PROVIDER'), MESSAGING_BOT_TOKEN: '123:abc' });
    assert.deepEqual([real.providers.messaging, real.messaging.botToken], ['real', '123:abc']);
  });

  it('production without an AI key of the failover order refuses to start, naming the keys and AI_PROVIDER=local', () => {
    const error = assertRefused(without('AI_PROVIDER'), 'OPENAI_API_KEY');
    assert.match(
      error.message,
      /OPENAI_API_KEY or ANTHROPIC_API_KEY or GOOGLE_AI_API_KEY: required in production; set AI_PROVIDER=local/,
    );
    // A key of a provider left out of the order does not count.
    assertRefused(
      { ...without('AI_PROVIDER'), AI_PROVIDER_ORDER: 'openai', GOOGLE_AI_API_KEY: 'g' },
      'OPENAI_API_KEY',
    );
    assert.equal(loadConfig({ ...without('AI_PROVIDER'), ANTHROPIC_API_KEY: 'a' }).providers.ai, 'real');
  });

  it('production names every missing provider in one refusal', () => {
    const error = assertRefused({ NODE_ENV: 'production', JWT_SECRET: SECRET }, 'SMTP_URL');
    for (const variable of ['MESSAGING_BOT_TOKEN', 'GOOGLE_AI_API_KEY', 'STRIPE_SECRET_KEY']) {
      assert.match(error.message, new RegExp(`^Invalid environment variable .*\\b${variable}\\b`, 'm'));
    }
  });

  it('asking for the real provider without its credential is refused everywhere', () => {
    assertRefused({ EMAIL_PROVIDER: 'smtp' }, 'SMTP_URL');
    assertRefused({ MESSAGING_PROVIDER: 'bot-api' }, 'MESSAGING_BOT_TOKEN');
    assertRefused({ AI_PROVIDER: 'models' }, 'GOOGLE_AI_API_KEY');
    assertRefused({ EMAIL_PROVIDER: 'elsewhere' }, 'EMAIL_PROVIDER');
  });

  it('a stand-in asked for wins over a credential that is set', () => {
    const config = loadConfig({
      ...PRODUCTION,
      SMTP_URL: 'smtp://mail:587',
      MESSAGING_BOT_TOKEN: '123:abc',
      OPENAI_API_KEY: 'sk-x',
    });
    assert.deepEqual(
      [config.providers.email, config.providers.messaging, config.providers.ai],
      ['local', 'local', 'local'],
    );
    assert.deepEqual(
      [config.email.smtpUrl, config.messaging.botToken, config.ai.openai.apiKey],
      [undefined, undefined, undefined],
    );
  });

  it('the summary says where each provider sends its work', () => {
    const summary = providerSummary(
      loadConfig({ OUTBOX_DIR: '/var/outbox', ANTHROPIC_API_KEY: 'a', GOOGLE_AI_API_KEY: 'g' }),
    );
    assert.equal(summary.email, 'local: .eml files in /var/outbox');
    assert.equal(summary.messaging, 'local: JSON files in /var/outbox');
    assert.match(summary.ai, /^real: anthropic \(.+\), then google \(.+\)$/);
    assert.match(summary.payments, /^local: /);
    assert.match(summary.facialEngine, /^off: /);
  });
});
