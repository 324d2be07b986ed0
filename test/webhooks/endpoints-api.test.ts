import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { asSystem, asUser } from '../../db/doors.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../../commands/webhooks/endpoint-commands.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createMembers, createTester, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';

const ALLOWED = '127.0.0.1:9'; // the one private host:port this API lets endpoints name (AUDIT_ALLOWED_HOSTS)
const URL_OK = `http://${ALLOWED}/hooks`;

interface EndpointView {
  endpointId: string;
  url: string;
  description: string;
  events: string[];
  status: string;
  disabledReason: string | null;
  disabledAt: string | null;
  secret?: string;
}

describe('webhook endpoints (POST, GET /api/webhook-endpoints, GET, PATCH, DELETE /api/webhook-endpoints/:id, GET .../deliveries)', () => {
  let api: TestApi;
  let business: BusinessFixture;
  let owner: string;

  before(async () => {
    api = await startTestApi({ worker: false, env: { AUDIT_ALLOWED_HOSTS: ALLOWED } });
    business = await createBusiness('pro');
    owner = await sessionToken(business.claims);
  });
  after(() => api.stop());

  async function register(body: Record<string, unknown>, token = owner): Promise<EndpointView> {
    const response = await api.request('POST', '/api/webhook-endpoints', { token, body });
    assert.equal(response.status, 201, response.text);
    return response.body.data as EndpointView;
  }

  it('registers an endpoint: 201 with the secret shown this once, never in a list or a read', async () => {
    const created = await register({
      url: URL_OK,
      events: ['study.completed', 'payout.paid'],
      description: 'CRM',
    });
    assert.match(created.secret!, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      { url: created.url, events: created.events, description: created.description, status: created.status },
      { url: URL_OK, events: ['study.completed', 'payout.paid'], description: 'CRM', status: 'enabled' },
    );
    const list = await api.request('GET', '/api/webhook-endpoints', { token: owner });
    assert.equal(list.status, 200);
    assert.ok((list.body.data as EndpointView[]).some((row) => row.endpointId === created.endpointId));
    const read = await api.request('GET', `/api/webhook-endpoints/${created.endpointId}`, { token: owner });
    assert.equal(read.status, 200);
    for (const text of [list.text, read.text]) {
      assert.ok(!text.includes(created.secret!));
      assert.ok(!text.includes('"secret"'));
    }
  });

  it("the secret cannot be read back on a caller's behalf, even by the owner: no column grant covers it", async () => {
    const { endpointId } = await register({ url: URL_OK, events: ['report.ready'] });
    await assert.rejects(
      asUser(testDatabase(), business.claims, (tx) =>
        tx.selectFrom('webhook_endpoints').select('secret').where('id', '=', endpointId).execute(),
      ),
      /permission denied/,
    );
    const visible = await asUser(testDatabase(), business.claims, (tx) =>
      tx.selectFrom('webhook_endpoints').select('url').where('id', '=', endpointId).execute(),
    );
    assert.equal(visible.length, 1);
  });

  it('validates the body: 422 naming the field for a bad URL, an unknown or missing event type, a long description', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: 'ftp://example.com/x', events: ['study.completed'] }, /url/],
      [{ url: 'not a url', events: ['study.completed'] }, /url/],
      [{ url: URL_OK, events: ['study.deleted'] }, /events/],
      [{ url: URL_OK, events: [] }, /events/],
      [{ url: URL_OK }, /events/],
      [{ events: ['study.completed'] }, /url/],
      [{ url: URL_OK, events: ['study.completed'], description: 'x'.repeat(201) }, /description/],
    ];
    for (const [body, field] of cases) {
      const response = await api.request('POST', '/api/webhook-endpoints', { token: owner, body });
      assert.equal(response.status, 422, `${JSON.stringify(body)}: ${response.text}`);
      assert.match(response.body.error!, field);
    }
  });

  it('repeated event types are kept once', async () => {
    const created = await register({ url: URL_OK, events: ['session.confirmed', 'session.confirmed'] });
    assert.deepEqual(created.events, ['session.confirmed']);
  });

  it("the URL passes the audits' guard: private, loopback and metadata addresses are refused with 422", async () => {
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'http://10.0.0.8/hooks',
      'http://169.254.169.254/latest/meta-data',
      'http://localhost:9999/',
    ]) {
      const response = await api.request('POST', '/api/webhook-endpoints', {
        token: owner,
        body: { url, events: ['study.completed'] },
      });
      assert.equal(response.status, 422, url);
      assert.match(response.body.error!, /url/);
    }
  });

  it('only owners manage endpoints: a member and a tester get 403; another organization sees 404', async () => {
    const { endpointId } = await register({ url: URL_OK, events: ['study.activated'] });
    const [member] = await createMembers(business.organizationId, 1);
    const memberJwt = await sessionToken(member!);
    const testerJwt = await sessionToken(await createTester());
    for (const token of [memberJwt]) {
      assert.equal((await api.request('GET', '/api/webhook-endpoints', { token })).status, 403);
      const post = await api.request('POST', '/api/webhook-endpoints', {
        token,
        body: { url: URL_OK, events: ['study.activated'] },
      });
      assert.equal(post.status, 403);
    }
    assert.equal((await api.request('GET', '/api/webhook-endpoints', { token: testerJwt })).status, 403);
    const other = await createBusiness('pro');
    const otherJwt = await sessionToken(other.claims);
    for (const [method, path] of [
      ['GET', `/api/webhook-endpoints/${endpointId}`],
      ['PATCH', `/api/webhook-endpoints/${endpointId}`],
      ['DELETE', `/api/webhook-endpoints/${endpointId}`],
      ['GET', `/api/webhook-endpoints/${endpointId}/deliveries`],
    ] as const) {
      const response = await api.request(method, path, {
        token: otherJwt,
        body: method === 'PATCH' ? { enabled: false } : undefined,
      });
      assert.equal(response.status, 404, `${method} ${path}`);
    }
    const list = await api.request('GET', '/api/webhook-endpoints', { token: otherJwt });
    assert.deepEqual(list.body.data, []);
  });

  it('PATCH changes the events and turns the endpoint off and on; an empty body is 422', async () => {
    const { endpointId } = await register({ url: URL_OK, events: ['study.activated'] });
    const path = `/api/webhook-endpoints/${endpointId}`;
    const off = await api.request('PATCH', path, {
      token: owner,
      body: { enabled: false, events: ['audit.completed'] },
    });
    assert.equal(off.status, 200, off.text);
    const disabled = off.body.data as EndpointView;
    assert.deepEqual(
      [disabled.status, disabled.disabledReason, disabled.events],
      ['disabled', 'owner', ['audit.completed']],
    );
    assert.ok(disabled.disabledAt);
    const on = await api.request('PATCH', path, { token: owner, body: { enabled: true } });
    const enabled = on.body.data as EndpointView;
    assert.deepEqual([enabled.status, enabled.disabledReason, enabled.disabledAt], ['enabled', null, null]);
    const empty = await api.request('PATCH', path, { token: owner, body: {} });
    assert.equal(empty.status, 422);
    const blocked = await api.request('PATCH', path, { token: owner, body: { url: 'http://10.1.2.3/' } });
    assert.equal(blocked.status, 422);
    assert.match(blocked.body.error!, /url/);
    assert.equal(
      (
        await api.request('PATCH', `/api/webhook-endpoints/${randomUUID()}`, {
          token: owner,
          body: { enabled: true },
        })
      ).status,
      404,
    );
  });

  it('DELETE removes the endpoint and its delivery log', async () => {
    const { endpointId } = await register({ url: URL_OK, events: ['study.completed'] });
    const path = `/api/webhook-endpoints/${endpointId}`;
    const deleted = await api.request('DELETE', path, { token: owner });
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body.data, { endpointId, deleted: true });
    assert.equal((await api.request('GET', path, { token: owner })).status, 404);
    assert.equal((await api.request('DELETE', path, { token: owner })).status, 404);
  });

  it('the delivery log lists each delivery, newest first, with its attempts and last response code', async () => {
    const organization = await createBusiness('pro');
    const jwt = await sessionToken(organization.claims);
    const { endpointId } = await register({ url: URL_OK, events: ['study.completed'] }, jwt);
    // Two events recorded and tried as the worker does, straight in the tables.
    const [first, second] = await asSystem(testDatabase(), async (tx) => {
      const ids: string[] = [];
      for (const [n, code] of [
        [1, 500],
        [2, 200],
      ] as const) {
        const event = await tx
          .insertInto('webhook_events')
          .values({
            organization_id: organization.organizationId,
            type: 'study.completed',
            object: JSON.stringify({ studyId: randomUUID() }),
            dedupe_key: `test:${randomUUID()}`,
            created_at: new Date(Date.now() + n * 1000),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const delivery = await tx
          .insertInto('webhook_deliveries')
          .values({
            event_id: event.id,
            endpoint_id: endpointId,
            organization_id: organization.organizationId,
            attempts: n,
            last_response_code: code,
            status: code === 200 ? 'delivered' : 'pending',
            delivered_at: code === 200 ? new Date() : null,
            created_at: new Date(Date.now() + n * 1000),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(delivery.id);
      }
      return ids;
    });
    const log = await api.request('GET', `/api/webhook-endpoints/${endpointId}/deliveries?limit=1`, {
      token: jwt,
    });
    assert.equal(log.status, 200, log.text);
    assert.deepEqual(log.body.metadata, { page: 1, limit: 1, total: 2 });
    const [newest] = log.body.data as {
      deliveryId: string;
      status: string;
      attempts: number;
      lastResponseCode: number;
      eventType: string;
    }[];
    assert.deepEqual(
      {
        id: newest!.deliveryId,
        status: newest!.status,
        attempts: newest!.attempts,
        code: newest!.lastResponseCode,
        type: newest!.eventType,
      },
      { id: second, status: 'delivered', attempts: 2, code: 200, type: 'study.completed' },
    );
    const older = await api.request('GET', `/api/webhook-endpoints/${endpointId}/deliveries?page=2&limit=1`, {
      token: jwt,
    });
    assert.equal((older.body.data as { deliveryId: string }[])[0]!.deliveryId, first);
  });

  it(`an organization has at most ${MAX_WEBHOOK_ENDPOINTS} endpoints: one more is 409`, async () => {
    const organization = await createBusiness('free');
    const jwt = await sessionToken(organization.claims);
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('webhook_endpoints')
        .values(
          Array.from({ length: MAX_WEBHOOK_ENDPOINTS }, () => ({
            organization_id: organization.organizationId,
            url: URL_OK,
            events: sql<['study.completed']>`array['study.completed']`,
            secret: `whsec_${'s'.repeat(43)}`,
            created_by: organization.userId,
          })),
        )
        .execute(),
    );
    const response = await api.request('POST', '/api/webhook-endpoints', {
      token: jwt,
      body: { url: URL_OK, events: ['study.completed'] },
    });
    assert.equal(response.status, 409, response.text);
    assert.match(response.body.error!, /at most 16/);
  });

  it('an API token with the admin scope manages endpoints; read and read_write do not', async () => {
    const tokens: Record<string, string> = {};
    for (const scope of ['read', 'read_write', 'admin']) {
      const issued = await api.request('POST', '/api/auth/tokens', {
        token: owner,
        body: { name: scope, scope },
      });
      tokens[scope] = (issued.body.data as { token: string }).token;
    }
    assert.equal((await api.request('GET', '/api/webhook-endpoints', { token: tokens.read })).status, 403);
    assert.equal(
      (await api.request('GET', '/api/webhook-endpoints', { token: tokens.read_write })).status,
      403,
    );
    const created = await api.request('POST', '/api/webhook-endpoints', {
      token: tokens.admin,
      body: { url: URL_OK, events: ['payout.paid'] },
    });
    assert.equal(created.status, 201, created.text);
  });
});
