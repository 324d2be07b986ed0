import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { sessionStatusQuery, sessionWorkflowId } from '../../workflows/messages/session.ts';
import { startAiService, type AiService } from '../ai/ai-service.ts';
import { fakeModel } from '../ai/fake-model.ts';
import { queuedAiWorkOf } from '../ai/fixtures.ts';
import { startLocalProvider, type LocalProvider } from '../ai/provider-servers.ts';
import { testDatabase } from '../support/database.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import {
  agentJobsOf,
  analyzedSession,
  businessWithStudy,
  completedReportJob,
  type Note,
  readNotes,
  recordStruggle,
  type ReportJob,
  type SessionRead,
  startSession,
  waitFor,
  waitForSessionStatus,
} from './fixtures.ts';

interface Insights {
  overallFrustrationScore: number;
  attentionDropTimestamps: string[];
  criticalMoments: { timestamp: string; type: string; severity: string; context: string }[];
  summary: string;
}

/** A note as GET .../notes shows it, with who worded it. */
type AgentNote = Note & { provider: string | null; usedFallback: boolean | null };

const db = () => testDatabase();
const reportOf = (sessionId: string) =>
  asSystem(db(), (tx) =>
    tx.selectFrom('reports').selectAll().where('session_id', '=', sessionId).executeTakeFirstOrThrow(),
  );
const paymentsOf = (sessionId: string) =>
  asSystem(db(), (tx) =>
    tx.selectFrom('payments').select('status').where('session_id', '=', sessionId).execute(),
  );
/** The agent notes of a session with the job that wrote them. */
const agentNotes = (sessionId: string) =>
  asSystem(db(), (tx) =>
    tx
      .selectFrom('session_notes')
      .select(['content', 'agent_job_id', 'wcag_criterion'])
      .where('session_id', '=', sessionId)
      .where('author_kind', '=', 'agent')
      .execute(),
  );
/** The one job of a kind the session has, once it exists. */
async function onlyJob(sessionId: string, kind: 'agent2' | 'agent3') {
  await waitFor(async () => (await agentJobsOf(sessionId, kind)).length > 0);
  const jobs = await agentJobsOf(sessionId, kind);
  assert.equal(jobs.length, 1, `${kind} jobs: ${jobs.length}`);
  return jobs[0]!;
}

