import type { Tx } from '../../../db/doors.ts';
import { unique, uniqueNumber } from './unique.ts';

/** What the fixture rows hanging off A's studies and the tester's sessions are built from. */
export interface SessionSideParents {
  readonly organizationA: string;
  readonly businessA: string;
  readonly testerWith: string;
  readonly study: string;
  readonly finishedStudy: string;
  readonly liveSession: string;
  readonly confirmedSession: string;
  /** The task of `study` (the live session's). */
  readonly task: string;
}

export interface SessionSideRows {
  readonly testerProfile: string;
  readonly payoutAccount: string;
  readonly feedback: string;
  readonly event: string;
  readonly taskAttempt: string;
  /** A chunk of the running session's screen recording (its findings are not confirmed). */
  readonly recordingChunk: string;
  readonly facialSnapshot: string;
  readonly voiceSegment: string;
  readonly agentJob: string;
  /** Agent 1's live analyses: one of the live session, one of the confirmed session (0026). */
  readonly liveAnalysis: string;
  readonly confirmedAnalysis: string;
  readonly agentFinding: string;
  readonly humanNote: string;
  /** A picture replayed for a confirmed session's finding, and a live session's blanked one. */
  readonly replayedScreenshot: string;
  readonly erasedScreenshot: string;
  readonly queuedWork: string;
  readonly report: string;
  readonly studyReport: string;
  readonly proposal: string;
  readonly outreachMessage: string;
  /** An approved message of testerWith's sent as an offer (open). */
  readonly sentOffer: string;
  /** An approved message of testerWith's withdrawn before it was sent. */
  readonly unsentOffer: string;
  readonly capacityReview: string;
  readonly payment: string;
  readonly checkoutSession: string;
  readonly badge: string;
  readonly pointEntry: string;
}

const id = (row: { id: string }) => row.id;

