import assert from 'node:assert/strict';
import { loadConfig } from '../../config/index.ts';
import { PRODUCTION_WITH_STAND_INS } from '../support/config.ts';
import { assertRefused } from './refusal.ts';

const SECRET = 'a-production-secret-of-enough-length-0123';

describe('loadConfig', () => {
  it('refuses a bad variable with a message naming it', () => {
    assertRefused({ PORT: 'abc' }, 'PORT');
    assertRefused({ PORT: '70000' }, 'PORT');
    assertRefused({ DATABASE_URL: 'not-a-url' }, 'DATABASE_URL');
    assertRefused({ BASE_URL: 'usability.example' }, 'BASE_URL');
    assertRefused({ NODE_ENV: 'staging' }, 'NODE_ENV');
    assertRefused({ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE');
    assertRefused({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL');
    assertRefused({ REDIS_URL: 'localhost 6379' }, 'REDIS_URL');
    assertRefused({ TRUST_PROXY: '-1' }, 'TRUST_PROXY');
    assertRefused({ TRUST_PROXY: 'yes' }, 'TRUST_PROXY');
  });

  it('refuses a JWT secret shorter than 32 characters without echoing it', () => {
    const error = assertRefused({ JWT_SECRET: 'short-secret' }, 'JWT_SECRET');
    assert.doesNotMatch(error.message, /short-secret/);
  });

  it('production refuses the default JWT secret', () => {
    assertRefused({ NODE_ENV: 'production' }, 'JWT_SECRET');
    const development = loadConfig({});
    assertRefused({ NODE_ENV: 'production', JWT_SECRET: development.auth.jwtSecret }, 'JWT_SECRET');
  });

  it('production starts with a secret of its own', () => {
    const config = loadConfig({ ...PRODUCTION_WITH_STAND_INS, JWT_SECRET: SECRET });
    assert.equal(config.env, 'production');
    assert.equal(config.auth.jwtSecret, SECRET);
  });

  it('applies the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.env, 'development');
    assert.deepEqual(config.http, {
      host: '127.0.0.1',
      port: 3000,
      baseUrl: 'http://localhost:3000',
      trustProxy: 0,
      recorderPackageDir: 'dist',
    });
    assert.equal(config.logLevel, 'info');
    assert.deepEqual(config.database, {
      url: 'postgres://postgres@127.0.0.1:5432/usability',
      serviceUrl: 'postgres://usability_service@127.0.0.1:5432/usability',
      poolSize: 10,
    });
    assert.deepEqual(config.temporal, {
      address: '127.0.0.1:7233',
      namespace: 'default',
      taskQueue: 'usability',
      uiUrl: 'http://127.0.0.1:8233',
    });
    assert.equal(config.redisUrl, undefined);
    // Current models, chosen from each provider's pages (sources in config/ai.ts).
    assert.deepEqual(
      [config.ai.openai.model, config.ai.anthropic.model, config.ai.google.model],
      ['gpt-6-luna', 'claude-haiku-4-5-20251001', 'gemini-3.5-flash-lite'],
    );
    assert.ok(config.auth.jwtSecret.length >= 32);
  });

  it('reads the given values, numbers as numbers and the base URL without a trailing slash', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_POOL_SIZE: '4',
      BASE_URL: 'https://usability.example/',
      REDIS_URL: 'redis://127.0.0.1:6379',
      TRUST_PROXY: '2',
    });
    assert.equal(config.http.port, 8080);
    assert.equal(config.http.trustProxy, 2);
    assert.equal(config.database.poolSize, 4);
    assert.equal(config.http.baseUrl, 'https://usability.example');
    assert.equal(config.redisUrl, 'redis://127.0.0.1:6379');
  });

  it("the service logs in as usability_service, never with the owner's password, unless DATABASE_SERVICE_URL says otherwise", () => {
    const derived = loadConfig({
      DATABASE_URL: 'postgres://owner:secret@db.example:6543/app?sslmode=require',
    });
    assert.equal(
      derived.database.serviceUrl,
      'postgres://usability_service@db.example:6543/app?sslmode=require',
    );
    const given = loadConfig({ DATABASE_SERVICE_URL: 'postgres://svc:pw@db.example/app' });
    assert.equal(given.database.serviceUrl, 'postgres://svc:pw@db.example/app');
  });

  it('is frozen, so nothing changes it after start-up', () => {
    const config = loadConfig({});
    assert.ok(Object.isFrozen(config));
    assert.ok(Object.isFrozen(config.http));
    assert.throws(() => {
      (config.http as { port: number }).port = 1;
    }, TypeError);
  });
});
