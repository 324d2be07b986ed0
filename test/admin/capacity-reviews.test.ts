import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { CLOSED_UNDECIDED_NOTE } from '../../db/repositories/capacity-reviews.ts';
import { recruitmentQuery } from '../../workflows/messages/recruitment.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import { insertStudy } from '../auth/helpers.ts';
import { qualifiedTester } from '../outreach/fixtures.ts';
import { activeStudy, waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness, createTester } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';

interface Review {
  reviewId: string;
  jobId: string;
  requestedCount: number;
  availableCount: number;
  segment: { country: string; ageRange: { min: number; max: number } | null };
  status: string;
  createdAt: string;
  adjustedCount?: number;
  resolvedAt?: string;
}

const PENDING_FIELDS = [
  'availableCount',
  'createdAt',
  'jobId',
  'requestedCount',
  'reviewId',
  'segment',
  'status',
];

/** A pending review of an archived study (its workflow is over: a decision signals nothing). */
async function storedReview(organizationId: string, requested: number, available: number): Promise<string> {
  const studyId = await insertStudy(organizationId, { status: 'archived' });
  const row = await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('capacity_reviews')
      .values({
        study_id: studyId,
        requested_count: requested,
        available_count: available,
        segment: { country: 'SE', ageRange: null },
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return row.id;
}

describe('capacity reviews (GET /api/admin/capacity-reviews, POST /api/admin/capacity-reviews/:id)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let admin: string;
  let adminId: string;
  let businessJwt: string;
  let organizationId: string;

  before(async () => {
    api = await startTestApi();
    const adminClaims = await createAdmin();
    adminId = adminClaims.sub;
    admin = await sessionToken(adminClaims);
    const business = await createBusiness('pro');
    organizationId = business.organizationId;
    businessJwt = await sessionToken(business.claims);
  });
  after(() => api.stop());

  const list = (query: string, token = admin) =>
    api.request('GET', `/api/admin/capacity-reviews?${query}`, { token });
  const decide = (id: string, body: unknown, token = admin) =>
    api.request('POST', `/api/admin/capacity-reviews/${id}`, { token, body });

  it('a paid study short in two countries waits on two reviews; the decisions reach its workflow: matching follows them and the business hears of the rejection', async () => {
    // Czechia (CZ), Poland (PL) and Norway (NO): no other test recruits there. Two testers each.
    const czechs: string[] = [];
    for (let i = 0; i < 5; i += 1) czechs.push(await qualifiedTester('CZ', { birth_year: 1990 }));
    const pole = await qualifiedTester('PL', { birth_year: 1990 });
    const jobId = await activeStudy(api, businessJwt, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: {
        countries: ['CZ', 'PL', 'NO'],
        devices: ['desktop'],
        testerCount: 6,
        ageRange: { min: 18, max: 99 },
      },
    });
    const reviews = async () => {
      const answer = await list(`jobId=${jobId}`);
      assert.equal(answer.status, 200, answer.text);
      return answer.body.data as Review[];
    };
    // Waited for in the database: the API's rate limit would not stand the polling.
    const stored = () =>
      asSystem(testDatabase(), (tx) =>
        tx.selectFrom('capacity_reviews').select('id').where('study_id', '=', jobId).execute(),
      );
    await waitFor(async () => (await stored()).length === 2);
    const poland = (await reviews()).find((review) => review.segment.country === 'PL');
    const norway = (await reviews()).find((review) => review.segment.country === 'NO');
    for (const review of [poland!, norway!]) {
      assert.deepEqual(Object.keys(review).sort(), PENDING_FIELDS);
      assert.equal(review.jobId, jobId);
      assert.equal(review.status, 'pending');
      assert.equal(review.requestedCount, 2);
      assert.ok(!Number.isNaN(Date.parse(review.createdAt)));
    }
    assert.deepEqual(poland!.segment, { country: 'PL', ageRange: { min: 18, max: 99 } });
    assert.equal(poland!.availableCount, 1);
    assert.deepEqual(norway!.segment, { country: 'NO', ageRange: { min: 18, max: 99 } });
    assert.equal(norway!.availableCount, 0);

    // Meanwhile: Czechia its share and margin (3), Poland its one tester; the workflow shows the wait.
    const proposed = async () =>
      (
        await asSystem(testDatabase(), (tx) =>
          tx.selectFrom('proposals').select('tester_id').where('study_id', '=', jobId).execute(),
        )
      ).map((row) => row.tester_id);
    await waitFor(async () => (await proposed()).length === 4);
    assert.ok((await proposed()).includes(pole));
    const handle = (await temporalEnvironment()).client.workflow.getHandle(studyWorkflowId(jobId));
    await waitFor(async () => (await handle.query(recruitmentQuery)).pendingCapacityReviews === 2);

    const approved = await decide(poland!.reviewId, {
      decision: 'approved',
      adjustedCount: 1,
      note: 'Small market',
    });
    assert.equal(approved.status, 200, approved.text);
    assert.deepEqual(Object.keys(approved.body.data as object).sort(), [
      'adjustedCount',
      'resolvedAt',
      'reviewId',
      'status',
    ]);
    assert.equal((approved.body.data as Review).status, 'approved');
    assert.equal((approved.body.data as Review).adjustedCount, 1);
    const rejected = await decide(norway!.reviewId, { decision: 'rejected' });
    assert.equal(rejected.status, 200, rejected.text);
    assert.deepEqual(
      { ...(rejected.body.data as object), resolvedAt: undefined },
      { reviewId: norway!.reviewId, status: 'rejected', adjustedCount: 0, resolvedAt: undefined },
    );

    // Czechia now holds the six places less Poland's one: all five of its testers are proposed.
    await waitFor(async () => (await proposed()).length === 6);
    const all = await proposed();
    assert.ok(czechs.every((id) => all.includes(id)));
    await waitFor(async () => (await handle.query(recruitmentQuery)).pendingCapacityReviews === 0);
    const mails = async () =>
      asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('notification_outbox')
          .select(['kind', 'channel', 'subject', 'status'])
          .where('kind', '=', 'capacity_rejected')
          .where((eb) => eb(eb.ref('payload', '->>').key('studyId' as never), '=', jobId))
          .execute(),
      );
    await waitFor(async () => (await mails()).some((mail) => mail.status === 'sent'));
    assert.equal((await mails()).length, 1, 'the rejection only, once');
    assert.match((await mails())[0]!.subject!, /No more testers in NO/);

    const decided = await reviews();
    assert.ok(decided.every((review) => review.resolvedAt && review.adjustedCount !== undefined));
    const twice = await decide(norway!.reviewId, { decision: 'approved' });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error, 'Capacity review must be pending to decide (it is rejected)');
  });

  it('a rejection decided while the study is paused reaches the business at once', async () => {
    // Albania (AL) and Montenegro (ME): no other test recruits there; nobody tests in Montenegro.
    await qualifiedTester('AL');
    await qualifiedTester('AL');
    const jobId = await activeStudy(api, businessJwt, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: { countries: ['AL', 'ME'], devices: ['desktop'], testerCount: 2 },
    });
    const stored = () =>
      asSystem(testDatabase(), (tx) =>
        tx.selectFrom('capacity_reviews').select('id').where('study_id', '=', jobId).execute(),
      );
    await waitFor(async () => (await stored()).length === 1);
    const paused = await api.request('PATCH', `/api/jobs/${jobId}`, {
      token: businessJwt,
      body: { status: 'paused' },
    });
    assert.equal(paused.status, 200, paused.text);
    const [review] = await stored();
    assert.equal((await decide(review!.id, { decision: 'rejected' })).status, 200);
    await waitFor(async () => {
      const mails = await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('notification_outbox')
          .select('status')
          .where('kind', '=', 'capacity_rejected')
          .where((eb) => eb(eb.ref('payload', '->>').key('studyId' as never), '=', jobId))
          .execute(),
      );
      return mails.length === 1 && mails[0]!.status === 'sent';
    });
  });

  it('a review still pending when its study stops recruiting is closed: rejected by nobody, and the business is not mailed', async () => {
    // Seychelles (SC) and the Maldives (MV): no other test recruits there; nobody tests in the Maldives.
    await qualifiedTester('SC');
    const jobId = await activeStudy(api, businessJwt, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: { countries: ['SC', 'MV'], devices: ['desktop'], testerCount: 2 },
    });
    await waitFor(
      async () => ((await list(`jobId=${jobId}&status=pending`)).body.data as Review[]).length === 1,
    );
    const archived = await api.request('PATCH', `/api/jobs/${jobId}`, {
      token: businessJwt,
      body: { status: 'archived' },
    });
    assert.equal(archived.status, 200, archived.text);
    await waitFor(
      async () => ((await list(`jobId=${jobId}&status=rejected`)).body.data as Review[]).length === 1,
    );
    const [closed] = (await list(`jobId=${jobId}`)).body.data as Review[];
    assert.deepEqual([closed!.status, closed!.adjustedCount], ['rejected', 0]);
    assert.ok(closed!.resolvedAt);
    const row = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('capacity_reviews')
        .selectAll()
        .where('id', '=', closed!.reviewId)
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual([row.resolved_by, row.note], [null, CLOSED_UNDECIDED_NOTE]);
    // Marked told when closed: no later notice run (a completed study's goes on) mails it.
    assert.ok(row.business_notified_at, 'a closed review is marked as told');
    const refused = await decide(closed!.reviewId, { decision: 'approved', adjustedCount: 1 });
    assert.equal(refused.status, 409, refused.text);
    const recruitment = await (
      await temporalEnvironment()
    ).client.workflow
      .getHandle(studyWorkflowId(jobId))
      .query(recruitmentQuery);
    assert.equal(recruitment.pendingCapacityReviews, 0);
    const mails = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('notification_outbox')
        .select('id')
        .where('kind', '=', 'capacity_rejected')
        .where((eb) => eb(eb.ref('payload', '->>').key('studyId' as never), '=', jobId))
        .execute(),
    );
    assert.equal(mails.length, 0, 'a closed review is not a rejection to tell the business of');
  });

  it('an approval without adjustedCount holds what is available; the review reads its decision', async () => {
    const id = await storedReview(organizationId, 5, 2);
    const approved = await decide(id, { decision: 'approved' });
    assert.equal(approved.status, 200, approved.text);
    assert.equal((approved.body.data as Review).adjustedCount, 2);
    const stored = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('capacity_reviews').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    );
    assert.equal(stored.status, 'approved');
    assert.equal(stored.resolved_at!.toISOString(), (approved.body.data as Review).resolvedAt);
    assert.equal(stored.note, null);
    assert.equal(stored.resolved_by, adminId);
    // An admin whose account is gone (a token outliving it) is recorded as nobody.
    const another = await storedReview(organizationId, 1, 1);
    const removed = await sessionToken({ sub: randomUUID(), role: 'admin', organization_id: null });
    assert.equal((await decide(another, { decision: 'rejected' }, removed)).status, 200);
    const orphan = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('capacity_reviews').selectAll().where('id', '=', another).executeTakeFirstOrThrow(),
    );
    assert.deepEqual([orphan.status, orphan.resolved_by, orphan.adjusted_count], ['rejected', null, 0]);
    const [read] = (await list(`jobId=${stored.study_id}`)).body.data as Review[];
    assert.deepEqual(read, {
      reviewId: id,
      jobId: stored.study_id,
      requestedCount: 5,
      availableCount: 2,
      segment: { country: 'SE', ageRange: null },
      status: 'approved',
      createdAt: stored.created_at.toISOString(),
      adjustedCount: 2,
      resolvedAt: stored.resolved_at!.toISOString(),
    });
  });

  it('refuses bad decisions with 422 naming the field, and changes nothing', async () => {
    const id = await storedReview(organizationId, 5, 2);
    const cases: [unknown, RegExp][] = [
      [{}, /^decision: /],
      [{ decision: 'maybe' }, /^decision: Must be approved or rejected/],
      [
        { decision: 'approved', adjustedCount: 6 },
        /^adjustedCount: Must be at most the requested count \(5\)/,
      ],
      [{ decision: 'approved', adjustedCount: -1 }, /^adjustedCount: /],
      [{ decision: 'approved', adjustedCount: 1.5 }, /^adjustedCount: /],
      [
        { decision: 'rejected', adjustedCount: 1 },
        /^adjustedCount: Only an approval takes an adjusted count/,
      ],
      [{ decision: 'approved', note: 'x'.repeat(5_001) }, /^note: /],
    ];
    for (const [body, message] of cases) {
      const answer = await decide(id, body);
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(String(answer.body.error), message);
    }
    const stored = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('capacity_reviews').select('status').where('id', '=', id).executeTakeFirstOrThrow(),
    );
    assert.equal(stored.status, 'pending');
    assert.equal((await decide(randomUUID(), { decision: 'approved' })).status, 404);
  });

  it('filters by status and jobId, pages with page and limit, and refuses a bad filter', async () => {
    const studyId = await insertStudy(organizationId, { status: 'archived' });
    const ids: string[] = [];
    for (const country of ['AD', 'SM', 'VA']) {
      const row = await asSystem(testDatabase(), (tx) =>
        tx
          .insertInto('capacity_reviews')
          .values({
            study_id: studyId,
            requested_count: 3,
            available_count: 1,
            segment: { country, ageRange: null },
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
      );
      ids.push(row.id);
    }
    assert.equal((await decide(ids[0]!, { decision: 'rejected', note: 'No market' })).status, 200);
    const pending = await list(`jobId=${studyId}&status=pending`);
    assert.equal(pending.status, 200, pending.text);
    assert.deepEqual(
      (pending.body.data as Review[]).map((review) => review.reviewId),
      ids.slice(1),
    );
    assert.deepEqual(pending.body.metadata, { page: 1, limit: 20, total: 2 });
    const rejected = (await list(`jobId=${studyId}&status=rejected`)).body.data as Review[];
    assert.deepEqual(
      rejected.map((review) => [review.reviewId, review.adjustedCount]),
      [[ids[0], 0]],
    );
    const page = await list(`jobId=${studyId}&limit=2&page=2`);
    assert.deepEqual(
      (page.body.data as Review[]).map((review) => review.reviewId),
      [ids[2]],
    );
    assert.deepEqual(page.body.metadata, { page: 2, limit: 2, total: 3 });
    const bad = await list('status=open');
    assert.equal(bad.status, 422);
    assert.match(String(bad.body.error), /^status: /);
    assert.equal((await list('limit=101')).status, 422);
  });

  it('is for admins only: business and tester JWTs get 403, no token 401', async () => {
    const id = await storedReview(organizationId, 2, 1);
    const tester = await sessionToken(await createTester());
    for (const token of [businessJwt, tester]) {
      assert.equal((await list('', token)).status, 403);
      assert.equal((await decide(id, { decision: 'approved' }, token)).status, 403);
    }
    assert.equal((await api.request('GET', '/api/admin/capacity-reviews')).status, 401);
    assert.equal(
      (await api.request('POST', `/api/admin/capacity-reviews/${id}`, { body: { decision: 'approved' } }))
        .status,
      401,
    );
  });
});
