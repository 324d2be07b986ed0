import { createHash } from 'node:crypto';
import { buildSessionReport } from '../../lib/analysis/session-report.ts';
import type { Tx } from '../doors.ts';
import { insertAgentJob } from '../repositories/agent-jobs.ts';
import { upsertReport } from '../repositories/reports.ts';
import { confirmedNotes, insertNotes } from '../repositories/session-notes.ts';
import {
  insertSession,
  liveSessionOf,
  queuePayment,
  refreshStudyNotesConfirmed,
} from '../repositories/sessions.ts';
import { findStudyByIdempotencyKey, insertStudy, type StudyRow } from '../repositories/studies.ts';
import { DEMO_SESSIONS, DEMO_STUDY, type DemoSession } from './demo-study-data.ts';

/** Names the analyst of the seeded findings in their agent jobs. */
const SEED_ANALYST = 'seed';

/**
 * The demo study with its confirmed sessions, written through the repositories the API and the
 * activities use. Found again by its idempotency key and each session by its tester, so a second
 * run adds and changes nothing. Seeded sessions are confirmed (their workflow's life is over);
 * new sessions on the study are created through the API, which starts their workflows.
 */
export async function seedDemoStudy(
  tx: Tx,
  organizationId: string,
  createdBy: string,
  testerIds: ReadonlyMap<string, string>,
): Promise<{ studyId: string; sessions: number }> {
  const study =
    (await findStudyByIdempotencyKey(tx, organizationId, DEMO_STUDY.idempotencyKey)) ??
    (await createStudy(tx, organizationId, createdBy));
  for (const session of DEMO_SESSIONS) {
    const testerId = testerIds.get(session.testerEmail);
    if (!testerId) throw new Error(`the demo session's tester ${session.testerEmail} is not seeded`);
    if (await liveSessionOf(tx, study.id, testerId)) continue;
    await seedConfirmedSession(tx, study, testerId, session);
  }
  // Writes only when the flag changes, so a second run leaves the study as it was.
  await refreshStudyNotesConfirmed(tx, study.id);
  return { studyId: study.id, sessions: DEMO_SESSIONS.length };
}

async function createStudy(tx: Tx, organizationId: string, createdBy: string): Promise<StudyRow> {
  const s = DEMO_STUDY;
  const study = await insertStudy(
    tx,
    {
      organization_id: organizationId,
      created_by: createdBy,
      title: s.title,
      description: s.description,
      prototype_url: s.prototypeUrl,
      prototype_type: 'url',
      target_countries: [...s.targetCountries],
      target_devices: [...s.targetDevices],
      target_languages: [...s.targetLanguages],
      tester_count: s.testerCount,
      ab_test_enabled: false,
      compensation_currency: s.compensation.currency,
      compensation_amount: s.compensation.amount,
      compensation_type: 'flat',
      require_think_aloud: true,
      record_screen: false,
      record_facial: true,
      record_voice: true,
      max_duration_minutes: s.maxDurationMinutes,
      tone_profile: s.toneProfile,
      status: 'active',
      estimated_launch_date: s.estimatedLaunchDate,
      idempotency_key: s.idempotencyKey,
      request_hash: createHash('sha256').update(s.idempotencyKey).digest('hex'),
      paid_at: s.paidAt,
      created_at: s.createdAt,
      updated_at: s.paidAt,
    },
    s.tasks.map((task, index) => ({ position: index + 1, title: task.title, description: task.description })),
    [],
  );
  if (!study) throw new Error('the demo study collided with another of the same idempotency key');
  return study;
}

/** A session as the workflow leaves it: findings decided, report built, payment queued. */
async function seedConfirmedSession(tx: Tx, study: StudyRow, testerId: string, demo: DemoSession) {
  const startedAt = new Date(demo.startedAt);
  const completedAt = new Date(demo.completedAt);
  const session = await insertSession(tx, {
    study_id: study.id,
    organization_id: study.organization_id,
    tester_id: testerId,
    status: 'confirmed',
    started_at: startedAt,
    completed_at: completedAt,
    duration_seconds: (completedAt.getTime() - startedAt.getTime()) / 1000,
    analyzed_at: demo.completedAt,
    confirmed_at: demo.confirmedAt,
    notes_confirmed: true,
    notes_confirmed_at: demo.confirmedAt,
    rating: demo.rating,
    rating_comment: demo.ratingComment,
    created_at: demo.startedAt,
    updated_at: demo.confirmedAt,
  });
  const job = (kind: 'agent2' | 'agent3', at: string, result: Record<string, unknown>) =>
    insertAgentJob(tx, {
      kind,
      organization_id: study.organization_id,
      study_id: study.id,
      session_id: session.id,
      status: 'complete',
      provider: SEED_ANALYST,
      estimated_completion_seconds: 0,
      queued_at: at,
      started_at: at,
      completed_at: at,
      duration_ms: 0,
      result,
    });
  const analysis = await job('agent2', demo.completedAt, { findingCount: demo.findings.length });
  await insertNotes(
    tx,
    demo.findings.map((finding) => ({
      session_id: session.id,
      content: finding.content,
      noted_at: finding.notedAt,
      author_kind: 'agent' as const,
      agent_job_id: analysis.id,
      provider: SEED_ANALYST,
      severity: finding.severity,
      wcag_criterion: finding.wcag.criterion,
      wcag_level: finding.wcag.level,
      decision: finding.decision,
      confirmed: finding.decision === 'confirmed',
      annotation: finding.annotation,
      decided_at: demo.confirmedAt,
      created_at: demo.completedAt,
      updated_at: demo.confirmedAt,
    })),
  );
  const content = buildSessionReport(await confirmedNotes(tx, session.id), [], study.tone_profile);
  const reporting = await job('agent3', demo.confirmedAt, { findingCount: content.findings.length });
  await upsertReport(tx, {
    organization_id: study.organization_id,
    study_id: study.id,
    session_id: session.id,
    tester_id: testerId,
    agent_job_id: reporting.id,
    tone_profile: study.tone_profile,
    overall_score: content.overallScore,
    content: { ...content },
    provider: SEED_ANALYST,
    generated_at: demo.confirmedAt,
  });
  await queuePayment(tx, session.id);
}
