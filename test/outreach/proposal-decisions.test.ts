import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { recruitmentQuery } from '../../workflows/messages/recruitment.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import { admin as adminUser } from '../payments/fixtures.ts';
import { activeStudy, waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { qualifiedTester } from './fixtures.ts';
import { createMatchingActivities } from '../../activities/matching/matching-activities.ts';
import { insertStudy } from '../auth/helpers.ts';

interface Proposal {
  proposalId: string;
  testerId: string;
  status: string;
  outreachId?: string;
  acceptedAt?: string;
  skippedAt?: string;
}

/** A qualified tester named Ada Lovelace, with a linked chat or not. */
async function namedTester(country: string, chatId: string | null = null): Promise<string> {
  const id = await qualifiedTester(country, { messaging_chat_id: chatId });
  await asSystem(testDatabase(), (tx) =>
    tx.updateTable('users').set({ display_name: 'Ada Lovelace' }).where('id', '=', id).execute(),
  );
  return id;
}

const outreachRow = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('outreach_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );

// Each describe recruits in a country of its own, so its pool of testers is its own.
describe('POST /api/outreach/proposals/:id/approve and /reject', function () {
  this.timeout(90_000);
  let api: TestApi;
  let business: string;
  let jobId: string;
  const proposals = async (token = business) =>
    (await api.request('GET', `/api/outreach/proposals?jobId=${jobId}`, { token })).body.data as Proposal[];
  const decide = (id: string, verb: 'approve' | 'reject', token = business, body?: unknown) =>
    api.request('POST', `/api/outreach/proposals/${id}/${verb}`, { token, ...(body ? { body } : {}) });

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
    for (let i = 0; i < 4; i += 1) await namedTester('HR');
    jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      title: 'Checkout redesign',
      abTest: undefined,
      targeting: { countries: ['HR'], devices: ['desktop'], testerCount: 2 },
    });
    await waitFor(async () => (await proposals()).length === 3);
  });
  after(() => api.stop());

  it('approving drafts the outreach message, pending review, by email for a tester without a chat', async () => {
    const [first] = await proposals();
    const answer = await decide(first!.proposalId, 'approve');
    assert.equal(answer.status, 200, answer.text);
    const approval = answer.body.data as Required<Proposal>;
    assert.deepEqual(Object.keys(approval).sort(), ['acceptedAt', 'outreachId', 'proposalId', 'status']);
    assert.equal(approval.status, 'accepted');
    const message = await outreachRow(approval.outreachId);
    assert.equal(message.status, 'pending');
    assert.equal(message.tester_id, first!.testerId);
    assert.equal(message.channel, 'email');
    assert.equal(message.subject, 'A paid usability study for you: Checkout redesign');
    assert.match(message.body, /^Hi Ada,/);
    assert.match(message.body, /"Checkout redesign"/);
    assert.match(message.body, /You will be paid 25\.00 EUR once you have confirmed the findings/);
    assert.equal(message.sent_at, null, 'nothing is sent before a person approves the message');
    const listed = (await proposals()).find((p) => p.proposalId === first!.proposalId)!;
    assert.equal(listed.status, 'accepted');
    assert.equal(listed.outreachId, approval.outreachId);
    assert.equal(listed.acceptedAt, approval.acceptedAt);
  });

  it('a decided proposal answers 409 to either decision and changes nothing', async () => {
    const accepted = (await proposals()).find((p) => p.status === 'accepted')!;
    const again = await decide(accepted.proposalId, 'approve');
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'Proposal must be pending to approve (it is accepted)');
    const reject = await decide(accepted.proposalId, 'reject');
    assert.equal(reject.status, 409);
    assert.equal(reject.body.error, 'Proposal must be pending to reject (it is accepted)');
    const after = (await proposals()).find((p) => p.proposalId === accepted.proposalId)!;
    assert.deepEqual(after, accepted);
    const messages = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('outreach_messages')
        .select('id')
        .where('proposal_id', '=', accepted.proposalId)
        .execute(),
    );
    assert.deepEqual(
      messages.map((m) => m.id),
      [accepted.outreachId],
    );
  });

  it('rejecting skips the proposal with its reason, drafts nothing, and matching proposes the next tester', async () => {
    const pending = (await proposals()).find((p) => p.status === 'pending')!;
    const answer = await decide(pending.proposalId, 'reject', business, {
      reason: 'Already tested this flow',
    });
    assert.equal(answer.status, 200, answer.text);
    const rejection = answer.body.data as Proposal;
    assert.equal(rejection.status, 'skipped');
    assert.ok(rejection.skippedAt);
    const stored = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('proposals').selectAll().where('id', '=', pending.proposalId).executeTakeFirstOrThrow(),
    );
    assert.equal(stored.skip_reason, 'Already tested this flow');
    const drafted = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('outreach_messages').select('id').where('proposal_id', '=', pending.proposalId).execute(),
    );
    assert.deepEqual(drafted, []);
    // The freed place goes to the fourth tester; the skipped one is never proposed again.
    await waitFor(async () => (await proposals()).length === 4);
    const all = await proposals();
    assert.equal(new Set(all.map((p) => p.testerId)).size, 4);
    assert.equal(all.filter((p) => p.status === 'pending').length, 2);
  });

  it('only the study organization and admins decide: testers 403, other organizations and unknown ids 404', async () => {
    const pending = (await proposals()).find((p) => p.status === 'pending')!;
    const tester = await sessionToken({ sub: pending.testerId, role: 'tester', organization_id: null });
    assert.equal((await decide(pending.proposalId, 'approve', tester)).status, 403);
    const stranger = await sessionToken((await createBusiness('pro')).claims);
    const hidden = await decide(pending.proposalId, 'reject', stranger);
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.error, 'Proposal not found');
    assert.equal((await decide('not-a-uuid', 'approve')).status, 404);
    assert.equal((await decide('00000000-0000-4000-8000-000000000000', 'approve')).status, 404);
    const tooLong = await decide(pending.proposalId, 'reject', business, { reason: 'x'.repeat(2_001) });
    assert.equal(tooLong.status, 422);
    assert.match(tooLong.body.error as string, /^reason: /);
    const admin = await decide(pending.proposalId, 'approve', (await adminUser()).token);
    assert.equal(admin.status, 200, admin.text);
  });
});

