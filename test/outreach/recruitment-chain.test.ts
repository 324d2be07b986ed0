import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { offerAnswerLink } from '../../lib/offer-links.ts';
import { activeStudy, recordStruggle, waitFor, waitForSessionStatus } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import { qualifiedTester } from './fixtures.ts';

const outbox = (kind: string, key: 'outreachId' | 'sessionId', id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('notification_outbox')
      .select(['channel', 'recipient', 'subject', 'body', 'status'])
      .where('kind', '=', kind)
      .where(sql<string>`payload ->> ${key}`, '=', id)
      .execute(),
  );

// The "done means", on the real Temporal server and the suite's worker: a paid study fills
// itself with no session made by hand. Liechtenstein (LI): no other test recruits there.
describe('recruitment from payment to the review link, with no hand-made session', function () {
  this.timeout(120_000);
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.stop());

  it('proposal, approvals, the emailed offer accepted by its signed link, the session with its token, Agent 2, the review link', async () => {
    const tester = await qualifiedTester('LI');
    const business = await sessionToken((await createBusiness('pro')).claims);
    const jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      abTest: undefined,
      targeting: { countries: ['LI'], devices: ['desktop'], testerCount: 1 },
    });
    const post = (path: string) => api.request('POST', path, { token: business, body: {} });

    let proposalId: string | undefined;
    await waitFor(async () => {
      const listed = await api.request('GET', `/api/outreach/proposals?jobId=${jobId}`, { token: business });
      proposalId = (listed.body.data as { proposalId: string; testerId: string }[]).find(
        (proposal) => proposal.testerId === tester,
      )?.proposalId;
      return proposalId !== undefined;
    });
    const accepted = await post(`/api/outreach/proposals/${proposalId}/approve`);
    assert.equal(accepted.status, 200, accepted.text);
    const { outreachId } = accepted.body.data as { outreachId: string };
    const queue = await api.request('GET', `/api/outreach/queue?jobId=${jobId}`, { token: business });
    assert.deepEqual(
      (queue.body.data as { outreachId: string }[]).map((message) => message.outreachId),
      [outreachId],
    );
    assert.equal((await post(`/api/outreach/${outreachId}/approve`)).status, 200);

    // The offer goes out by email (no chat linked); the tester follows the signed accept link.
    await waitFor(async () => (await outbox('study_offer', 'outreachId', outreachId))[0]?.status === 'sent');
    const link = offerAnswerLink(api.config.http.baseUrl, api.config.auth.jwtSecret, outreachId, 'accept');
    const answered = await fetch(`${api.url}${link.slice(api.config.http.baseUrl.length)}`, {
      method: 'POST',
    });
    assert.equal(answered.status, 200);

    const [session] = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').selectAll().where('study_id', '=', jobId).execute(),
    );
    assert.equal(session!.tester_id, tester);
    assert.ok(session!.test_token_hash, 'the session has its test token');
    await waitFor(async () => (await outbox('test_token', 'sessionId', session!.id))[0]?.status === 'sent');
    const [confirmation] = await outbox('test_token', 'sessionId', session!.id);
    assert.match(confirmation!.body, /Thank you for accepting/);

    // The test runs (its signals recorded), completes, and Agent 2's findings await the tester.
    await recordStruggle(session!.id);
    const done = await post(`/api/sessions/${session!.id}/complete`);
    assert.equal(done.status, 200, done.text);
    await waitForSessionStatus(api, session!.id, business, 'analyzed');
    await waitFor(async () => (await outbox('confirmation_request', 'sessionId', session!.id)).length === 1);
    const [request] = await outbox('confirmation_request', 'sessionId', session!.id);
    assert.equal(request!.channel, 'email');
    assert.ok(request!.body.includes(`${api.config.http.baseUrl}/sessions/${session!.id}/review`));
  });
});
