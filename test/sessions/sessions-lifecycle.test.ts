import assert from 'node:assert/strict';
import { asSystem, type Claims } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { abStudyBody, validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  activeStudy,
  eligibleTester,
  recordStruggle,
  testTokenFor,
  waitForSessionStatus,
  type SessionRead,
} from './fixtures.ts';

interface Note {
  noteId: string;
  content: string;
  authorKind: string;
  severity: string | null;
  wcagCriterion: string | null;
  confirmed: boolean;
}

describe('sessions end to end', () => {
  let api: TestApi;
  let business: string;

  const post = (path: string, body: unknown, token = business) => api.request('POST', path, { body, token });
  const read = async (id: string, token = business) =>
    (await api.request('GET', `/api/sessions/${id}`, { token })).body.data as SessionRead;
  const create = async (jobId: string, tester: Claims, variant?: string) => {
    const response = await post('/api/sessions', {
      jobId,
      testerId: tester.sub,
      ...(variant ? { variant } : {}),
    });
    assert.equal(response.status, 201, response.text);
    return response.body.data as SessionRead & { createdAt: string };
  };
  const patchWithTestToken = async (id: string, status: string) =>
    api.request('PATCH', `/api/sessions/${id}`, {
      body: { status },
      headers: { 'X-Test-Token': await testTokenFor(id) },
    });

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
  });
  after(() => api.stop());

  describe('POST /api/sessions', () => {
    it('creates an active session on an active study for an eligible tester, without its test token', async () => {
      const jobId = await activeStudy(api, business);
      const tester = await eligibleTester();
      const session = await create(jobId, tester);
      assert.deepEqual(Object.keys(session).sort(), [
        'createdAt',
        'jobId',
        'sessionId',
        'status',
        'testerId',
        'variant',
      ]);
      assert.equal(session.status, 'active');
      assert.equal(session.variant, null);
      const row = await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('sessions')
          .select('test_token_hash')
          .where('id', '=', session.sessionId)
          .executeTakeFirstOrThrow(),
      );
      assert.match(row.test_token_hash!, /^[0-9a-f]{64}$/);
    });

    it('a study that is not active takes no sessions: 409 naming the active state', async () => {
      const draft = await post('/api/jobs', validStudyBody());
      const jobId = (draft.body.data as { jobId: string }).jobId;
      const response = await post('/api/sessions', { jobId, testerId: (await eligibleTester()).sub });
      assert.equal(response.status, 409);
      assert.equal(response.body.error, 'Study must be active to take sessions (it is draft)');
    });

    it('a paused study takes no new sessions, and its existing sessions continue', async () => {
      const jobId = await activeStudy(api, business);
      const running = await create(jobId, await eligibleTester());
      assert.equal(
        (await api.request('PATCH', `/api/jobs/${jobId}`, { body: { status: 'paused' }, token: business }))
          .status,
        200,
      );
      const refused = await post('/api/sessions', { jobId, testerId: (await eligibleTester()).sub });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error, 'Study must be active to take sessions (it is paused)');
      assert.equal((await patchWithTestToken(running.sessionId, 'paused')).status, 200);
      assert.equal((await read(running.sessionId)).status, 'paused');
    });

    it('a tester whose profile is not active is not eligible: 422 naming testerId', async () => {
      const jobId = await activeStudy(api, business);
      const response = await post('/api/sessions', {
        jobId,
        testerId: (await eligibleTester('pending')).sub,
      });
      assert.equal(response.status, 422);
      assert.equal(response.body.error, 'testerId: The tester is not eligible (profile pending)');
    });

    it('one live session per tester per study: a second is 409', async () => {
      const jobId = await activeStudy(api, business);
      const tester = await eligibleTester();
      await create(jobId, tester);
      const again = await post('/api/sessions', { jobId, testerId: tester.sub });
      assert.equal(again.status, 409);
    });

    it('assigns omitted variants by the split ratio, balanced (75/25 gives A, A, B, A)', async () => {
      const jobId = await activeStudy(api, business, abStudyBody(['A', 'B'], { A: 0.75, B: 0.25 }));
      const labels = [];
      for (let i = 0; i < 4; i += 1) labels.push((await create(jobId, await eligibleTester())).variant);
      assert.deepEqual(labels, ['A', 'A', 'B', 'A']);
      const chosen = await create(jobId, await eligibleTester(), 'B');
      assert.equal(chosen.variant, 'B');
      const unknown = await post('/api/sessions', {
        jobId,
        testerId: (await eligibleTester()).sub,
        variant: 'C',
      });
      assert.equal(unknown.status, 422);
      assert.equal(unknown.body.error, 'variant: Must be one of A, B');
    });
  });

  describe('session state machine', () => {
    let jobId: string;
    before(async () => {
      jobId = await activeStudy(api, business);
    });

    it('PATCH with the test token pauses and resumes; resume of an active session is 409', async () => {
      const { sessionId } = await create(jobId, await eligibleTester());
      assert.equal(
        (await patchWithTestToken(sessionId, 'paused')).body.data && (await read(sessionId)).status,
        'paused',
      );
      const again = await patchWithTestToken(sessionId, 'paused');
      assert.equal(again.status, 409);
      assert.equal(again.body.error, 'Session must be active to pause (it is paused)');
      const resumed = await patchWithTestToken(sessionId, 'active');
      assert.equal(resumed.status, 200);
      assert.equal((resumed.body.data as SessionRead).status, 'active');
      const twice = await patchWithTestToken(sessionId, 'active');
      assert.equal(twice.status, 409);
      assert.equal(twice.body.error, 'Session must be paused to resume (it is active)');
    });

    it('analyze before completion is 409; confirm before analyzed is 409', async () => {
      const tester = await eligibleTester();
      const { sessionId } = await create(jobId, tester);
      const analyze = await post(`/api/sessions/${sessionId}/analyze`, {});
      assert.equal(analyze.status, 409);
      assert.equal(analyze.body.error, 'Session must be completed to analyze (it is active)');
      const confirm = await post(
        `/api/sessions/${sessionId}/confirm`,
        { rating: 5 },
        await sessionToken(tester),
      );
      assert.equal(confirm.status, 409);
      assert.equal(confirm.body.error, 'Session must be analyzed to confirm (it is active)');
    });

    it('a paused session completes; completedAt and durationSeconds are recorded; complete again is 409', async () => {
      const { sessionId, createdAt } = await create(jobId, await eligibleTester());
      await patchWithTestToken(sessionId, 'paused');
      // The tester started ten minutes ago and finished after 90 s (a completedAt from the extension).
      const startedAt = new Date(Date.parse(createdAt) - 600_000);
      await asSystem(testDatabase(), (tx) =>
        tx.updateTable('sessions').set({ started_at: startedAt }).where('id', '=', sessionId).execute(),
      );
      const completedAt = new Date(startedAt.getTime() + 90_000).toISOString();
      const done = await post(`/api/sessions/${sessionId}/complete`, { completedAt });
      assert.equal(done.status, 200, done.text);
      assert.deepEqual(done.body.data, { sessionId, status: 'completed', completedAt });
      const session = await read(sessionId);
      assert.equal(session.completedAt, completedAt);
      assert.equal(session.durationSeconds, 90);
      const again = await post(`/api/sessions/${sessionId}/complete`, {});
      assert.equal(again.status, 409);
      assert.match(
        again.body.error!,
        /^Session must be active or paused to complete \(it is (completed|analyzing|analyzed)\)$/,
      );
    });

    it('completion starts Agent 2: the session becomes analyzed with findings from its stored signals', async () => {
      const tester = await eligibleTester();
      const { sessionId } = await create(jobId, tester);
      await recordStruggle(sessionId);
      await post(`/api/sessions/${sessionId}/complete`, {});
      await waitForSessionStatus(api, sessionId, business, 'analyzed');
      const analyze = await post(`/api/sessions/${sessionId}/analyze`, {});
      assert.equal(analyze.status, 202);
      assert.deepEqual(analyze.body.data, { sessionId, status: 'analyzed', estimatedCompletionSeconds: 0 });

      const notes = (
        await api.request('GET', `/api/sessions/${sessionId}/notes`, { token: await sessionToken(tester) })
      ).body.data as { notes: Note[] };
      const agent = notes.notes.filter((note) => note.authorKind === 'agent');
      assert.deepEqual(agent.map((note) => note.wcagCriterion).sort(), ['3.3.1', '4.1.2']);
      const clicks = agent.find((note) => note.wcagCriterion === '4.1.2')!;
      assert.match(clicks.content, /4 clicks on `#pay`/);
      assert.match(clicks.content, /why does this button not do anything/);
      assert.equal(clicks.severity, 'high');
      assert.ok(agent.every((note) => !note.confirmed));
      // The frame without a face and the PII segment left no trace.
      assert.ok(agent.every((note) => !/jane@example\.com|negative expressions/.test(note.content)));
    });

    it('the organization sees no agent finding before the tester confirms it', async () => {
      const tester = await eligibleTester();
      const { sessionId } = await create(jobId, tester);
      await recordStruggle(sessionId);
      await post(`/api/sessions/${sessionId}/complete`, {});
      await waitForSessionStatus(api, sessionId, business, 'analyzed');
      const seen = (await api.request('GET', `/api/sessions/${sessionId}/notes`)).status;
      assert.equal(seen, 401);
      const org = (await api.request('GET', `/api/sessions/${sessionId}/notes`, { token: business })).body
        .data as {
        notes: Note[];
      };
      assert.deepEqual(org.notes, []);
    });

    it('only the tester confirms; confirmed queues the payout and the report keeps rejected findings out', async () => {
      const tester = await eligibleTester();
      const testerToken = await sessionToken(tester);
      const { sessionId } = await create(jobId, tester);
      await recordStruggle(sessionId);
      await post(`/api/sessions/${sessionId}/complete`, {});
      await waitForSessionStatus(api, sessionId, business, 'analyzed');
      const notes = (
        (await api.request('GET', `/api/sessions/${sessionId}/notes`, { token: testerToken })).body.data as {
          notes: Note[];
        }
      ).notes;
      const rejected = notes.find((note) => note.wcagCriterion === '3.3.1')!;

      const byBusiness = await post(`/api/sessions/${sessionId}/confirm`, { rating: 4 });
      assert.equal(byBusiness.status, 403);
      const badRating = await post(`/api/sessions/${sessionId}/confirm`, { rating: 6 }, testerToken);
      assert.equal(badRating.status, 422);
      assert.equal(badRating.body.error, 'rating: Must be 1 to 5');

      const confirmed = await post(
        `/api/sessions/${sessionId}/confirm`,
        {
          rating: 4,
          comment: 'Smooth',
          notes: [{ noteId: rejected.noteId, decision: 'rejected', annotation: 'My typo' }],
        },
        testerToken,
      );
      assert.equal(confirmed.status, 200, confirmed.text);
      const data = confirmed.body.data as { status: string; payoutQueued: boolean; confirmedAt: string };
      assert.equal(data.status, 'confirmed');
      assert.equal(data.payoutQueued, true);
      const payment = await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('payments')
          .select(['status', 'amount', 'currency'])
          .where('session_id', '=', sessionId)
          .executeTakeFirst(),
      );
      assert.deepEqual(payment, { status: 'queued', amount: '25.00', currency: 'EUR' });

      const again = await post(`/api/sessions/${sessionId}/confirm`, { rating: 4 }, testerToken);
      assert.equal(again.status, 409);
      assert.equal(again.body.error, 'Session must be analyzed to confirm (it is confirmed)');
      const org = (
        (await api.request('GET', `/api/sessions/${sessionId}/notes`, { token: business })).body.data as {
          notes: Note[];
        }
      ).notes;
      assert.ok(org.length > 0 && org.every((note) => note.noteId !== rejected.noteId));
    });

    it('feedback: the tester, once, after completion', async () => {
      const tester = await eligibleTester();
      const token = await sessionToken(tester);
      const { sessionId } = await create(jobId, tester);
      const body = { clarity: 4, difficulty: 2, technicalIssues: false };
      const early = await post(`/api/sessions/${sessionId}/feedback`, body, token);
      assert.equal(early.status, 409);
      assert.equal(early.body.error, 'Session must be completed to give feedback (it is active)');
      await post(`/api/sessions/${sessionId}/complete`, {});
      const given = await post(`/api/sessions/${sessionId}/feedback`, body, token);
      assert.equal(given.status, 201, given.text);
      assert.equal((given.body.data as { sessionId: string }).sessionId, sessionId);
      assert.equal((await post(`/api/sessions/${sessionId}/feedback`, body, token)).status, 409);
    });

    it('PATCH notes adds human notes and edits only your own', async () => {
      const tester = await eligibleTester();
      const token = await sessionToken(tester);
      const { sessionId } = await create(jobId, tester);
      const added = await api.request('PATCH', `/api/sessions/${sessionId}/notes`, {
        body: { notes: [{ content: 'The pay button looked disabled' }] },
        token,
      });
      assert.deepEqual(added.body.data, { sessionId, updatedCount: 0, createdCount: 1 });
      const [note] = (
        (await api.request('GET', `/api/sessions/${sessionId}/notes`, { token })).body.data as {
          notes: Note[];
        }
      ).notes;
      const edited = await api.request('PATCH', `/api/sessions/${sessionId}/notes`, {
        body: { notes: [{ noteId: note!.noteId, content: 'It was disabled' }] },
        token,
      });
      assert.deepEqual(edited.body.data, { sessionId, updatedCount: 1, createdCount: 0 });
      const byOther = await api.request('PATCH', `/api/sessions/${sessionId}/notes`, {
        body: { notes: [{ noteId: note!.noteId, content: 'Not yours' }] },
        token: business,
      });
      assert.equal(byOther.status, 403);
    });
  });
});