describe('proposals of a study paused mid-recruitment, and a tester with a linked chat', function () {
  this.timeout(90_000);
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.stop());

  it('a paused study makes no new proposal for a freed place until it is resumed; a chat gets a messaging draft', async () => {
    const business = await sessionToken((await createBusiness('pro')).claims);
    await namedTester('CY', 'chat-cy-1');
    await namedTester('CY', 'chat-cy-2');
    await namedTester('CY', 'chat-cy-3');
    const jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: { countries: ['CY'], devices: ['desktop'], testerCount: 1 },
    });
    const list = async () =>
      (await api.request('GET', `/api/outreach/proposals?jobId=${jobId}`, { token: business })).body
        .data as Proposal[];
    await waitFor(async () => (await list()).length === 2);

    const paused = await api.request('PATCH', `/api/jobs/${jobId}`, {
      token: business,
      body: { status: 'paused' },
    });
    assert.equal(paused.status, 200, paused.text);
    const [first, second] = await list();
    assert.equal(
      (await api.request('POST', `/api/outreach/proposals/${first!.proposalId}/reject`, { token: business }))
        .status,
      200,
    );
    const approved = await api.request('POST', `/api/outreach/proposals/${second!.proposalId}/approve`, {
      token: business,
    });
    assert.equal(approved.status, 200, approved.text);
    const message = await outreachRow((approved.body.data as { outreachId: string }).outreachId);
    assert.equal(message.channel, 'messaging');
    assert.equal(message.subject, null);
    // Paused: the workflow holds the freed place's request until the study is active again.
    const study = (await temporalEnvironment()).client.workflow.getHandle(studyWorkflowId(jobId));
    assert.equal((await study.query(recruitmentQuery)).matchingWanted, true);
    assert.equal((await list()).length, 2);

    const resumed = await api.request('PATCH', `/api/jobs/${jobId}`, {
      token: business,
      body: { status: 'active' },
    });
    assert.equal(resumed.status, 200, resumed.text);
    await waitFor(async () => (await list()).length === 3);
  });
});

describe('proposal decisions on a study that no longer recruits', function () {
  this.timeout(60_000);
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.stop());

  it('a completed study answers 409 naming the states that take decisions, and the proposal stays pending', async () => {
    const business = await createBusiness('pro');
    await qualifiedTester('PT');
    const studyId = await insertStudy(business.organizationId, {
      status: 'active',
      target_countries: ['PT'],
      tester_count: 1,
    });
    await createMatchingActivities({ db: serviceDatabase() }).proposeTesters({ studyId });
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('studies').set({ status: 'completed' }).where('id', '=', studyId).execute(),
    );
    const token = await sessionToken(business.claims);
    const [proposal] = (await api.request('GET', `/api/outreach/proposals?jobId=${studyId}`, { token })).body
      .data as Proposal[];
    for (const verb of ['approve', 'reject'] as const) {
      const answer = await api.request('POST', `/api/outreach/proposals/${proposal!.proposalId}/${verb}`, {
        token,
      });
      assert.equal(answer.status, 409);
      assert.equal(
        answer.body.error,
        'Study must be active or paused to decide its proposals (it is completed)',
      );
    }
    const [after] = (await api.request('GET', `/api/outreach/proposals?jobId=${studyId}`, { token })).body
      .data as Proposal[];
    assert.equal(after!.status, 'pending');
  });
});
