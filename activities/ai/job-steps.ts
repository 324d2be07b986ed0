import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import type { AgentJobRow } from '../../db/repositories/agent-jobs.ts';
import { insertStudyReport, upsertReport } from '../../db/repositories/reports.ts';
import { confirmedNotes, replaceAgentFindings } from '../../db/repositories/session-notes.ts';
import { findSession } from '../../db/repositories/sessions.ts';
import { toneProfileOf } from '../../db/repositories/studies.ts';
import {
  endedAttemptsOfStudy,
  studyTaskPages,
  tasksWithAttempts,
} from '../../db/repositories/task-attempts.ts';
import type { ReportFormat, SignalKind } from '../../lib/domain.ts';
import type { Agents } from './agents.ts';
import { AGENT_INPUT_ERROR } from '../../lib/failures.ts';
import { loadAgentFrames, loadAgentSignals, loadStudyReports } from './load-agent-inputs.ts';

/** An agent's answer to a job, and how to store it once the job is known to be still open. */
export interface AnsweredJob {
  readonly provider: string;
  readonly usedFallback: boolean;
  /** Writes what the agent produced; answers the job's `result` (what its readers may see). */
  persist(tx: Tx, now: Date): Promise<Record<string, unknown>>;
}

/**
 * Runs the job's agent: reads its input through the system door, asks the agent (outside any
 * transaction: a provider may take seconds) and hands back the write. Throws
 * AllProvidersUnavailableError when no provider answered.
 */
export async function answerJob(db: Db, agents: Agents, job: AgentJobRow): Promise<AnsweredJob> {
  switch (job.kind) {
    case 'agent1':
      return answerAgent1(db, agents, job);
    case 'agent2':
      return answerAgent2(db, agents, job);
    case 'agent3':
      return answerAgent3(db, agents, job);
    case 'agent4':
      return answerAgent4(db, agents, job);
  }
}

async function answerAgent1(db: Db, agents: Agents, job: AgentJobRow): Promise<AnsweredJob> {
  const snapshotAt =
    typeof job.options.snapshotAt === 'string' ? new Date(job.options.snapshotAt) : job.queued_at;
  const includeSignals = job.options.includeSignals as SignalKind[] | undefined;
  const signals = await asSystem(db, async (tx) => {
    await requireSession(tx, job.session_id);
    return loadAgentSignals(tx, job.session_id!, snapshotAt);
  });
  const answer = await agents.agent1Insights({
    signals,
    snapshotAt,
    ...(includeSignals ? { includeSignals } : {}),
  });
  return { ...answer, persist: () => Promise.resolve({ insights: answer.result }) };
}

/**
 * Findings and cross-task patterns become unconfirmed notes, each naming who worded it; a finding
 * points at the pattern note that groups it. The job keeps only counts (0017: its result is not
 * gated), and Agent 2's summary is not kept: it restates the notes, in words the organization
 * could read before the tester decided anything.
 */
async function answerAgent2(db: Db, agents: Agents, job: AgentJobRow): Promise<AnsweredJob> {
  const signals = await asSystem(db, async (tx) => {
    await requireSession(tx, job.session_id);
    return loadAgentSignals(tx, job.session_id!);
  });
  const answer = await agents.agent2Findings({ signals });
  return {
    ...answer,
    async persist(tx) {
      const { findings, patterns } = answer.result;
      const agentNote = {
        session_id: job.session_id!,
        author_kind: 'agent' as const,
        agent_job_id: job.id,
        provider: answer.provider,
        used_fallback: answer.usedFallback,
      };
      const patternNoteIds = new Map(patterns.map((p) => [p.patternId, randomUUID()]));
      const taskIds = new Map((signals.tasks ?? []).map((task) => [task.order, task.taskId ?? null]));
      await replaceAgentFindings(tx, job.session_id!, [
        ...patterns.map((pattern) => ({
          ...agentNote,
          id: patternNoteIds.get(pattern.patternId)!,
          content: pattern.description.slice(0, 10_000),
          noted_at: new Date(pattern.timestamp),
          severity: pattern.severity,
          wcag_criterion: pattern.wcag.criterion,
          wcag_level: pattern.wcag.level,
          pattern: true,
        })),
        ...findings.map((finding) => ({
          ...agentNote,
          id: randomUUID(),
          content: finding.content.slice(0, 10_000),
          noted_at: new Date(finding.timestamp),
          severity: finding.severity,
          wcag_criterion: finding.wcag.criterion,
          wcag_level: finding.wcag.level,
          target_selector: finding.target?.slice(0, 1000) ?? null,
          pattern_note_id: finding.patternId ? (patternNoteIds.get(finding.patternId) ?? null) : null,
          task_id: finding.task ? (taskIds.get(finding.task.order) ?? null) : null,
        })),
      ]);
      return { findingCount: findings.length, patternCount: patterns.length };
    },
  };
}

