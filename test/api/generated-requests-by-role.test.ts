import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { TEST_TOKEN_HEADER } from '../../api/auth/test-tokens.ts';
import type { RouteDefinition } from '../../api/http/route.ts';
import { asSystem } from '../../db/doors.ts';
import {
  analyzedSession,
  activeStudy,
  eligibleTester,
  readNotes,
  testTokenFor,
} from '../sessions/fixtures.ts';
import { openOffer } from '../sessions/lifecycle-fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness, createMembers, createTester } from '../support/factories.ts';
import { jsonSchemaOf, queryString, sendGenerated } from '../support/generated-requests.ts';
import { arbitraryOf, validValueOf, type JsonSchema, type KnownIds } from '../support/schema-arbitrary.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';

// Generated requests that reach the handlers: every route, as each kind of caller (the study's
// owner, a tester with a session on it, an admin, an API token, the session's test token, nobody),
// against a world of real records (a study, an analyzed session with notes, an offer, a capacity
// review, an API token). Path parameters name those records most of the time, and bodies and
// queries are mostly valid by construction (their ids the world's), the rest hostile. No answer
// may be a 5xx but a 503 the route documents. Seeded, so a failure repeats.
const SEED = 20_261_129;
/** Runs for a caller the route admits; a caller it refuses needs only a few to show it refuses cleanly. */
const RUNS_ADMITTED = 16;
const RUNS_REFUSED = 3;

type Role = 'owner' | 'tester' | 'admin' | 'apiToken' | 'testToken' | 'anonymous';
const ROLES: readonly Role[] = ['owner', 'tester', 'admin', 'apiToken', 'testToken', 'anonymous'];

/** Which record a path parameter names, by the path segment before it. */
const PARAM_RECORDS: Readonly<Record<string, string>> = {
  jobs: 'jobId',
  job: 'jobId',
  sessions: 'sessionId',
  testers: 'testerId',
  'capacity-reviews': 'reviewId',
  outreach: 'outreachId',
  tokens: 'apiTokenId',
  recording: 'chunk',
};

/** Valid by construction two times in three, hostile otherwise. */
const mostlyValid = (schema: JsonSchema | undefined, ids: KnownIds) =>
  schema
    ? fc.oneof(
        { weight: 2, arbitrary: validValueOf(schema, ids) },
        { weight: 1, arbitrary: arbitraryOf(schema) },
      )
    : fc.constant(undefined);

function requestsFor(route: RouteDefinition, ids: KnownIds) {
  const segments = route.path.split('/');
  const params = segments
    .map((segment, index) => ({ segment, record: PARAM_RECORDS[segments[index - 1] ?? ''] }))
    .filter(({ segment }) => segment.startsWith(':'));
  const paramValue = (record: string | undefined) => {
    const known = record ? ids[record] : undefined;
    return fc.oneof(
      ...(known ? [{ weight: 6, arbitrary: fc.constant(known) }] : []),
      { weight: 2, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.constantFrom('0', '%00', 'a'.repeat(300)) },
    );
  };
  return fc
    .record({
      params: fc.tuple(...params.map(({ record }) => paramValue(record))),
      query: mostlyValid(jsonSchemaOf(route.query), ids),
      body: mostlyValid(jsonSchemaOf(route.body), ids),
    })
    .map(({ params: values, query, body }) => {
      let path = route.path;
      params.forEach(({ segment }, index) => {
        const value = values[index]!;
        path = path.replace(segment, value.includes('%') ? value : encodeURIComponent(value));
      });
      return { path: `${path}${queryString(query)}`, body };
    });
}

const isTestTokenRoute = (route: RouteDefinition) =>
  (route.method === 'POST' && /^\/api\/sessions\/:id\/(events|snapshots|voice)$/.test(route.path)) ||
  (route.method === 'PATCH' && route.path === '/api/sessions/:id');

function admits(route: RouteDefinition, role: Role): boolean {
  if (route.auth === 'public') return role === 'anonymous';
  if (role === 'anonymous') return false;
  if (role === 'testToken') return isTestTokenRoute(route);
  const userRole = role === 'owner' || role === 'apiToken' ? 'business' : role;
  return !route.roles || route.roles.includes(userRole);
}

