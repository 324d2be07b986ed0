import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { admin as adminUser } from '../payments/fixtures.ts';
import { activeStudy, waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import { qualifiedTester } from './fixtures.ts';

interface Outreach {
  outreachId: string;
  jobId: string;
  testerId: string;
  testerEmail: string;
  channel: string;
  subject?: string;
  body: string;
  status: string;
  generatedAt: string;
}

// Recruits in Greece (GR), a country no other test recruits in, so the pool of testers is its own.
describe('the outreach review queue: GET /api/outreach/queue, POST /api/outreach/:id/edit and /reject', function () {
  this.timeout(90_000);
  let api: TestApi;
  let business: string;
  let jobId: string;
  let emailMessage: Outreach;
  let chatMessage: Outreach;
  const queue = async (query = '', token = business) =>
    api.request('GET', `/api/outreach/queue${query ? `?${query}` : ''}`, { token });
  const post = (path: string, body: unknown, token = business) => api.request('POST', path, { token, body });

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
    const emailTester = await qualifiedTester('GR');
    const chatTester = await qualifiedTester('GR', { messaging_chat_id: 'chat-gr-1' });
    await qualifiedTester('GR');
    jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: { countries: ['GR'], devices: ['desktop'], testerCount: 2 },
    });
    const proposals = async () =>
      (await api.request('GET', `/api/outreach/proposals?jobId=${jobId}`, { token: business })).body.data as {
        proposalId: string;
        testerId: string;
      }[];
    await waitFor(async () => (await proposals()).length === 3);
    for (const tester of [emailTester, chatTester]) {
      const proposal = (await proposals()).find((p) => p.testerId === tester)!;
      const approved = await post(`/api/outreach/proposals/${proposal.proposalId}/approve`, undefined);
      assert.equal(approved.status, 200, approved.text);
    }
    const listed = (await queue(`jobId=${jobId}`)).body.data as Outreach[];
    emailMessage = listed.find((m) => m.testerId === emailTester)!;
    chatMessage = listed.find((m) => m.testerId === chatTester)!;
  });
  after(() => api.stop());

  it('lists the pending messages oldest first with the spec fields; subject only on email', async () => {
    const answer = await queue(`jobId=${jobId}`);
    assert.equal(answer.status, 200, answer.text);
    const listed = answer.body.data as Outreach[];
    assert.deepEqual(
      listed.map((m) => m.outreachId),
      [emailMessage.outreachId, chatMessage.outreachId],
    );
    assert.deepEqual(answer.body.metadata, { page: 1, limit: 20, total: 2 });
    assert.deepEqual(Object.keys(emailMessage).sort(), [
      'body',
      'channel',
      'generatedAt',
      'jobId',
      'outreachId',
      'status',
      'subject',
      'testerEmail',
      'testerId',
    ]);
    assert.equal(emailMessage.channel, 'email');
    assert.match(emailMessage.testerEmail, /^tester-.*@example\.com$/);
    assert.equal(chatMessage.channel, 'messaging');
    assert.equal(chatMessage.subject, undefined);
    assert.ok(listed.every((m) => m.status === 'pending' && m.jobId === jobId));
  });

  it('edits the wording of a pending message; it stays pending; a subject on a chat message is 422', async () => {
    const edited = await post(`/api/outreach/${emailMessage.outreachId}/edit`, {
      subject: 'An invitation',
      body: 'Hi, would you test our checkout?',
    });
    assert.equal(edited.status, 200, edited.text);
    const answer = edited.body.data as { outreachId: string; status: string; updatedAt: string };
    assert.deepEqual(Object.keys(answer).sort(), ['outreachId', 'status', 'updatedAt']);
    assert.equal(answer.status, 'pending');
    const listed = ((await queue(`jobId=${jobId}`)).body.data as Outreach[]).find(
      (m) => m.outreachId === emailMessage.outreachId,
    )!;
    assert.equal(listed.subject, 'An invitation');
    assert.equal(listed.body, 'Hi, would you test our checkout?');

    const subject = await post(`/api/outreach/${chatMessage.outreachId}/edit`, { subject: 'No', body: 'Hi' });
    assert.equal(subject.status, 422);
    assert.equal(subject.body.error, 'subject: Only email messages have a subject');
    const empty = await post(`/api/outreach/${chatMessage.outreachId}/edit`, { body: '  ' });
    assert.equal(empty.status, 422);
    assert.match(empty.body.error as string, /^body: /);
  });

  it('rejects a pending message with its reason: never sent, gone from the queue; a decided message is 409', async () => {
    const rejected = await post(`/api/outreach/${chatMessage.outreachId}/reject`, { reason: 'Wrong tone' });
    assert.equal(rejected.status, 200, rejected.text);
    const answer = rejected.body.data as { outreachId: string; status: string; rejectedAt: string };
    assert.deepEqual(Object.keys(answer).sort(), ['outreachId', 'rejectedAt', 'status']);
    assert.equal(answer.status, 'rejected');
    const row = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('outreach_messages')
        .selectAll()
        .where('id', '=', chatMessage.outreachId)
        .executeTakeFirstOrThrow(),
    );
    assert.equal(row.rejection_reason, 'Wrong tone');
    assert.equal(row.sent_at, null);
    assert.deepEqual(
      ((await queue(`jobId=${jobId}`)).body.data as Outreach[]).map((m) => m.outreachId),
      [emailMessage.outreachId],
    );
    const again = await post(`/api/outreach/${chatMessage.outreachId}/reject`, {});
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'Outreach message must be pending to reject (it is rejected)');
    const edit = await post(`/api/outreach/${chatMessage.outreachId}/edit`, { body: 'Hi' });
    assert.equal(edit.status, 409);
    assert.equal(edit.body.error, 'Outreach message must be pending to edit (it is rejected)');
  });

  it('a rejected offer frees its place: matching proposes a newly qualified tester', async () => {
    const newcomer = await qualifiedTester('GR');
    const proposals = async () =>
      (await api.request('GET', `/api/outreach/proposals?jobId=${jobId}`, { token: business })).body.data as {
        testerId: string;
      }[];
    // A second rejection frees a second place (the signal wakes matching again).
    const rejected = await post(`/api/outreach/${emailMessage.outreachId}/reject`, {});
    assert.equal(rejected.status, 200, rejected.text);
    await waitFor(async () => (await proposals()).some((p) => p.testerId === newcomer));
  });

  it('testers are refused (403); other organizations and unknown ids find nothing (404); admins review', async () => {
    const tester = await sessionToken({ sub: emailMessage.testerId, role: 'tester', organization_id: null });
    assert.equal((await queue('', tester)).status, 403);
    const stranger = await sessionToken((await createBusiness('pro')).claims);
    assert.deepEqual((await queue(`jobId=${jobId}`, stranger)).body.data, []);
    const hidden = await post(`/api/outreach/${emailMessage.outreachId}/edit`, { body: 'x' }, stranger);
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.error, 'Outreach message not found');
    assert.equal((await post('/api/outreach/not-a-uuid/reject', {})).status, 404);
    // Approval: the same rules; a message no longer pending is 409 whoever asks.
    assert.equal(
      (await post(`/api/outreach/${emailMessage.outreachId}/approve`, undefined, tester)).status,
      403,
    );
    const hiddenApproval = await post(
      `/api/outreach/${emailMessage.outreachId}/approve`,
      undefined,
      stranger,
    );
    assert.equal(hiddenApproval.status, 404);
    assert.equal(hiddenApproval.body.error, 'Outreach message not found');
    const decided = await post(`/api/outreach/${emailMessage.outreachId}/approve`, undefined);
    assert.equal(decided.status, 409);
    assert.equal(decided.body.error, 'Outreach message must be pending to approve (it is rejected)');
    // A filter naming no study, whatever its form, finds nothing (identifiers are opaque strings).
    const unknown = await queue('jobId=12');
    assert.equal(unknown.status, 200, unknown.text);
    assert.deepEqual(unknown.body.data, []);
    const admin = await queue(`jobId=${jobId}`, (await adminUser()).token);
    assert.equal(admin.status, 200);
  });
});
