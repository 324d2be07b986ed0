import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { insertAgentJob, latestAgentJob, upsertReport } from '../../db/repositories/reports.ts';
import {
  applyDecisions,
  confirmedNotes,
  replaceAgentFindings,
  type NoteDecisionInput,
} from '../../db/repositories/session-notes.ts';
import {
  confirmedAgainstTarget,
  findSession,
  queuePayment,
  refreshStudyNotesConfirmed,
  updateSession,
} from '../../db/repositories/sessions.ts';
import type { SessionStatus } from '../../db/schema-sessions.ts';
import { analyseSession } from '../analysis/findings.ts';
import { buildSessionReport } from '../analysis/session-report.ts';
import { loadFrames, loadSignals } from './load-signals.ts';

export interface SessionActivityDependencies {
  readonly db: Db;
}

/** The analyst behind Agents 2 and 3 until the AI providers land: the project's own signal analysis. */
export const LOCAL_ANALYST = 'local-signal-analysis';
/** Named so workers never retry it: the session is not where the activity expects it. */
export const SESSION_STATE_ERROR = 'SessionStateError';

export interface Confirmation {
  readonly rating: number;
  readonly comment?: string | undefined;
  readonly decisions: readonly NoteDecisionInput[];
  readonly confirmedAt: string;
}

/** Side effects of the session workflow. The workflow owns the state; these record it. */
export function createSessionActivities({ db }: SessionActivityDependencies) {
  return {
    async recordSessionStatus(input: { sessionId: string; status: SessionStatus; completedAt?: string }) {
      await asSystem(db, async (tx) => {
        const session = await requireSession(tx, input.sessionId);
        if (!input.completedAt) {
          await updateSession(tx, input.sessionId, { status: input.status });
          return;
        }
        const completedAt = new Date(input.completedAt);
        const seconds = Math.max(
          0,
          Math.round((completedAt.getTime() - session.started_at.getTime()) / 1000),
        );
        await updateSession(tx, input.sessionId, {
          status: input.status,
          completed_at: completedAt,
          duration_seconds: seconds,
        });
      });
    },

    /** Agent 2: findings from the stored signals, stored as unconfirmed notes; the session becomes analyzed. */
    async analyzeSession(input: { sessionId: string }): Promise<{ findings: number }> {
      return asSystem(db, async (tx) => {
        const session = await requireSession(tx, input.sessionId);
        const started = Date.now();
        const findings = analyseSession(await loadSignals(tx, input.sessionId));
        const notes = findings.map((finding) => ({ ...finding, noteId: randomUUID() }));
        const now = new Date();
        const job = await insertAgentJob(tx, {
          kind: 'agent2',
          organization_id: session.organization_id,
          study_id: session.study_id,
          session_id: session.id,
          status: 'complete',
          provider: LOCAL_ANALYST,
          estimated_completion_seconds: 0,
          started_at: new Date(started),
          completed_at: now,
          duration_ms: now.getTime() - started,
          result: {
            findings: notes.map((n) => ({
              noteId: n.noteId,
              kind: n.kind,
              target: n.target,
              severity: n.severity,
            })),
          },
        });
        await replaceAgentFindings(
          tx,
          session.id,
          notes.map((n) => ({
            id: n.noteId,
            session_id: session.id,
            content: n.content,
            noted_at: n.at,
            author_kind: 'agent' as const,
            agent_job_id: job.id,
            severity: n.severity,
            wcag_criterion: n.wcag.criterion,
            wcag_level: n.wcag.level,
          })),
        );
        await updateSession(tx, session.id, { status: 'analyzed', analyzed_at: now });
        return { findings: notes.length };
      });
    },

    /** The tester's decisions and rating; the gate opens (notes_confirmed) in the same transaction. */
    async recordConfirmation(input: { sessionId: string; confirmation: Confirmation }) {
      const { rating, comment, decisions, confirmedAt } = input.confirmation;
      const at = new Date(confirmedAt);
      await asSystem(db, async (tx) => {
        const session = await requireSession(tx, input.sessionId);
        await applyDecisions(tx, session.id, decisions, at);
        await updateSession(tx, session.id, {
          status: 'confirmed',
          confirmed_at: at,
          notes_confirmed: true,
          notes_confirmed_at: at,
          rating,
          rating_comment: comment ?? null,
        });
        await refreshStudyNotesConfirmed(tx, session.study_id);
      });
    },

    /** Agent 3: the tester's report, built from confirmed notes only. */
    async generateSessionReport(input: { sessionId: string }): Promise<{ reportId: string }> {
      return asSystem(db, async (tx) => {
        const session = await requireSession(tx, input.sessionId);
        if (!session.notes_confirmed) {
          throw ApplicationFailure.nonRetryable('Session notes are not confirmed', SESSION_STATE_ERROR);
        }
        const study = await tx
          .selectFrom('studies')
          .select('tone_profile')
          .where('id', '=', session.study_id)
          .executeTakeFirstOrThrow();
        const targets = targetsOf(await latestAgentJob(tx, session.id, 'agent2'));
        const notes = (await confirmedNotes(tx, session.id)).map((note) => ({
          noteId: note.id,
          content: note.content,
          annotation: note.annotation,
          severity: note.severity,
          wcagCriterion: note.wcag_criterion,
          wcagLevel: note.wcag_level,
          at: note.noted_at ?? note.created_at,
          target: targets.get(note.id) ?? null,
        }));
        const content = buildSessionReport(notes, await loadFrames(tx, session.id), study.tone_profile);
        const now = new Date();
        const job = await insertAgentJob(tx, {
          kind: 'agent3',
          organization_id: session.organization_id,
          study_id: session.study_id,
          session_id: session.id,
          status: 'complete',
          provider: LOCAL_ANALYST,
          estimated_completion_seconds: 0,
          started_at: now,
          completed_at: now,
          duration_ms: 0,
          result: { findingCount: content.findings.length },
        });
        const report = await upsertReport(tx, {
          organization_id: session.organization_id,
          study_id: session.study_id,
          session_id: session.id,
          tester_id: session.tester_id,
          agent_job_id: job.id,
          tone_profile: study.tone_profile,
          overall_score: content.overallScore,
          content: { ...content },
          generated_at: now,
        });
        await tx
          .updateTable('agent_jobs')
          .set({ result: { findingCount: content.findings.length, reportId: report.id } })
          .where('id', '=', job.id)
          .execute();
        return { reportId: report.id };
      });
    },

    async queueSessionPayment(input: { sessionId: string }): Promise<void> {
      await asSystem(db, (tx) => queuePayment(tx, input.sessionId));
    },

    /** Whether the study has as many confirmed sessions as it set out to collect. */
    async studyTargetReached(input: { jobId: string }): Promise<boolean> {
      const { confirmed, target } = await asSystem(db, (tx) => confirmedAgainstTarget(tx, input.jobId));
      return confirmed >= target;
    },
  };
}

export type SessionActivities = ReturnType<typeof createSessionActivities>;

async function requireSession(tx: Parameters<typeof findSession>[0], sessionId: string) {
  const session = await findSession(tx, sessionId);
  if (!session) throw ApplicationFailure.nonRetryable(`Session ${sessionId} not found`, SESSION_STATE_ERROR);
  return session;
}

function targetsOf(job: { result: Record<string, unknown> | null } | undefined): Map<string, string> {
  const findings = (job?.result?.findings ?? []) as { noteId: string; target: string | null }[];
  return new Map(findings.flatMap((f) => (f.target ? [[f.noteId, f.target] as const] : [])));
}
