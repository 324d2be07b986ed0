import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { createAgents, LOCAL_ANALYST } from '../../activities/ai/agents.ts';
import { createAiActivities } from '../../activities/ai/ai-activities.ts';
import { AGENT_INPUT_ERROR } from '../../lib/failures.ts';
import { configuredProviders } from '../../clients/ai/configured.ts';
import { PROVIDER_NAMES, type ProviderName } from '../../clients/ai/types.ts';
import { asSystem } from '../../db/doors.ts';
import { enqueueAiWork } from '../../db/repositories/queued-ai-work.ts';
import { applyDecisions } from '../../db/repositories/session-notes.ts';
import { activeStudy, agentJob, recordStruggle, startSession } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testConfig } from '../support/config.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { fakeModel } from './fake-model.ts';
import {
  confirmedSession,
  profiledTester,
  putBack,
  queuedAgentJob,
  recordRepeatedErrors,
} from './fixtures.ts';
import { envOf, startLocalProvider, type LocalProvider } from './provider-servers.ts';

const db = () => testDatabase();

describe('agent jobs for the session workflow: Agents 2 and 3 with provider, usedFallback and the queue', () => {
  const servers = {} as Record<ProviderName, LocalProvider>;
  let api: TestApi;
  let business: string;
  let jobId: string;
  const local = createAiActivities({ db: db(), agents: createAgents({ providers: [] }) });
  let remote: ReturnType<typeof createAiActivities>;

  before(async () => {
    for (const name of PROVIDER_NAMES) servers[name] = await startLocalProvider(name, fakeModel);
    const config = testConfig({ AI_TIMEOUT_MS: '400', ...envOf(servers, PROVIDER_NAMES) });
    remote = createAiActivities({
      db: db(),
      agents: createAgents({ providers: configuredProviders(config.ai) }),
    });
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
    jobId = await activeStudy(api, business);
  });
  after(async () => {
    await api.stop();
    await Promise.all(PROVIDER_NAMES.map((name) => servers[name].stop()));
  });
  beforeEach(() => PROVIDER_NAMES.forEach((name) => (servers[name].mode = 'ok')));

  it('Agent 2 stores its findings as unconfirmed notes; the job keeps only counts', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    await recordStruggle(sessionId, new Date(Date.now() - 60_000));
    const id = await queuedAgentJob(sessionId, 'agent2');
    assert.deepEqual(await local.runAgentJob({ jobId: id }), { status: 'complete' });
    const row = await agentJob(id);
    assert.deepEqual([row.status, row.provider, row.used_fallback], ['complete', LOCAL_ANALYST, false]);
    assert.deepEqual(row.result, { findingCount: 2, patternCount: 0 });
    const notes = await asSystem(db(), (tx) =>
      tx.selectFrom('session_notes').selectAll().where('agent_job_id', '=', id).orderBy('noted_at').execute(),
    );
    assert.deepEqual(
      notes.map((n) => [
        n.wcag_criterion,
        n.wcag_level,
        n.severity,
        n.target_selector,
        n.confirmed,
        n.author_kind,
        n.provider,
        n.used_fallback,
        n.pattern,
      ]),
      [
        ['4.1.2', 'A', 'high', '#pay', false, 'agent', LOCAL_ANALYST, false, false],
        ['3.3.1', 'A', 'high', '#card-number', false, 'agent', LOCAL_ANALYST, false, false],
      ],
    );
    // A second run of a completed job changes nothing.
    assert.deepEqual(await local.runAgentJob({ jobId: id }), { status: 'complete' });
    const again = await asSystem(db(), (tx) =>
      tx.selectFrom('session_notes').select('id').where('session_id', '=', sessionId).execute(),
    );
    assert.equal(again.length, 2);
  });

  describe("Agent 2's cross-task patterns: stored for the tester to decide on, reported once confirmed", () => {
    /** Agent 2 on a confirmed session with `recordRepeatedErrors`'s signals; its notes, patterns first. */
    async function analysed(activities: typeof local) {
      const tester = await profiledTester({ country: 'GB', devices: ['desktop'] });
      const sessionId = await confirmedSession(jobId, tester, { report: false });
      await recordRepeatedErrors(sessionId);
      const id = await queuedAgentJob(sessionId, 'agent2');
      assert.deepEqual(await activities.runAgentJob({ jobId: id }), { status: 'complete' });
      assert.deepEqual((await agentJob(id)).result, { findingCount: 3, patternCount: 1 });
      const notes = await asSystem(db(), (tx) =>
        tx
          .selectFrom('session_notes')
          .selectAll()
          .where('session_id', '=', sessionId)
          .orderBy('pattern', 'desc')
          .orderBy('noted_at')
          .execute(),
      );
      return { sessionId, tester, notes, pattern: notes[0]!, findings: notes.slice(1) };
    }
    /** The tester's decisions, then Agent 3 (the local analyst) on what passed the gate. */
    async function reportAfter(sessionId: string, rejected: string[]) {
      await asSystem(db(), (tx) =>
        applyDecisions(
          tx,
          sessionId,
          rejected.map((noteId) => ({ noteId, decision: 'rejected' as const })),
          new Date(),
        ),
      );
      const id = await queuedAgentJob(sessionId, 'agent3');
      assert.deepEqual(await local.runAgentJob({ jobId: id }), { status: 'complete' });
      return asSystem(db(), (tx) =>
        tx.selectFrom('reports').selectAll().where('session_id', '=', sessionId).executeTakeFirstOrThrow(),
      );
    }
    const recurrence = 'WCAG 3.3.1 Error Identification came up 3 times on 2 pages (/checkout, /address).';

    it('the local analyst: one unconfirmed pattern note grouping its findings, in the report once confirmed', async () => {
      const { sessionId, tester, pattern, findings } = await analysed(local);
      assert.deepEqual(
        [pattern.pattern, pattern.confirmed, pattern.wcag_criterion, pattern.provider, pattern.content],
        [true, false, '3.3.1', LOCAL_ANALYST, recurrence],
      );
      assert.equal(findings.length, 3);
      assert.ok(findings.every((f) => !f.pattern && f.pattern_note_id === pattern.id));
      assert.ok(findings.every((f) => f.content.includes('WCAG 3.3.1 came up 3 times in this session.')));
      // The pattern is as severe as its most severe finding, and dated by its first.
      assert.equal(pattern.severity, findings[0]!.severity);
      assert.deepEqual(pattern.noted_at, findings[0]!.noted_at);

      // The tester reads it among the findings to decide on.
      const notes = (
        await api.request('GET', `/api/sessions/${sessionId}/notes`, { token: await sessionToken(tester) })
      ).body.data as { notes: { noteId: string; pattern: boolean; patternNoteId: string | null }[] };
      const listed = notes.notes.find((n) => n.noteId === pattern.id)!;
      assert.deepEqual([listed.pattern, listed.patternNoteId], [true, null]);
      assert.ok(notes.notes.filter((n) => n.patternNoteId === pattern.id).length === 3);

      const report = await reportAfter(sessionId, []);
      const content = report.content as {
        patterns: {
          patternId: string;
          description: string;
          findingIds: string[];
          wcag: { criterion: string };
        }[];
        findings: { findingId: string }[];
      };
      assert.deepEqual(
        content.patterns.map((p) => [p.patternId, p.description, p.wcag.criterion, [...p.findingIds].sort()]),
        [[pattern.id, recurrence, '3.3.1', findings.map((f) => f.id).sort()]],
      );
      // A pattern is not a finding of its own: it adds no penalty and no second entry.
      assert.deepEqual(content.findings.map((f) => f.findingId).sort(), findings.map((f) => f.id).sort());
      const read = await api.request('GET', `/api/reports/${report.id}`, { token: business });
      assert.equal(read.status, 200, read.text);
      const body = read.body.data as { report: { patterns: { patternId: string; description: string }[] } };
      assert.deepEqual(
        body.report.patterns.map((p) => [p.patternId, p.description]),
        [[pattern.id, recurrence]],
      );
    });

    it("a provider's words keep the core's recurrence sentences; a rejected pattern stays out of the report", async () => {
      servers.openai.mode = 'rateLimited';
      const { sessionId, pattern, findings } = await analysed(remote);
      assert.deepEqual(
        [pattern.pattern, pattern.confirmed, pattern.provider, pattern.used_fallback, pattern.content],
        [true, false, 'anthropic', true, `anthropic pattern ${recurrence}`],
      );
      assert.ok(
        findings.every(
          (f) =>
            f.content.startsWith('anthropic title: anthropic describes:') &&
            f.content.includes('WCAG 3.3.1 came up 3 times in this session.') &&
            f.provider === 'anthropic' &&
            f.used_fallback &&
            f.pattern_note_id === pattern.id,
        ),
        JSON.stringify(findings.map((f) => f.content)),
      );
      const report = await reportAfter(sessionId, [pattern.id]);
      const content = report.content as { patterns: unknown[]; findings: unknown[] };
      assert.deepEqual([content.patterns, content.findings.length], [[], 3]);
    });
  });

  it('all down: Agent 2 waits in the queue with whom to signal; back: one run completes it, once', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    await recordStruggle(sessionId, new Date(Date.now() - 60_000));
    const id = await queuedAgentJob(sessionId, 'agent2');
    PROVIDER_NAMES.forEach((name) => (servers[name].mode = 'error500'));
    const notify = { workflowId: `session:${sessionId}`, signal: 'aiWorkCompleted' };
    const outcome = await remote.runAgentJob({ jobId: id, notify });
    assert.equal(outcome.status, 'queued');
    assert.equal((await agentJob(id)).status, 'queued');

    PROVIDER_NAMES.forEach((name) => (servers[name].mode = 'ok'));
    servers.openai.mode = 'rateLimited';
    const all = await remote.claimQueuedAiWork({ limit: 100 });
    await putBack(all.filter((c) => c.agentJobId !== id).map((c) => c.workId));
    const claimed = all.filter((c) => c.agentJobId === id);
    assert.deepEqual(
      claimed.map((c) => [c.step, c.notify]),
      [['agent2', notify]],
    );
    assert.equal(await remote.processQueuedAiWork({ workId: claimed[0]!.workId }), 'done');
    assert.equal(await remote.processQueuedAiWork({ workId: claimed[0]!.workId }), 'skipped');
    const row = await agentJob(id);
    assert.deepEqual([row.status, row.provider, row.used_fallback], ['complete', 'anthropic', true]);
    const notes = await asSystem(db(), (tx) =>
      tx.selectFrom('session_notes').select('content').where('agent_job_id', '=', id).execute(),
    );
    assert.equal(notes.length, 2);
    assert.ok(notes.every((n) => n.content.startsWith('anthropic title: anthropic describes:')));
  });

  it('Agent 3 builds the report from confirmed findings, storing usedFallback and the format', async () => {
    const tester = await profiledTester({ country: 'GB', devices: ['desktop'] });
    const sessionId = await confirmedSession(jobId, tester, { report: false });
    await asSystem(db(), (tx) =>
      tx
        .insertInto('session_notes')
        .values(
          [
            { severity: 'high' as const, wcag_criterion: '4.1.2', confirmed: true },
            {
              severity: 'low' as const,
              wcag_criterion: '3.3.1',
              confirmed: false,
              decision: 'rejected' as const,
            },
          ].map((n, i) => ({
            session_id: sessionId,
            content: `A control did not respond as expected: finding ${i}`,
            noted_at: new Date(),
            author_kind: 'agent' as const,
            wcag_level: 'A' as const,
            target_selector: '#pay',
            ...n,
            ...(n.decision ? { decided_at: new Date() } : {}),
          })),
        )
        .execute(),
    );
    servers.openai.mode = 'timeout';
    const id = await queuedAgentJob(sessionId, 'agent3', { reportFormat: 'narrative' });
    assert.deepEqual(await remote.runAgentJob({ jobId: id }), { status: 'complete' });
    const report = await asSystem(db(), (tx) =>
      tx.selectFrom('reports').selectAll().where('session_id', '=', sessionId).executeTakeFirstOrThrow(),
    );
    assert.equal(report.used_fallback, true);
    assert.equal(report.report_format, 'narrative');
    assert.equal(report.agent_job_id, id);
    const content = report.content as { findings: { wcag: { criterion: string } }[]; narrative: string };
    assert.deepEqual(
      content.findings.map((f) => f.wcag.criterion),
      ['4.1.2'],
    );
    assert.match(content.narrative, /anthropic tells the story/);
    const row = await agentJob(id);
    assert.deepEqual([row.provider, row.used_fallback, row.result?.reportId], ['anthropic', true, report.id]);
  });

  it('every provider refuses (a bad key): the job fails for good, directly and through the queue', async () => {
    PROVIDER_NAMES.forEach((name) => (servers[name].mode = 'badKey'));
    const { sessionId } = await startSession(api, business, jobId);
    await recordStruggle(sessionId, new Date(Date.now() - 60_000));
    const direct = await queuedAgentJob(sessionId, 'agent2');
    assert.deepEqual(await remote.runAgentJob({ jobId: direct }), { status: 'failed' });
    const failed = await agentJob(direct);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error!, /openai: HTTP 401/);

    const queued = await queuedAgentJob(sessionId, 'agent2');
    await asSystem(db(), (tx) =>
      enqueueAiWork(tx, {
        step: 'agent2',
        agentJobId: queued,
        sessionId,
        error: 'all down',
        now: new Date(),
      }),
    );
    const all = await remote.claimQueuedAiWork({ limit: 100 });
    await putBack(all.filter((c) => c.agentJobId !== queued).map((c) => c.workId));
    const item = all.find((c) => c.agentJobId === queued)!;
    // Not put back for another round in 15 minutes: it would be refused the same way.
    assert.equal(await remote.processQueuedAiWork({ workId: item.workId }), 'failed');
    assert.equal((await agentJob(queued)).status, 'failed');
  });

  it('a job whose input is not there fails for good, directly and through the queue', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    const direct = await queuedAgentJob(sessionId, 'agent3');
    await assert.rejects(
      local.runAgentJob({ jobId: direct }),
      (error: unknown) =>
        error instanceof ApplicationFailure && error.nonRetryable && error.type === AGENT_INPUT_ERROR,
    );
    await local.failAgentJob({ jobId: direct, reason: 'Session findings are not confirmed' });
    const failed = await agentJob(direct);
    assert.deepEqual([failed.status, failed.error], ['failed', 'Session findings are not confirmed']);

    const queued = await queuedAgentJob(sessionId, 'agent3');
    await asSystem(db(), (tx) =>
      enqueueAiWork(tx, {
        step: 'agent3',
        agentJobId: queued,
        sessionId,
        error: 'all down',
        now: new Date(),
      }),
    );
    const all = await local.claimQueuedAiWork({ limit: 100 });
    await putBack(all.filter((c) => c.agentJobId !== queued).map((c) => c.workId));
    const item = all.find((c) => c.agentJobId === queued)!;
    assert.equal(await local.processQueuedAiWork({ workId: item.workId }), 'failed');
    assert.equal((await agentJob(queued)).status, 'failed');
  });
});
