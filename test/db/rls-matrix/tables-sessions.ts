import { tableCells, type Allowed, type TableCells } from './matrix.ts';
import { ADMIN, ORG_AND_TESTER, OWNER_ORG, TESTER, systemRow } from './tables-core.ts';

/** Signals are recorded by the session's tester while it runs (or by an admin). */
const RECORDER: Allowed = ['testerWith', 'admin'];

export const SESSION_TABLES: readonly TableCells[] = [
  tableCells({
    table: 'sessions',
    rule: 'sessions: seen and moved by their tester and the owning organization, created by the business, removed by admins',
    rows: [
      {
        key: (f) => ({ id: f.liveSession }),
        touch: 'rating',
        select: ORG_AND_TESTER,
        update: ORG_AND_TESTER,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f) =>
        into.values({
          study_id: f.finishedStudy,
          organization_id: f.organizationA,
          tester_id: f.bystander,
        }),
    },
  }),
  tableCells({
    table: 'session_feedback',
    rule: 'session feedback: given once by the session tester, read by the organization, changed by admins only',
    rows: [
      systemRow({
        key: (f) => ({ id: f.feedback }),
        touch: 'comment',
        select: ORG_AND_TESTER,
      }),
    ],
    insert: {
      allowed: RECORDER,
      row: (into, f) =>
        into.values({
          session_id: f.liveSession,
          tester_id: f.actors.testerWith.sub,
          clarity: 3,
          difficulty: 3,
          technical_issues: true,
        }),
    },
  }),
  tableCells({
    table: 'task_attempts',
    rule: 'task attempts: seen with their session, recorded by the session workflow (the system) alone, corrected only by admins',
    rows: [
      systemRow({
        key: (f) => ({ id: f.taskAttempt }),
        touch: 'ease',
        select: ORG_AND_TESTER,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({ session_id: f.confirmedSession, task_id: f.task, started_at: '2030-01-12T08:05:00Z' }),
    },
  }),
  tableCells({
    table: 'finding_screenshots',
    rule: "findings' pictures: seen like the session's recording; made by the system; the tester only blanks a replayed one (recording erased, tested in finding-screenshots.test.ts)",
    rows: [
      {
        label: "a confirmed session's replayed picture",
        key: (f) => ({ id: f.replayedScreenshot }),
        touch: 'alt_text',
        select: ORG_AND_TESTER,
        update: ADMIN,
        delete: ADMIN,
      },
      {
        label: "a live session's blanked picture",
        key: (f) => ({ id: f.erasedScreenshot }),
        touch: 'gap',
        select: TESTER,
        update: ADMIN,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          session_id: f.liveSession,
          note_id: f.humanNote,
          source: 'none',
          gap: 'no_browser',
          moment: '2030-01-12T08:01:20Z',
        }),
    },
  }),
  tableCells({
    table: 'session_recording_chunks',
    rule: "screen recordings: watched by the session's tester, and by the organization only once the findings are confirmed; recorded by the tester while it runs; erased by the tester or admins",
    rows: [
      {
        key: (f) => ({ id: f.recordingChunk }),
        touch: 'event_count',
        select: TESTER,
        update: ADMIN,
        delete: TESTER,
      },
    ],
    insert: {
      allowed: RECORDER,
      row: (into, f) =>
        into.values({
          session_id: f.liveSession,
          seq: 1,
          started_at: '2030-01-12T08:02:00Z',
          ended_at: '2030-01-12T08:02:30Z',
          event_count: 1,
          has_full_snapshot: false,
          data: Buffer.from('[]'),
          byte_length: 2,
        }),
    },
  }),
  tableCells({
    table: 'session_events',
    rule: 'session events: seen with their session, recorded by its tester while it runs, corrected only by admins',
    rows: [systemRow({ key: (f) => ({ id: f.event }), touch: 'x', select: ORG_AND_TESTER })],
    insert: {
      allowed: RECORDER,
      row: (into, f) =>
        into.values({
          session_id: f.liveSession,
          event_type: 'scroll',
          target_selector: 'body',
          occurred_at: '2030-01-12T08:02:00Z',
          scroll_y: 300,
        }),
    },
  }),
  tableCells({
    table: 'facial_snapshots',
    rule: 'facial snapshots: seen with their session, recorded by its tester while it runs, corrected only by admins',
    rows: [
      systemRow({
        key: (f) => ({ id: f.facialSnapshot }),
        touch: 'emotion',
        select: ORG_AND_TESTER,
      }),
    ],
    insert: {
      allowed: RECORDER,
      row: (into, f) =>
        into.values({
          session_id: f.liveSession,
          frame_index: 2,
          captured_at: '2030-01-12T08:02:00Z',
          attention_score: 0.5,
        }),
    },
  }),
  tableCells({
    table: 'voice_segments',
    rule: 'voice segments: seen with their session, recorded by its tester while it runs, corrected only by admins',
    rows: [
      systemRow({
        key: (f) => ({ id: f.voiceSegment }),
        touch: 'transcript',
        select: ORG_AND_TESTER,
      }),
    ],
    insert: {
      allowed: RECORDER,
      row: (into, f) =>
        into.values({
          session_id: f.liveSession,
          segment_index: 2,
          started_at: '2030-01-12T08:02:00Z',
          ended_at: '2030-01-12T08:02:04Z',
          transcript: 'Found it',
          sentiment: 'positive',
          sentiment_score: 0.6,
        }),
    },
  }),
  tableCells({
    table: 'agent_jobs',
    rule: "agent jobs: requested (queued) and read by the organization, read by the session tester, run by the system; Agent 1's live analyses read by the organization only while the session runs, by nobody but admins once it is confirmed",
    rows: [
      systemRow({
        key: (f) => ({ id: f.agentJob }),
        touch: 'options',
        select: ORG_AND_TESTER,
      }),
      systemRow({
        // 0026: Agent 1's insights are the live test's, read by the organization while it runs.
        label: 'Agent 1 on a live session',
        key: (f) => ({ id: f.liveAnalysis }),
        touch: 'options',
        select: ORG_AND_TESTER,
      }),
      systemRow({
        // Once confirmed, what passed the gate is the report; admins still read under RLS.
        label: 'Agent 1 on a confirmed session',
        key: (f) => ({ id: f.confirmedAnalysis }),
        touch: 'options',
        select: ADMIN,
      }),
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f, actor) =>
        into.values({
          kind: 'agent2',
          organization_id: f.organizationA,
          study_id: f.study,
          session_id: f.liveSession,
          requested_by: actor.sub,
        }),
    },
  }),
  tableCells({
    table: 'session_notes',
    rule: 'session notes: no unconfirmed AI finding reaches the organization; the tester decides on every note; humans write under their own name',
    rows: [
      {
        label: 'an unconfirmed agent finding',
        key: (f) => ({ id: f.agentFinding }),
        touch: 'content',
        select: ['testerWith', 'admin'],
        update: ['testerWith', 'admin'],
        delete: ADMIN,
      },
      {
        label: "a note by A's business",
        key: (f) => ({ id: f.humanNote }),
        touch: 'content',
        select: ORG_AND_TESTER,
        update: ORG_AND_TESTER,
        delete: OWNER_ORG,
      },
    ],
    insert: {
      // The fresh note is a human note under the caller's own id.
      allowed: ORG_AND_TESTER,
      row: (into, f, actor) =>
        into.values({
          session_id: f.liveSession,
          content: 'Focus is lost',
          author_kind: 'human',
          author_id: actor.sub,
        }),
    },
  }),
  tableCells({
    table: 'queued_ai_work',
    rule: 'queued AI work: internal, admins only',
    rows: [systemRow({ key: (f) => ({ id: f.queuedWork }), touch: 'attempts', select: ADMIN })],
    insert: {
      allowed: ADMIN,
      row: (into, f) => into.values({ step: 'agent1', session_id: f.liveSession }),
    },
  }),
];
