import assert from 'node:assert/strict';
import { createAgents, LOCAL_ANALYST } from '../../activities/ai/agents.ts';
import {
  AllProvidersUnavailableError,
  type FailureKind,
  type ProviderFailure,
} from '../../activities/ai/errors.ts';
import { configuredProviders } from '../../clients/ai/configured.ts';
import { PROVIDER_NAMES, type ProviderName } from '../../clients/ai/types.ts';
import { ConfigError } from '../../config/index.ts';
import { testConfig } from '../support/config.ts';
import { fakeModel } from './fake-model.ts';
import { envOf, startLocalProvider, type LocalProvider, type ProviderMode } from './provider-servers.ts';
import { event, session, t } from './signal-builders.ts';

/** Rage clicks and an error: two moments for the model to word. */
const struggle = session({
  events: [...[0, 0.4, 0.8, 1.2].map((s) => event('click', s, '#pay')), event('error', 30, '#card')],
});

describe('AI providers: one interface, failover in the configured order', () => {
  const servers = {} as Record<ProviderName, LocalProvider>;
  const agentsWith = (order: readonly ProviderName[], extra: NodeJS.ProcessEnv = {}) =>
    createAgents({
      providers: configuredProviders(
        testConfig({
          AI_PROVIDER_ORDER: order.join(','),
          AI_TIMEOUT_MS: '400',
          ...envOf(servers, order),
          ...extra,
        }).ai,
      ),
    });

  before(async () => {
    for (const name of PROVIDER_NAMES) servers[name] = await startLocalProvider(name, fakeModel);
  });
  after(() => Promise.all(PROVIDER_NAMES.map((name) => servers[name].stop())));
  beforeEach(() => {
    for (const name of PROVIDER_NAMES) {
      servers[name].mode = 'ok';
      servers[name].requests.length = 0;
    }
  });

  for (const primary of PROVIDER_NAMES) {
    it(`${primary} first and healthy: it answers through its real SDK, usedFallback false`, async () => {
      const order = [primary, ...PROVIDER_NAMES.filter((n) => n !== primary)];
      const answer = await agentsWith(order).agent1Insights({ signals: struggle });
      assert.equal(answer.provider, primary);
      assert.equal(answer.usedFallback, false);
      assert.equal(answer.result.summary, `${primary} summary of 2 moments`);
      assert.equal(servers[primary].requests[0]!.model, `${primary}-local-model`);
      // Facts stay the analysis core's, whatever the model claims.
      assert.notEqual(answer.result.overallFrustrationScore, 0.99);
    });
  }

  for (const primary of PROVIDER_NAMES) {
    it(`${primary} is asked for structured output in its API's own mode, with the answer's schema`, async () => {
      await agentsWith([primary]).agent1Insights({ signals: struggle });
      const { schema, strict, prompt } = servers[primary].requests[0]!;
      assert.ok(schema, 'the request carries a JSON schema');
      assert.deepEqual(Object.keys(schema.properties as object).sort(), ['moments', 'summary']);
      assert.equal(schema.additionalProperties, false);
      if (primary === 'openai') assert.equal(strict, true);
      // The shape is the schema's job, not the prompt's.
      assert.doesNotMatch(prompt, /JSON shape/);
    });
  }

  const failures: readonly [ProviderMode, string][] = [
    ['error500', 'answers 500'],
    ['timeout', 'times out'],
    ['rateLimited', 'rate-limits (429)'],
    ['overloaded', 'is overloaded (529 or 503)'],
    ['badKey', 'refuses the key (401)'],
    ['modelRetired', 'no longer serves the model (404)'],
    ['notJson', 'answers with output that is not JSON'],
    ['fenced', 'answers with JSON inside a Markdown fence (nothing is dug out of text)'],
    ['unknownIds', 'answers about moments that do not exist (schema failure)'],
  ];
  for (const primary of PROVIDER_NAMES) {
    const [second, third] = PROVIDER_NAMES.filter((n) => n !== primary) as [ProviderName, ProviderName];
    for (const [mode, what] of failures) {
      it(`${primary} ${what}: ${second} answers and usedFallback is true`, async () => {
        servers[primary].mode = mode;
        const answer = await agentsWith([primary, second, third]).agent1Insights({ signals: struggle });
        assert.equal(answer.provider, second);
        assert.equal(answer.usedFallback, true);
        assert.equal(answer.result.summary, `${second} summary of 2 moments`);
        assert.equal(
          servers[primary].requests.length,
          1,
          'one request to the failing provider, no SDK retries',
        );
        assert.equal(servers[third].requests.length, 0);
      });
    }
  }

  it('the Anthropic server takes only what the SDK sends (its key as a bearer token, with anthropic-version)', async () => {
    const { url } = servers.anthropic;
    const key = servers.anthropic.env().ANTHROPIC_API_KEY!;
    const ask = (headers: Record<string, string>) =>
      fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({
          model: 'anthropic-local-model',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'Material:\n{}' }],
        }),
      });
    assert.equal((await ask({})).status, 401);
    assert.equal((await ask({ 'x-api-key': key, 'anthropic-version': '2023-06-01' })).status, 401);
    assert.equal((await ask({ Authorization: `Bearer ${key}` })).status, 401);
    assert.equal(
      (await ask({ Authorization: 'Bearer sk-ant-wrong', 'anthropic-version': '2023-06-01' })).status,
      401,
    );
    assert.equal(
      (await ask({ Authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' })).status,
      200,
    );
    // The real SDK passes (the healthy-provider test above), and one holding another key fails over.
    const answer = await agentsWith(['anthropic', 'google'], {
      ANTHROPIC_API_KEY: 'sk-ant-wrong',
    }).agent1Insights({ signals: struggle });
    assert.deepEqual([answer.provider, answer.usedFallback], ['google', true]);
  });

  it('the first two down: the third answers', async () => {
    servers.openai.mode = 'error500';
    servers.anthropic.mode = 'rateLimited';
    const answer = await agentsWith(['openai', 'anthropic', 'google']).agent1Insights({ signals: struggle });
    assert.deepEqual([answer.provider, answer.usedFallback], ['google', true]);
  });

  it('every provider down: AllProvidersUnavailableError names each failure', async () => {
    servers.openai.mode = 'error500';
    servers.anthropic.mode = 'timeout';
    servers.google.mode = 'notJson';
    await assert.rejects(
      agentsWith(['openai', 'anthropic', 'google']).agent1Insights({ signals: struggle }),
      (error: unknown) => {
        assert.ok(error instanceof AllProvidersUnavailableError);
        assert.deepEqual(
          error.failures.map((f) => [f.provider, f.kind]),
          [
            ['openai', 'unavailable'],
            ['anthropic', 'unavailable'],
            ['google', 'output'],
          ],
        );
        assert.match(error.failures[0]!.reason, /HTTP 500/);
        assert.equal(error.retryable, true);
        return true;
      },
    );
  });

  it('each failure is classified: busy (with its Retry-After), unavailable, output, refused', async () => {
    const expected: readonly [ProviderMode, FailureKind][] = [
      ['rateLimited', 'busy'],
      ['overloaded', 'busy'],
      ['error500', 'unavailable'],
      ['timeout', 'unavailable'],
      ['notJson', 'output'],
      ['fenced', 'output'],
      ['unknownIds', 'output'],
      ['badKey', 'refused'],
      ['modelRetired', 'refused'],
    ];
    for (const name of PROVIDER_NAMES) {
      for (const [mode, kind] of expected) {
        servers[name].mode = mode;
        const refused: ProviderFailure[] = [];
        const agents = createAgents({
          providers: configuredProviders(
            testConfig({ AI_PROVIDER_ORDER: name, AI_TIMEOUT_MS: '400', ...envOf(servers, [name]) }).ai,
          ),
          onRefused: (failure) => {
            refused.push(failure);
            return Promise.resolve();
          },
        });
        const error = await agents.agent1Insights({ signals: struggle }).then(
          () => assert.fail(`${name} ${mode} answered`),
          (caught: unknown) => caught,
        );
        assert.ok(error instanceof AllProvidersUnavailableError);
        const [failure] = error.failures;
        assert.equal(failure!.kind, kind, `${name} ${mode}: ${failure!.reason}`);
        // Only a refusal needs an operator; only it makes the step not worth retrying.
        assert.deepEqual(refused, kind === 'refused' ? [failure] : []);
        assert.equal(error.retryable, kind !== 'refused');
        assert.equal(error.busy, kind === 'busy');
        if (mode === 'rateLimited' && name !== 'google') assert.equal(error.retryAfterMs, 30_000);
      }
      servers[name].mode = 'ok';
    }
  });

  it('a provider without its API key is left out of the order', () => {
    const config = testConfig({ AI_PROVIDER_ORDER: 'google,openai', ...servers.openai.env() });
    assert.deepEqual(
      configuredProviders(config.ai).map((p) => p.name),
      ['openai'],
    );
  });

  it('no credentials: the deterministic local analyst answers, named local-analyst', async () => {
    const agents = createAgents({ providers: configuredProviders(testConfig().ai) });
    assert.equal(agents.local, true);
    const first = await agents.agent1Insights({ signals: struggle, snapshotAt: t(60) });
    const again = await agents.agent1Insights({ signals: struggle, snapshotAt: t(60) });
    assert.equal(first.provider, LOCAL_ANALYST);
    assert.equal(first.usedFallback, false);
    assert.deepEqual(first, again);
    assert.deepEqual(
      first.result.criticalMoments.map((m) => [m.type, m.severity]),
      [
        ['rage_clicks', 'medium'],
        ['error', 'high'],
      ],
    );
    assert.ok(PROVIDER_NAMES.every((name) => servers[name].requests.length === 0));
  });

  it('AI_PROVIDER_ORDER must name known providers, each once', () => {
    assert.throws(() => testConfig({ AI_PROVIDER_ORDER: 'openai,mistral' }), ConfigError);
    assert.throws(() => testConfig({ AI_PROVIDER_ORDER: 'openai,openai' }), ConfigError);
    assert.deepEqual(testConfig({ AI_PROVIDER_ORDER: 'Google, anthropic' }).ai.order, [
      'google',
      'anthropic',
    ]);
  });
});