describe('generated requests as every kind of caller, reaching the handlers: never a 5xx (seeded)', function () {
  this.timeout(900_000);
  let api: TestApi;
  let ownerToken: string;
  let organizationId: string;
  let ids: Record<string, string>;

  /** An API token of the world's organization (a route of the owner's may revoke one: each route has its own). */
  async function issueApiToken(): Promise<{ token: string; tokenId: string }> {
    const issued = await api.request('POST', '/api/auth/tokens', {
      token: ownerToken,
      body: { name: 'generated requests', scope: 'read_write' },
    });
    assert.equal(issued.status, 201, issued.text);
    return issued.body.data as { token: string; tokenId: string };
  }

  /** A member of the world's organization: its records, and a rate-limit budget of its own. */
  async function member(): Promise<string> {
    const [claims] = await createMembers(organizationId, 1, 'owner');
    return sessionToken(claims!);
  }

  /** A tester with a live session on the world's study: that session's routes are theirs. */
  async function testerWithSession(): Promise<{ token: string; sessionId: string; testerId: string }> {
    const tester = await eligibleTester();
    const created = await api.request('POST', '/api/sessions', {
      token: await member(),
      body: { jobId: ids.jobId, testerId: tester.sub },
    });
    assert.equal(created.status, 201, created.text);
    const { sessionId } = created.body.data as { sessionId: string };
    return { token: await sessionToken(tester), sessionId, testerId: tester.sub };
  }

  before(async function () {
    this.timeout(300_000);
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    const business = await createBusiness('pro');
    organizationId = business.organizationId;
    ownerToken = await sessionToken(business.claims);
    const jobId = await activeStudy(api, ownerToken, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 500 },
    });
    const analyzed = await analyzedSession(api, ownerToken, jobId);
    const [note] = await readNotes(api, analyzed.sessionId, ownerToken);
    const outreachId = await openOffer(jobId, (await eligibleTester()).sub);
    // A short study: matching has stored a review, or this one is (its segment another country).
    const review = await asSystem(testDatabase(), async (tx) => {
      const stored = await tx
        .selectFrom('capacity_reviews')
        .select('id')
        .where('study_id', '=', jobId)
        .executeTakeFirst();
      return (
        stored ??
        tx
          .insertInto('capacity_reviews')
          .values({
            study_id: jobId,
            requested_count: 5,
            available_count: 1,
            segment: { country: 'FR', ageRange: null },
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      );
    });
    const token = await issueApiToken();
    ids = {
      jobId,
      sessionId: analyzed.sessionId,
      testerId: analyzed.tester.sub,
      noteId: note?.noteId ?? randomUUID(),
      outreachId,
      reviewId: review.id,
      apiTokenId: token.tokenId,
      chunk: '0',
    };
  });
  after(() => api?.stop());

  /** The caller's headers for one (route, role), and the ids its requests should name. */
  async function callerFor(
    route: RouteDefinition,
    role: Role,
  ): Promise<{ headers: Record<string, string>; ids: KnownIds }> {
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
    const admitted = admits(route, role);
    switch (role) {
      case 'owner':
        return { headers: bearer(await member()), ids };
      case 'admin':
        return { headers: bearer(await sessionToken(await createAdmin())), ids };
      case 'apiToken':
        return { headers: bearer((await issueApiToken()).token), ids };
      case 'anonymous':
        return { headers: {}, ids };
      case 'tester': {
        if (!admitted) return { headers: bearer(await sessionToken(await createTester())), ids };
        const own = await testerWithSession();
        return {
          headers: bearer(own.token),
          ids: { ...ids, sessionId: own.sessionId, testerId: own.testerId },
        };
      }
      case 'testToken': {
        const own = admitted ? await testerWithSession() : { sessionId: ids.sessionId! };
        return {
          headers: { [TEST_TOKEN_HEADER]: await testTokenFor(own.sessionId) },
          ids: { ...ids, sessionId: own.sessionId },
        };
      }
    }
  }

  it('answers every generated request with a status below 500 (or a documented 503), and most admitted ones reach past validation', async () => {
    // Routes behind a service credential or a signature refuse before reading anything.
    const routes = api.api.routes.filter((route) => !route.credential && !route.rawBody);
    const failures: string[] = [];
    const reached = new Map<Role, { sent: number; succeeded: number }>(
      ROLES.map((role) => [role, { sent: 0, succeeded: 0 }]),
    );
    let sent = 0;
    for (const route of routes) {
      for (const role of ROLES) {
        const admitted = admits(route, role);
        const caller = await callerFor(route, role);
        await fc.assert(
          fc.asyncProperty(requestsFor(route, caller.ids), async (request) => {
            const headers = {
              ...caller.headers,
              'X-Forwarded-For': `10.8.${(sent >> 8) & 255}.${sent++ & 255}`,
            };
            const { status, failure } = await sendGenerated(api.url, route, request, headers);
            if (failure) failures.push(`${role} ${failure}`);
            if (admitted && status !== undefined) {
              const tally = reached.get(role)!;
              tally.sent += 1;
              if (status < 300) tally.succeeded += 1;
            }
          }),
          { seed: SEED, numRuns: admitted ? RUNS_ADMITTED : RUNS_REFUSED, endOnFailure: true },
        );
      }
    }
    assert.deepEqual(failures, []);
    // Not a suite of refusals: each kind of caller has requests its routes carried out.
    for (const role of ROLES) {
      const tally = reached.get(role)!;
      assert.ok(
        tally.succeeded > 0,
        `${role}: ${tally.succeeded} of ${tally.sent} admitted requests succeeded`,
      );
    }
    console.log(`      ${[...reached].map(([role, t]) => `${role} ${t.succeeded}/${t.sent}`).join(', ')}`);
  });
});
