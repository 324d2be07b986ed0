import assert from 'node:assert/strict';
import { loadConfig } from '../../config/index.ts';
import { assertRefused } from './refusal.ts';

describe('loadConfig: the service credentials (MESSAGING_WEBHOOK_SECRET, CRON_SECRET, SERVICE_TOKENS)', () => {
  it('all unset by default: their endpoints are off', () => {
    assert.deepEqual(loadConfig({}).serviceCredentials, {
      messagingWebhookSecret: undefined,
      cronSecret: undefined,
      serviceTokens: [],
    });
  });

  it('reads them; SERVICE_TOKENS is a comma-separated list', () => {
    const config = loadConfig({
      MESSAGING_WEBHOOK_SECRET: 'bot-secret_0123456789',
      CRON_SECRET: 'cron-secret-0123456789',
      SERVICE_TOKENS: 'first-token-000000001, second-token-00000002',
    });
    assert.deepEqual(config.serviceCredentials, {
      messagingWebhookSecret: 'bot-secret_0123456789',
      cronSecret: 'cron-secret-0123456789',
      serviceTokens: ['first-token-000000001', 'second-token-00000002'],
    });
  });

  it('refuses short or malformed secrets, naming the variable and not echoing the value', () => {
    assert.match(
      assertRefused({ CRON_SECRET: 'short' }, 'CRON_SECRET').message,
      /^Invalid environment variable CRON_SECRET: /,
    );
    assert.match(
      assertRefused({ CRON_SECRET: 'has a space in it 0123' }, 'CRON_SECRET').message,
      /CRON_SECRET/,
    );
    assert.match(
      assertRefused({ SERVICE_TOKENS: 'first-token-000000001,,x' }, 'SERVICE_TOKENS').message,
      /SERVICE_TOKENS/,
    );
    // The bot API's secret_token alphabet: letters, digits, _ and -.
    const message = assertRefused(
      { MESSAGING_WEBHOOK_SECRET: 'not/allowed+chars=0123' },
      'MESSAGING_WEBHOOK_SECRET',
    ).message;
    assert.match(message, /MESSAGING_WEBHOOK_SECRET/);
    assert.doesNotMatch(message, /not\/allowed/);
  });
});