/** The tester's report from confirmed findings only; the reports trigger holds the gate too. */
async function answerAgent3(db: Db, agents: Agents, job: AgentJobRow): Promise<AnsweredJob> {
  const input = await asSystem(db, async (tx) => {
    const session = await requireSession(tx, job.session_id);
    if (!session.notes_confirmed) {
      throw ApplicationFailure.nonRetryable('Session findings are not confirmed', AGENT_INPUT_ERROR);
    }
    const tone = await toneProfileOf(tx, session.study_id);
    const notes = await confirmedNotes(tx, session.id);
    const tasks = (await tasksWithAttempts(tx, session.id)).map((row) => ({
      order: row.position,
      title: row.title,
      outcome: row.outcome,
      activeMs: row.active_ms,
      ease: row.ease,
    }));
    return { session, tone, notes, tasks, frames: await loadAgentFrames(tx, session.id) };
  });
  const format = (job.options.reportFormat as ReportFormat | undefined) ?? 'structured';
  const answer = await agents.agent3Report({
    notes: input.notes,
    frames: input.frames,
    tone: input.tone,
    format,
    tasks: input.tasks,
  });
  return {
    ...answer,
    async persist(tx, now) {
      const { session } = input;
      const report = await upsertReport(tx, {
        organization_id: session.organization_id,
        study_id: session.study_id,
        session_id: session.id,
        tester_id: session.tester_id,
        agent_job_id: job.id,
        tone_profile: input.tone,
        report_format: format,
        overall_score: answer.result.overallScore,
        content: { ...answer.result },
        used_fallback: answer.usedFallback,
        provider: answer.provider,
        generated_at: now,
      });
      return { findingCount: answer.result.findings.length, reportId: report.id };
    },
  };
}

/** The study-level report, across organizations' testers through the system door. */
async function answerAgent4(db: Db, agents: Agents, job: AgentJobRow): Promise<AnsweredJob> {
  const { reports, profiles, tasks, attempts } = await asSystem(db, async (tx) => ({
    ...(await loadStudyReports(tx, job.study_id)),
    tasks: await studyTaskPages(tx, job.study_id),
    attempts: await endedAttemptsOfStudy(tx, job.study_id),
  }));
  const answer = await agents.agent4Aggregate({
    reports,
    profiles,
    tasks,
    attempts,
    includeVariantComparison: job.options.includeVariantComparison !== false,
    referenceDate: job.queued_at,
  });
  return {
    ...answer,
    async persist(tx, now) {
      const aggregateReportId = await insertStudyReport(tx, {
        organization_id: job.organization_id,
        study_id: job.study_id,
        agent_job_id: job.id,
        session_count: answer.result.sessionCount,
        study_score: answer.result.studyScore,
        content: { ...answer.result },
        used_fallback: answer.usedFallback,
        provider: answer.provider,
        generated_at: now,
      });
      return { aggregateReportId, sessionCount: answer.result.sessionCount };
    },
  };
}

async function requireSession(tx: Tx, sessionId: string | null) {
  const session = sessionId ? await findSession(tx, sessionId) : undefined;
  if (!session) throw ApplicationFailure.nonRetryable(`Session ${sessionId} not found`, AGENT_INPUT_ERROR);
  return session;
}
