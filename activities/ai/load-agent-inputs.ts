import type { Tx } from '../../db/doors.ts';
import { agentEvents, agentTasks, studyReports, testerProfiles } from '../../db/repositories/agent-inputs.ts';
import { MIN_MEDIAN_ATTEMPTS } from '../../lib/analysis/detectors/tasks.ts';
import { facialSnapshotsForAnalysis, voiceSegmentsForAnalysis } from '../../db/repositories/signals.ts';
import type { ReportSummary, TesterProfileSummary } from '../../lib/analysis/aggregate.ts';
import type { SessionReportContent } from '../../lib/analysis/session-report.ts';
import { redactPii } from '../privacy/sanitiser.ts';
import type { FacialSignal, SessionSignals } from '../../lib/analysis/signals.ts';

/**
 * A session's signals as an agent may read them: frames without a face and voice segments still
 * flagged as PII never leave the database (the repositories' queries leave them out).
 */
export async function loadAgentSignals(tx: Tx, sessionId: string, until?: Date): Promise<SessionSignals> {
  const [events, facial, voice, tasks] = await Promise.all([
    agentEvents(tx, sessionId, until),
    loadAgentFrames(tx, sessionId),
    voiceSegmentsForAnalysis(tx, sessionId),
    // Agent 1 (the one reader with a snapshot time) finds its moments in the signals alone; the
    // attempts, whose ends may lie past the snapshot, are for Agent 2 after the session.
    until ? Promise.resolve([]) : agentTasks(tx, sessionId, MIN_MEDIAN_ATTEMPTS),
  ]);
  return {
    events: events.map((row) => ({
      type: row.event_type,
      target: row.target_selector,
      at: row.occurred_at,
      scrollY: row.scroll_y,
      inputLength: row.input_length,
    })),
    facial,
    voice: voice.map((row) => ({
      startedAt: row.started_at,
      endedAt: row.ended_at,
      transcript: row.transcript,
      sentiment: row.sentiment,
      sentimentScore: row.sentiment_score,
      hesitations: row.hesitation_count ?? 0,
      containsPii: row.contains_pii,
      sanitised: row.sanitised,
    })),
    tasks: tasks.map((row) => ({
      taskId: row.task_id,
      order: row.position,
      title: row.title,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      outcome: row.outcome,
      activeMs: row.active_ms,
      ease: row.ease,
      reason: row.reason === null ? null : redactPii(row.reason).text,
      studyMedianMs: row.study_median_ms === null ? null : Number(row.study_median_ms),
    })),
  };
}

export async function loadAgentFrames(tx: Tx, sessionId: string): Promise<FacialSignal[]> {
  const rows = await facialSnapshotsForAnalysis(tx, sessionId);
  return rows.map((row) => ({
    at: row.captured_at,
    faceDetected: row.face_detected,
    confidences: row.confidences,
    attention: row.attention_score,
  }));
}

/** A study's tester reports and their testers' profiles, as Agent 4 reads them. */
export async function loadStudyReports(
  tx: Tx,
  studyId: string,
): Promise<{ reports: ReportSummary[]; profiles: TesterProfileSummary[] }> {
  const rows = await studyReports(tx, studyId);
  const profiles = await testerProfiles(tx, [...new Set(rows.map((row) => row.tester_id))]);
  return {
    reports: rows.map((row) => {
      const content = row.content as Partial<SessionReportContent>;
      const taskOf = new Map(
        (content.tasks ?? []).flatMap((task) => task.findingIds.map((id) => [id, task.order] as const)),
      );
      return {
        sessionId: row.session_id,
        testerId: row.tester_id,
        variant: row.variant,
        overallScore: Number(row.overall_score),
        findings: (content.findings ?? []).map((f) => ({
          findingId: f.findingId,
          severity: f.severity,
          title: f.title,
          affectedFlow: f.affectedFlow,
          taskOrder: taskOf.get(f.findingId) ?? null,
          wcag: f.wcag ? { criterion: f.wcag.criterion, level: f.wcag.level } : null,
        })),
      };
    }),
    profiles: profiles.map((p) => ({
      testerId: p.user_id,
      devices: p.devices,
      accessNeeds: p.access_needs,
      country: p.country,
      birthYear: p.birth_year,
    })),
  };
}