describe('the session life cycle on the AI providers', () => {
  describe('an OpenAI-protocol server as the only configured provider', () => {
    let openai: LocalProvider;
    let service: AiService;
    let business: string;
    let jobId: string;

    before(async () => {
      openai = await startLocalProvider('openai', fakeModel);
      service = await startAiService('session-ai', {
        AI_PROVIDER_ORDER: 'openai',
        AI_TIMEOUT_MS: '5000',
        ...openai.env(),
      });
      ({ business, jobId } = await businessWithStudy(service.api));
    });
    after(async () => {
      await service?.stop();
      await openai?.stop();
    });
    beforeEach(() => {
      openai.mode = 'ok';
    });

    it('Agent 2 runs on the provider: its words make the notes, the job records openai without fallback, and no PII reaches it', async () => {
      const asked = openai.requests.length;
      const { sessionId, testerToken } = await analyzedSession(service.api, business, jobId);
      const job = await onlyJob(sessionId, 'agent2');
      assert.deepEqual(
        [job.status, job.provider, job.used_fallback, job.result],
        ['complete', 'openai', false, { findingCount: 2, patternCount: 0 }],
      );
      const notes = (await readNotes(service.api, sessionId, testerToken)) as AgentNote[];
      assert.deepEqual(notes.map((note) => note.wcagCriterion).sort(), ['3.3.1', '4.1.2']);
      assert.ok(
        notes.every(
          (note) =>
            note.content.startsWith('openai title: openai describes:') &&
            !note.confirmed &&
            note.provider === 'openai' &&
            note.usedFallback === false,
        ),
        JSON.stringify(notes),
      );
      assert.ok((await agentNotes(sessionId)).every((note) => note.agent_job_id === job.id));
      // The voice segment with an email address was sanitised before Agent 2 asked the provider.
      const prompts = openai.requests.slice(asked).map((request) => request.prompt);
      assert.equal(prompts.length, 1);
      assert.ok(prompts[0]!.includes('[email]'), prompts[0]);
      assert.ok(!prompts[0]!.includes('jane@example.com'));
    });

    it('every provider down: the session stays analyzing with Agent 2 queued; the retry schedule completes it once, then Agent 3 waits the same way without holding the payout', async () => {
      openai.mode = 'error500';
      const { api } = service;
      const { sessionId, testerToken } = await startSession(api, business, jobId);
      await recordStruggle(sessionId);
      const done = await api.request('POST', `/api/sessions/${sessionId}/complete`, {
        body: {},
        token: business,
      });
      assert.equal(done.status, 200, done.text);

      const agent2 = await onlyJob(sessionId, 'agent2');
      await waitFor(async () => (await queuedAiWorkOf(agent2.id)).length === 1);
      const [waiting] = await queuedAiWorkOf(agent2.id);
      assert.deepEqual([waiting!.step, waiting!.status], ['agent2', 'queued']);
      assert.match(waiting!.last_error!, /openai: HTTP 500/);
      assert.deepEqual(waiting!.payload, {
        notify: { workflowId: sessionWorkflowId(sessionId), signal: 'aiWorkCompleted' },
      });
      const handle = (await temporalEnvironment()).client.workflow.getHandle(sessionWorkflowId(sessionId));
      assert.equal(await handle.query(sessionStatusQuery), 'analyzing');
      await waitForSessionStatus(api, sessionId, business, 'analyzing');
      assert.equal((await agentJobsOf(sessionId, 'agent2'))[0]!.status, 'queued');
      assert.deepEqual(await agentNotes(sessionId), []);
      const analyze = await api.request('POST', `/api/sessions/${sessionId}/analyze`, { token: business });
      assert.deepEqual(analyze.body.data, { sessionId, status: 'analyzing', estimatedCompletionSeconds: 5 });
      const early = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
        body: { rating: 5 },
        token: testerToken,
      });
      assert.equal(early.status, 409);

      // The providers are back; the schedule's next run finishes the step and tells the workflow.
      openai.mode = 'ok';
      assert.ok((await service.runSchedule()).done >= 1);
      await waitForSessionStatus(api, sessionId, business, 'analyzed');
      const analysed = (await agentJobsOf(sessionId, 'agent2'))[0]!;
      assert.deepEqual(
        [analysed.status, analysed.provider, analysed.used_fallback],
        ['complete', 'openai', false],
      );
      const [finished] = await queuedAiWorkOf(agent2.id);
      assert.deepEqual([finished!.status, finished!.attempts], ['done', 1]);
      const notes = await agentNotes(sessionId);
      assert.deepEqual(notes.map((note) => note.wcag_criterion).sort(), ['3.3.1', '4.1.2']);
      assert.ok(notes.every((note) => note.agent_job_id === agent2.id));

      // Another run finds nothing to do for this session: its item stays done after one attempt,
      // no second set of notes, one job. (The provider's request count is no measure: the schedule
      // also takes other suites' queued work that has come due.)
      await service.runSchedule();
      const [still] = await queuedAiWorkOf(agent2.id);
      assert.deepEqual(
        [still!.status, still!.attempts, still!.completed_at],
        ['done', 1, finished!.completed_at],
      );
      assert.equal((await agentNotes(sessionId)).length, 2);
      assert.equal((await agentJobsOf(sessionId, 'agent2')).length, 1);
      assert.equal(await handle.query(sessionStatusQuery), 'analyzed');

      // Agent 3 finds every provider down too: the tester is confirmed and paid all the same.
      openai.mode = 'error500';
      const confirmed = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
        body: { rating: 5 },
        token: testerToken,
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.equal((confirmed.body.data as { payoutQueued: boolean }).payoutQueued, true);
      assert.deepEqual(await paymentsOf(sessionId), [{ status: 'queued' }]);
      const agent3 = await onlyJob(sessionId, 'agent3');
      await waitFor(async () => (await queuedAiWorkOf(agent3.id)).length === 1);
      const report = async () => {
        const response = await api.request('POST', '/api/reports', {
          body: { sessionId },
          token: testerToken,
        });
        assert.equal(response.status, 202, response.text);
        return response.body.data as ReportJob & { usedFallback: boolean };
      };
      const pending = await report();
      assert.deepEqual([pending.status, pending.reportId], ['queued', null]);
      // Waiting for the retry schedule, whose next run is at most 15 minutes away.
      assert.equal(pending.estimatedCompletionSeconds, 900);
      assert.equal((await handle.describe()).status.name, 'RUNNING');

      openai.mode = 'ok';
      assert.ok((await service.runSchedule()).done >= 1);
      await handle.result();
      const written = await report();
      assert.deepEqual([written.status, written.usedFallback], ['complete', false]);
      const stored = await reportOf(sessionId);
      assert.deepEqual(
        [stored.id, stored.agent_job_id, stored.used_fallback],
        [written.reportId, agent3.id, false],
      );
      const [settled] = await agentJobsOf(sessionId, 'agent3');
      assert.deepEqual([settled!.status, settled!.provider], ['complete', 'openai']);
      assert.deepEqual(await paymentsOf(sessionId), [{ status: 'queued' }]);
    });

    it('a queued Agent 2 that the retry finds failed returns the session to completed, where analyze runs it again', async () => {
      openai.mode = 'error500';
      const { api } = service;
      const { sessionId, testerToken } = await startSession(api, business, jobId);
      await recordStruggle(sessionId);
      await api.request('POST', `/api/sessions/${sessionId}/complete`, { body: {}, token: business });
      const agent2 = await onlyJob(sessionId, 'agent2');
      await waitFor(async () => (await queuedAiWorkOf(agent2.id)).length === 1);
      // Its job settles as failed while it waits (as when its input is gone): the run says so.
      await asSystem(db(), (tx) =>
        tx
          .updateTable('agent_jobs')
          .set({ status: 'failed', error: 'input gone' })
          .where('id', '=', agent2.id)
          .execute(),
      );
      openai.mode = 'ok';
      assert.ok((await service.runSchedule()).failed >= 1);
      await waitForSessionStatus(service.api, sessionId, business, 'completed');

      const analyze = await api.request('POST', `/api/sessions/${sessionId}/analyze`, { token: business });
      assert.equal(analyze.status, 202, analyze.text);
      await waitForSessionStatus(api, sessionId, business, 'analyzed');
      const jobs = await agentJobsOf(sessionId, 'agent2');
      assert.deepEqual(
        jobs.map((job) => [job.status, job.provider]),
        [
          ['failed', null],
          ['complete', 'openai'],
        ],
      );
      assert.equal((await readNotes(api, sessionId, testerToken)).length, 2);
    });

    it("an analyze sent while the failed run's return to completed is being recorded runs Agent 2 again", async () => {
      openai.mode = 'error500';
      const { api } = service;
      const { sessionId } = await startSession(api, business, jobId);
      await recordStruggle(sessionId);
      await api.request('POST', `/api/sessions/${sessionId}/complete`, { body: {}, token: business });
      const agent2 = await onlyJob(sessionId, 'agent2');
      await waitFor(async () => (await queuedAiWorkOf(agent2.id)).length === 1);
      await asSystem(db(), (tx) =>
        tx
          .updateTable('agent_jobs')
          .set({ status: 'failed', error: 'input gone' })
          .where('id', '=', agent2.id)
          .execute(),
      );
      openai.mode = 'ok';
      // The session's row is held, so the workflow's write of completed waits with its state still
      // analyzing: the moment a caller may already read completed (the write committed) and send analyze.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holder: number | undefined;
      const holding = db()
        .transaction()
        .execute(async (tx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid from sessions
            where id = ${sessionId} for update`.execute(tx);
          holder = rows[0]!.pid;
          await released;
        });
      try {
        await waitFor(() => Promise.resolve(holder !== undefined));
        assert.ok((await service.runSchedule()).failed >= 1);
        await waitFor(async () => {
          const { rows } = await sql<{ waiting: string }>`select count(*) as waiting from pg_stat_activity
            where ${holder} = any(pg_blocking_pids(pid))`.execute(db());
          return Number(rows[0]!.waiting) > 0;
        });
        const analyze = await api.request('POST', `/api/sessions/${sessionId}/analyze`, { token: business });
        assert.equal(analyze.status, 202, analyze.text);
      } finally {
        release();
        await holding;
      }
      await waitForSessionStatus(api, sessionId, business, 'analyzed');
      const jobs = await agentJobsOf(sessionId, 'agent2');
      assert.deepEqual(
        jobs.map((job) => job.status),
        ['failed', 'complete'],
      );
    });

    it('GET /api/sessions/:id carries the insights of the latest completed Agent 1 analysis', async () => {
      const { api } = service;
      const { sessionId, testerToken } = await startSession(api, business, jobId);
      await recordStruggle(sessionId, new Date(Date.now() - 120_000));
      const read = async (token: string) => {
        const response = await api.request('GET', `/api/sessions/${sessionId}`, { token });
        assert.equal(response.status, 200, response.text);
        return response.body.data as SessionRead & { insights: Insights | null };
      };
      assert.equal((await read(business)).insights, null);

      const queued = await api.request('POST', '/api/ai', { body: { sessionId }, token: business });
      assert.equal(queued.status, 202, queued.text);
      const { analysisJobId } = queued.body.data as { analysisJobId: string };
      let job: { status: string; insights: Insights | null } | undefined;
      await waitFor(async () => {
        job = (await api.request('GET', `/api/ai/${analysisJobId}`, { token: business })).body
          .data as typeof job;
        return job!.status === 'complete';
      });
      assert.match(job!.insights!.summary, /^openai summary of \d+ moments$/);
      assert.ok(job!.insights!.criticalMoments.length > 0);
      const attached = { ...job!.insights!, provider: 'openai', usedFallback: false };
      assert.deepEqual((await read(business)).insights, attached);
      assert.deepEqual((await read(testerToken)).insights, attached);
      // The session's own fields are unchanged beside them.
      assert.equal((await read(business)).status, 'active');
    });
  });

  describe('the primary provider failing', () => {
    const servers = {} as Record<'openai' | 'anthropic', LocalProvider>;
    let service: AiService;
    let business: string;
    let jobId: string;

    before(async () => {
      servers.openai = await startLocalProvider('openai', fakeModel);
      servers.anthropic = await startLocalProvider('anthropic', fakeModel);
      servers.openai.mode = 'error500';
      service = await startAiService('session-ai-fallback', {
        AI_PROVIDER_ORDER: 'openai,anthropic',
        AI_TIMEOUT_MS: '5000',
        ...servers.openai.env(),
        ...servers.anthropic.env(),
      });
      ({ business, jobId } = await businessWithStudy(service.api));
    });
    after(async () => {
      await service?.stop();
      await Promise.all(Object.values(servers).map((server) => server.stop()));
    });

    it('the fallback answers Agents 1 to 4: provider and usedFallback on every job, note, report and read', async () => {
      const { api } = service;
      // Agent 1 on a live session: its insights on the session name the fallback.
      const live = await startSession(api, business, jobId);
      await recordStruggle(live.sessionId, new Date(Date.now() - 120_000));
      const queued = await api.request('POST', '/api/ai', {
        body: { sessionId: live.sessionId },
        token: business,
      });
      assert.equal(queued.status, 202, queued.text);
      let insights: (Insights & { provider: string; usedFallback: boolean }) | null = null;
      await waitFor(async () => {
        const read = await api.request('GET', `/api/sessions/${live.sessionId}`, { token: business });
        ({ insights } = read.body.data as { insights: typeof insights });
        return insights !== null;
      });
      assert.deepEqual([insights!.provider, insights!.usedFallback], ['anthropic', true]);
      assert.match(insights!.summary, /^anthropic summary/);

      const { sessionId, testerToken } = await analyzedSession(api, business, jobId);
      const agent2 = await onlyJob(sessionId, 'agent2');
      assert.deepEqual([agent2.provider, agent2.used_fallback], ['anthropic', true]);
      const notes = (await readNotes(api, sessionId, testerToken)) as AgentNote[];
      assert.ok(
        notes.every(
          (note) =>
            note.content.startsWith('anthropic title:') &&
            note.provider === 'anthropic' &&
            note.usedFallback === true,
        ),
        JSON.stringify(notes),
      );

      const confirmed = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
        body: { rating: 4 },
        token: testerToken,
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      const job = (await completedReportJob(api, sessionId, testerToken)) as ReportJob & {
        usedFallback: boolean;
      };
      assert.equal(job.usedFallback, true);
      const agent3 = await onlyJob(sessionId, 'agent3');
      assert.deepEqual([agent3.provider, agent3.used_fallback], ['anthropic', true]);
      assert.equal((await reportOf(sessionId)).used_fallback, true);
      const read = await api.request('GET', `/api/reports/${job.reportId}`, { token: business });
      assert.equal(read.status, 200, read.text);
      const data = read.body.data as {
        provider: string;
        usedFallback: boolean;
        report: { findings: { title: string }[] };
      };
      assert.deepEqual([data.provider, data.usedFallback], ['anthropic', true]);
      assert.equal((await reportOf(sessionId)).provider, 'anthropic');
      assert.ok(data.report.findings.every((finding) => finding.title === 'anthropic moderate title'));
      // The polling endpoint says the same.
      const polled = await api.request('GET', `/api/reports/jobs/${job.reportJobId}`, { token: testerToken });
      assert.equal(polled.status, 200, polled.text);
      assert.deepEqual(polled.body.data, {
        reportJobId: job.reportJobId,
        sessionId,
        status: 'complete',
        estimatedCompletionSeconds: 0,
        reportId: job.reportId,
        provider: 'anthropic',
        usedFallback: true,
        error: null,
      });

      // Agent 4 on the study: the study report and its read name the fallback too.
      const aggregate = await api.request('POST', `/api/reports/job/${jobId}`, { body: {}, token: business });
      assert.equal(aggregate.status, 202, aggregate.text);
      let study: { status: string; provider: string | null; usedFallback: boolean } | undefined;
      await waitFor(async () => {
        study = (await api.request('GET', `/api/reports/job/${jobId}`, { token: business })).body
          .data as typeof study;
        return study!.status === 'complete';
      });
      assert.deepEqual([study!.provider, study!.usedFallback], ['anthropic', true]);
      const stored = await asSystem(db(), (tx) =>
        tx
          .selectFrom('study_reports')
          .select(['provider', 'used_fallback'])
          .where('study_id', '=', jobId)
          .executeTakeFirstOrThrow(),
      );
      assert.deepEqual(stored, { provider: 'anthropic', used_fallback: true });

      // The primary was asked first each time: it failed, it was not skipped.
      assert.ok(servers.openai.requests.length >= 4);
    });
  });
});
