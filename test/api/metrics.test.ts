import assert from 'node:assert/strict';
import { serveMetrics } from '../../api/http/metrics.ts';
import { event, recordingSession } from '../ingestion/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

/** The value of one sample line of the Prometheus text, or undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && wanted.every((pair) => l.includes(pair)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics: GET /metrics on a port of its own, and liveness apart from readiness', () => {
  let api: TestApi;
  let metrics: { url: string; close(): void };
  before(async () => {
    api = await startTestApi({ worker: false });
    const served = await serveMetrics([api.api.metrics.registry], '127.0.0.1', 0);
    metrics = { url: served.url, close: () => served.server.close() };
  });
  after(async () => {
    metrics.close();
    await api.stop();
  });
  const scrape = async () => {
    const response = await fetch(metrics.url);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    return response.text();
  };

  it('counts requests, errors and their durations by method, route template and status', async () => {
    await api.request('GET', '/api/health');
    await api.request('GET', '/api/health');
    await api.request('GET', `/api/jobs/${crypto.randomUUID()}`);
    await api.request('GET', '/api/no-such-thing');
    const text = await scrape();
    const health = { method: 'GET', route: '/api/health', status: '200' };
    assert.equal(sample(text, 'http_requests_total', health), 2);
    assert.equal(sample(text, 'http_request_duration_seconds_count', health), 2);
    assert.ok(sample(text, 'http_request_duration_seconds_bucket', { ...health, le: '+Inf' }) === 2);
    // A path's ids never become labels: the route's template does, even for a request refused before routing.
    const job = { method: 'GET', route: '/api/jobs/:id', status: '401' };
    assert.equal(sample(text, 'http_requests_total', job), 1);
    assert.equal(sample(text, 'http_request_errors_total', job), 1);
    assert.equal(sample(text, 'http_requests_total', { route: 'unmatched', status: '404' }), 1);
    assert.equal(sample(text, 'http_request_errors_total', health), undefined);
    assert.doesNotMatch(text, /route="\/api\/jobs\/[0-9a-f]{8}-/);
  });

  it('counts rate-limit refusals by route', async () => {
    const limited = await startTestApi({ worker: false });
    const served = await serveMetrics([limited.api.metrics.registry], '127.0.0.1', 0);
    try {
      // Anonymous callers have 30 requests a minute.
      for (let i = 0; i < 31; i += 1) await limited.request('GET', '/api/health/live');
      const text = await (await fetch(served.url)).text();
      assert.equal(sample(text, 'rate_limit_refusals_total', { route: '/api/health/live' }), 1);
      assert.equal(sample(text, 'http_requests_total', { route: '/api/health/live', status: '429' }), 1);
    } finally {
      served.server.close();
      await limited.stop();
    }
  });

  it('counts ingested items, accepted and rejected, by kind', async () => {
    const s = await recordingSession();
    const before = await scrape();
    const response = await api.request('POST', `/api/sessions/${s.sessionId}/events`, {
      headers: { 'X-Test-Token': s.testToken },
      body: { batch: [event({}, 1), event({}, 2), event({ eventType: 'teleport' }, 3)] },
    });
    assert.equal(response.status, 200, response.text);
    const text = await scrape();
    const count = (outcome: string, source: string) =>
      sample(source, 'ingestion_items_total', { kind: 'events', outcome }) ?? 0;
    assert.equal(count('accepted', text) - count('accepted', before), 2);
    assert.equal(count('rejected', text) - count('rejected', before), 1);
  });

  it('answers only GET /metrics', async () => {
    const other = await fetch(metrics.url.replace('/metrics', '/api/health'));
    assert.equal(other.status, 404);
  });

  it('GET /api/health/live answers while the process runs, without asking its dependencies', async () => {
    const response = await api.request('GET', '/api/health/live');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.data, { status: 'ok' });
  });
});