export async function createSessionSideRows(tx: Tx, parents: SessionSideParents): Promise<SessionSideRows> {
  const { organizationA, businessA, testerWith, study, finishedStudy, liveSession, confirmedSession, task } =
    parents;
  await tx
    .insertInto('tester_profiles')
    .values({ user_id: testerWith, country: 'DE', birth_year: 1990, devices: ['desktop'], status: 'active' })
    .execute();
  const payoutAccount = await tx
    .insertInto('payout_accounts')
    .values({ tester_id: testerWith, provider_account_id: unique('acct') })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const feedback = await tx
    .insertInto('session_feedback')
    .values({
      session_id: confirmedSession,
      tester_id: testerWith,
      clarity: 4,
      difficulty: 2,
      technical_issues: false,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const taskAttempt = await tx
    .insertInto('task_attempts')
    .values({ session_id: liveSession, task_id: task, started_at: '2030-01-12T08:01:00Z' })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const recordingChunk = await tx
    .insertInto('session_recording_chunks')
    .values({
      session_id: liveSession,
      seq: 0,
      started_at: '2030-01-12T08:01:00Z',
      ended_at: '2030-01-12T08:01:30Z',
      event_count: 1,
      has_full_snapshot: true,
      data: Buffer.from('[]'),
      byte_length: 2,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const event = await tx
    .insertInto('session_events')
    .values({
      session_id: liveSession,
      event_type: 'click',
      target_selector: '#pay',
      occurred_at: '2030-01-12T08:01:00Z',
      x: 10,
      y: 20,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const facialSnapshot = await tx
    .insertInto('facial_snapshots')
    .values({
      session_id: liveSession,
      frame_index: 1,
      captured_at: '2030-01-12T08:01:00Z',
      attention_score: 0.8,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const voiceSegment = await tx
    .insertInto('voice_segments')
    .values({
      session_id: liveSession,
      segment_index: 1,
      started_at: '2030-01-12T08:01:00Z',
      ended_at: '2030-01-12T08:01:05Z',
      transcript: 'Where is the pay button?',
      sentiment: 'negative',
      sentiment_score: -0.4,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const agentJob = await tx
    .insertInto('agent_jobs')
    .values({ kind: 'agent2', organization_id: organizationA, study_id: study, session_id: liveSession })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const analysis = (studyId: string, sessionId: string) =>
    tx
      .insertInto('agent_jobs')
      .values({ kind: 'agent1', organization_id: organizationA, study_id: studyId, session_id: sessionId })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then(id);
  const liveAnalysis = await analysis(study, liveSession);
  const confirmedAnalysis = await analysis(finishedStudy, confirmedSession);
  const note = (values: {
    author_kind: 'agent' | 'human';
    author_id: string | null;
    agent_job_id: string | null;
  }) =>
    tx
      .insertInto('session_notes')
      .values({ session_id: liveSession, content: 'The pay button has no accessible name', ...values })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then(id);
  // The gate: an agent finding the tester has not confirmed yet, and a note a human wrote.
  const agentFinding = await note({ author_kind: 'agent', author_id: null, agent_job_id: agentJob });
  const humanNote = await note({ author_kind: 'human', author_id: businessA, agent_job_id: null });
  const confirmedFinding = await tx
    .insertInto('session_notes')
    .values({
      session_id: confirmedSession,
      content: 'The pay button traps focus',
      author_kind: 'agent',
      agent_job_id: null,
      confirmed: true,
      decision: 'confirmed',
      decided_at: '2030-01-12T08:20:00Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const screenshot = (values: { session_id: string; note_id: string; source: 'replay' | 'none' }) =>
    tx
      .insertInto('finding_screenshots')
      .values({
        ...values,
        moment: '2030-01-12T08:01:10Z',
        ...(values.source === 'none'
          ? { gap: 'recording_erased' as const }
          : { png: Buffer.from('png'), width: 10, height: 10, alt_text: 'A replayed moment' }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then(id);
  const replayedScreenshot = await screenshot({
    session_id: confirmedSession,
    note_id: confirmedFinding,
    source: 'replay',
  });
  const erasedScreenshot = await screenshot({
    session_id: liveSession,
    note_id: agentFinding,
    source: 'none',
  });
  const queuedWork = await tx
    .insertInto('queued_ai_work')
    .values({ step: 'agent2', agent_job_id: agentJob, session_id: liveSession })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const report = await tx
    .insertInto('reports')
    .values({
      organization_id: organizationA,
      study_id: finishedStudy,
      session_id: confirmedSession,
      tester_id: testerWith,
      tone_profile: 'moderate',
      overall_score: '72.50',
      content: { findings: [] },
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const studyReport = await tx
    .insertInto('study_reports')
    .values({
      organization_id: organizationA,
      study_id: finishedStudy,
      session_count: 1,
      content: { topFindings: [] },
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const proposal = await tx
    .insertInto('proposals')
    .values({ organization_id: organizationA, study_id: study, tester_id: testerWith, match_score: '0.9' })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const outreachMessage = await tx
    .insertInto('outreach_messages')
    .values({
      organization_id: organizationA,
      study_id: study,
      tester_id: testerWith,
      proposal_id: proposal,
      recipient_email: 'tester@example.com',
      channel: 'email',
      subject: 'A study for you',
      body: 'Would you test our checkout?',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const sentOffer = await tx
    .insertInto('outreach_messages')
    .values({
      organization_id: organizationA,
      study_id: study,
      tester_id: testerWith,
      recipient_email: 'tester@example.com',
      channel: 'email',
      subject: 'Your offer',
      body: 'Would you test our checkout?',
      status: 'approved',
      approved_at: new Date(),
      scheduled_send_at: new Date(),
      offer_status: 'open',
      sent_at: new Date(),
      offer_expires_at: new Date(Date.now() + 3_600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const unsentOffer = await tx
    .insertInto('outreach_messages')
    .values({
      organization_id: organizationA,
      study_id: study,
      tester_id: testerWith,
      recipient_email: 'tester@example.com',
      channel: 'email',
      subject: 'Never sent',
      body: 'The study stopped recruiting before this went out',
      status: 'approved',
      approved_at: new Date(),
      scheduled_send_at: new Date(),
      offer_status: 'withdrawn',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const capacityReview = await tx
    .insertInto('capacity_reviews')
    .values({
      study_id: study,
      requested_count: 5,
      available_count: 2,
      segment: { country: 'DE', ageRange: null },
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const payment = await tx
    .insertInto('payments')
    .values({
      organization_id: organizationA,
      study_id: finishedStudy,
      session_id: confirmedSession,
      tester_id: testerWith,
      amount: '25.00',
      currency: 'EUR',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  const checkoutSession = unique('cs');
  await tx
    .insertInto('checkout_sessions')
    .values({
      id: checkoutSession,
      provider: 'local',
      organization_id: organizationA,
      study_id: finishedStudy,
      created_by: businessA,
      amount_total: 25_000,
      currency: 'EUR',
      url: 'https://usability.example/api/billing/local-checkout/cs',
      status: 'complete',
      expires_at: '2030-01-02T00:00:00Z',
      completed_at: '2030-01-01T12:00:00Z',
    })
    .execute();
  const badge = await tx
    .insertInto('badges')
    .values({
      code: unique('badge').replaceAll('-', '_'),
      name: 'First steps',
      description: 'A first confirmed session',
      icon_url: 'https://example.com/badge.svg',
      threshold_points: uniqueNumber(),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  await tx
    .insertInto('awarded_badges')
    .values({ tester_id: testerWith, badge_id: badge, session_id: confirmedSession })
    .execute();
  const pointEntry = await tx
    .insertInto('point_ledger')
    .values({ tester_id: testerWith, session_id: confirmedSession, signal: 'session_completed', points: 40 })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(id);
  await tx
    .insertInto('gamification_evaluations')
    .values({ session_id: confirmedSession, tester_id: testerWith, points_awarded: 60, result: '{}' })
    .execute();
  return {
    testerProfile: testerWith,
    payoutAccount,
    feedback,
    event,
    taskAttempt,
    recordingChunk,
    facialSnapshot,
    voiceSegment,
    agentJob,
    liveAnalysis,
    confirmedAnalysis,
    agentFinding,
    humanNote,
    replayedScreenshot,
    erasedScreenshot,
    queuedWork,
    report,
    studyReport,
    proposal,
    outreachMessage,
    sentOffer,
    unsentOffer,
    capacityReview,
    payment,
    checkoutSession,
    badge,
    pointEntry,
  };
}
