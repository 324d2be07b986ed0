import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createMatchingActivities } from '../../activities/matching/matching-activities.ts';
import { asSystem, asUser } from '../../db/doors.ts';
import { insertStudy } from '../auth/helpers.ts';
import { qualifiedTester } from '../outreach/fixtures.ts';
import {
  activeStudy,
  businessWithStudy,
  eligibleTester,
  startSession,
  waitFor,
} from '../sessions/fixtures.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionWithoutWorkflow } from '../sessions/lifecycle-fixtures.ts';
import { sessionWorkflowId } from '../../workflows/messages/session.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness, createTester } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';

const standing = (testerId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('tester_profiles as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['p.status', 'p.approved_at', 'p.approved_by', 'u.status as account'])
      .where('p.user_id', '=', testerId)
      .executeTakeFirstOrThrow(),
  );

const auditOf = (testerId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('tester_status_changes')
      .select(['from_status', 'to_status', 'reason', 'changed_by'])
      .where('tester_id', '=', testerId)
      .orderBy('changed_at')
      .execute(),
  );

describe('PATCH /api/admin/testers/:id: approve, suspend and reinstate a tester', function () {
  this.timeout(120_000);
  let api: TestApi;
  let admin: string;
  let adminId: string;
  before(async () => {
    api = await startTestApi();
    const claims = await createAdmin();
    adminId = claims.sub;
    admin = await sessionToken(claims);
  });
  after(() => api.stop());

  const change = (testerId: string, body: unknown) =>
    api.request('PATCH', `/api/admin/testers/${testerId}`, { token: admin, body });

  it('approving a pending tester with a filled-in profile qualifies them: active, matched, and the reason kept', async () => {
    // Ukraine (UA): no other test recruits there. Filled in, quiz not taken.
    const tester = await qualifiedTester('UA', {
      status: 'pending',
      quiz_passed: null,
      quiz_score: null,
      quiz_completed_at: null,
    });
    const { organizationId } = await createBusiness('pro');
    const studyId = await insertStudy(organizationId, {
      status: 'active',
      target_countries: ['UA'],
      tester_count: 1,
    });
    const matching = createMatchingActivities({ db: serviceDatabase() });
    assert.equal((await matching.proposeTesters({ studyId })).eligible, 0, 'not qualified yet');

    const approved = await change(tester, { status: 'active', reason: 'Known accessibility consultant' });
    assert.equal(approved.status, 200, approved.text);
    const answer = approved.body.data as Record<string, string>;
    assert.deepEqual(Object.keys(answer).sort(), [
      'changedAt',
      'previousStatus',
      'reason',
      'status',
      'testerId',
    ]);
    assert.deepEqual(
      [answer.testerId, answer.status, answer.previousStatus, answer.reason],
      [tester, 'active', 'pending', 'Known accessibility consultant'],
    );
    const after = await standing(tester);
    assert.equal(after.status, 'active');
    assert.equal(after.approved_by, adminId);
    assert.ok(after.approved_at);
    assert.deepEqual(await auditOf(tester), [
      {
        from_status: 'pending',
        to_status: 'active',
        reason: 'Known accessibility consultant',
        changed_by: adminId,
      },
    ]);
    assert.equal(
      (await matching.proposeTesters({ studyId })).proposed,
      1,
      'an approval qualifies as a pass does',
    );

    // Nor can a tester approve themselves when creating their own profile.
    const self = await createTester();
    await assert.rejects(
      asUser(testDatabase(), self, (tx) =>
        tx
          .insertInto('tester_profiles')
          .values({ user_id: self.sub, country: 'UA', devices: ['desktop'], approved_at: new Date() })
          .execute(),
      ),
      /row-level security/,
    );

    const twice = await change(tester, { status: 'active', reason: 'again' });
    assert.equal(twice.status, 409);
    assert.equal(twice.body.error, 'Tester is already active');
  });

  it('a profile not filled in cannot be approved; bad bodies are 422 and unknown testers 404, changing nothing', async () => {
    const registered = await api.request('POST', '/api/auth/register', {
      body: {
        email: `empty-${randomUUID()}@example.com`,
        password: 'a long enough password',
        role: 'tester',
      },
    });
    const testerId = (registered.body.data as { user: { id: string } }).user.id;
    const empty = await change(testerId, { status: 'active', reason: 'Looks fine' });
    assert.equal(empty.status, 409);
    assert.equal(empty.body.error, "The tester's profile is not filled in yet (country and devices)");
    for (const [body, message] of [
      [{ status: 'pending', reason: 'x' }, /^status: Must be active or suspended/],
      [{ status: 'suspended' }, /^reason: /],
      [{ status: 'suspended', reason: '   ' }, /^reason: Must not be empty/],
    ] as const) {
      const answer = await change(testerId, body);
      assert.equal(answer.status, 422, answer.text);
      assert.match(String(answer.body.error), message);
    }
    assert.equal((await standing(testerId)).status, 'pending');
    assert.deepEqual(await auditOf(testerId), []);
    assert.equal((await change(randomUUID(), { status: 'suspended', reason: 'x' })).status, 404);
    // A business account is no tester.
    const business = await createBusiness();
    assert.equal((await change(business.claims.sub, { status: 'suspended', reason: 'x' })).status, 404);
  });

  it("suspending cancels the tester's live sessions: cancelled, refused from then on, and the study's place free; a completed one stands", async () => {
    const { business, jobId } = await businessWithStudy(api, 2);
    const live = await startSession(api, business, jobId);
    const done = await startSession(api, business, jobId);
    const completed = await api.request('POST', `/api/sessions/${done.sessionId}/complete`, {
      token: business,
      body: {},
    });
    assert.equal(completed.status, 200, completed.text);
    // The same tester: their second session is on another study.
    const other = await businessWithStudy(api, 1);
    const second = await api.request('POST', '/api/sessions', {
      token: other.business,
      body: { jobId: other.jobId, testerId: live.tester.sub },
    });
    assert.equal(second.status, 201, second.text);
    const secondId = (second.body.data as { sessionId: string }).sessionId;
    // A third whose workflow never started (its start failed after the row was committed).
    const orphanStudy = await insertStudy((await createBusiness('pro')).organizationId, { status: 'active' });
    const orphan = await sessionWithoutWorkflow(orphanStudy, live.tester.sub);

    const full = await api.request('POST', '/api/sessions', {
      token: business,
      body: { jobId, testerId: (await eligibleTester()).sub },
    });
    assert.equal(full.status, 409, `both places are taken: ${full.text}`);

    assert.equal((await change(live.tester.sub, { status: 'suspended', reason: 'Fraud' })).status, 200);
    assert.equal((await change(done.tester.sub, { status: 'suspended', reason: 'Fraud' })).status, 200);
    const statusOf = async (sessionId: string) =>
      (await api.request('GET', `/api/sessions/${sessionId}`, { token: business })).body.data as {
        status: string;
      };
    await waitFor(async () => (await statusOf(live.sessionId)).status === 'cancelled');
    await waitFor(async () => {
      const row = await asSystem(testDatabase(), (tx) =>
        tx.selectFrom('sessions').select('status').where('id', '=', secondId).executeTakeFirstOrThrow(),
      );
      return row.status === 'cancelled';
    });
    const orphanStatus = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('sessions')
        .select(['status', 'cancelled_at'])
        .where('id', '=', orphan.id)
        .executeTakeFirstOrThrow(),
    );
    assert.equal(orphanStatus.status, 'cancelled', 'cancelled in its record, no workflow running it');
    assert.ok(orphanStatus.cancelled_at);
    const env = await temporalEnvironment();
    // The cancelled session's workflow ends (it would otherwise wait for its time limit).
    await env.client.workflow.getHandle(sessionWorkflowId(live.sessionId)).result();
    const refused = await api.request('POST', `/api/sessions/${live.sessionId}/complete`, {
      token: business,
      body: {},
    });
    assert.equal(refused.status, 409, refused.text);
    assert.match(refused.text, /it is cancelled/);

    // The study heard its place is free; the completed session goes on to its analysis.
    const history = await env.client.workflow.getHandle(studyWorkflowId(jobId)).fetchHistory();
    const told = (history.events ?? []).filter(
      (event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'sessionCancelled',
    );
    assert.equal(told.length, 1);
    const third = await api.request('POST', '/api/sessions', {
      token: business,
      body: { jobId, testerId: (await eligibleTester()).sub },
    });
    assert.equal(third.status, 201, `the cancelled session's place is free again: ${third.text}`);
    assert.notEqual((await statusOf(done.sessionId)).status, 'cancelled');
  });

  it("suspending ends the tester's logins and withdraws their open offer (its place freed); reinstating returns them as they were qualified", async () => {
    // Uruguay (UY): no other test recruits there.
    const tester = await qualifiedTester('UY');
    const business = await sessionToken((await createBusiness('pro')).claims);
    const jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: { countries: ['UY'], devices: ['desktop'], testerCount: 1 },
    });
    const post = (path: string) => api.request('POST', path, { token: business, body: {} });
    let proposalId: string | undefined;
    await waitFor(async () => {
      const rows = await asSystem(testDatabase(), (tx) =>
        tx.selectFrom('proposals').select(['id', 'tester_id']).where('study_id', '=', jobId).execute(),
      );
      proposalId = rows.find((row) => row.tester_id === tester)?.id;
      return proposalId !== undefined;
    });
    const accepted = await post(`/api/outreach/proposals/${proposalId}/approve`);
    const { outreachId } = accepted.body.data as { outreachId: string };
    assert.equal((await post(`/api/outreach/${outreachId}/approve`)).status, 200);
    const offerStatus = async () =>
      (
        await asSystem(testDatabase(), (tx) =>
          tx
            .selectFrom('outreach_messages')
            .select('offer_status')
            .where('id', '=', outreachId)
            .executeTakeFirstOrThrow(),
        )
      ).offer_status;
    await waitFor(async () => (await offerStatus()) === 'open');

    const suspended = await change(tester, { status: 'suspended', reason: 'Shared test tokens' });
    assert.equal(suspended.status, 200, suspended.text);
    assert.deepEqual(
      [
        (suspended.body.data as Record<string, string>).status,
        (suspended.body.data as Record<string, string>).previousStatus,
      ],
      ['suspended', 'active'],
    );
    assert.deepEqual(
      [(await standing(tester)).status, (await standing(tester)).account],
      ['suspended', 'suspended'],
    );
    await waitFor(async () => (await offerStatus()) === 'withdrawn');

    const reinstated = await change(tester, { status: 'active', reason: 'Cleared' });
    assert.equal(reinstated.status, 200, reinstated.text);
    assert.equal(
      (reinstated.body.data as { status: string }).status,
      'active',
      'qualified: the quiz was passed',
    );
    assert.deepEqual(
      [(await standing(tester)).status, (await standing(tester)).account],
      ['active', 'active'],
    );
    assert.deepEqual(
      (await auditOf(tester)).map((row) => [row.from_status, row.to_status, row.reason]),
      [
        ['active', 'suspended', 'Shared test tokens'],
        ['suspended', 'active', 'Cleared'],
      ],
    );

    // One never qualified comes back pending.
    const unqualified = await qualifiedTester('UY', {
      status: 'pending',
      quiz_passed: null,
      quiz_score: null,
      quiz_completed_at: null,
    });
    assert.equal((await change(unqualified, { status: 'suspended', reason: 'Spam' })).status, 200);
    const back = await change(unqualified, { status: 'active', reason: 'Mistake' });
    assert.equal((back.body.data as { status: string }).status, 'pending');
  });
});
