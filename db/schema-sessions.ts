import type { ColumnType, Generated } from 'kysely';
import type {
  AgentJobStatus,
  AgentKind,
  Device,
  EventType,
  FindingSeverity,
  NoteAuthorKind,
  NoteDecision,
  QueuedAiWorkStatus,
  ScreenshotGap,
  ScreenshotSource,
  Sentiment,
  SessionStatus,
  TaskOutcome,
  WcagLevel,
} from '../lib/domain.ts';
import type {
  Defaulted,
  Identity,
  DefaultedJsonObject,
  GeneratedTimestamp,
  JsonObject,
  Timestamp,
} from './schema.ts';

// Kysely types of db/migrations/0005_sessions.sql and 0006_session_signals.sql; listed in
// `Database` in db/schema.ts.

export interface SessionsTable {
  id: Generated<string>;
  study_id: string;
  organization_id: string;
  tester_id: string;
  variant: string | null;
  status: Defaulted<SessionStatus>;
  test_token_hash: string | null;
  test_token_expires_at: Timestamp | null;
  notes_confirmed: Defaulted<boolean>;
  notes_confirmed_at: Timestamp | null;
  rating: number | null;
  rating_comment: string | null;
  /** The organization's rating of the confirmed session, 1-5, once (0033). */
  business_rating: number | null;
  business_rating_comment: string | null;
  business_rated_at: Timestamp | null;
  business_rated_by: string | null;
  started_at: GeneratedTimestamp;
  completed_at: Timestamp | null;
  duration_seconds: number | null;
  analyzed_at: Timestamp | null;
  confirmed_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  due_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  /** 0026: when the lifecycle reconciler found (or started) the session's workflow. */
  workflow_seen_at: Timestamp | null;
  /** 0035: the device the session ran on, recorded when it is confirmed; null when unknown. */
  device: Device | null;
}

export interface SessionFeedbackTable {
  id: Generated<string>;
  session_id: string;
  tester_id: string;
  clarity: number;
  difficulty: number;
  technical_issues: boolean;
  comment: string | null;
  submitted_at: GeneratedTimestamp;
}

export interface SessionEventsTable {
  id: Identity;
  session_id: string;
  event_type: EventType;
  target_selector: string;
  occurred_at: Timestamp;
  x: number | null;
  y: number | null;
  scroll_y: number | null;
  input_length: number | null;
  viewport_width: number | null;
  viewport_height: number | null;
  received_at: GeneratedTimestamp;
}

export interface FacialSnapshotsTable {
  id: Identity;
  session_id: string;
  frame_index: number;
  captured_at: Timestamp;
  face_detected: Defaulted<boolean>;
  emotion: string | null;
  /** emotion label -> confidence 0-1 */
  confidences: DefaultedJsonObject<Record<string, number>>;
  /** Action Unit -> intensity */
  action_units: DefaultedJsonObject<Record<string, number>>;
  attention_score: number;
  gaze_x: number | null;
  gaze_y: number | null;
  received_at: GeneratedTimestamp;
}

export interface VoiceSegmentsTable {
  id: Identity;
  session_id: string;
  segment_index: number;
  started_at: Timestamp;
  ended_at: Timestamp;
  transcript: string;
  sentiment: Sentiment;
  sentiment_score: number;
  hesitation_count: number | null;
  words_per_minute: number | null;
  contains_pii: Defaulted<boolean>;
  sanitised: Defaulted<boolean>;
  sanitised_at: Timestamp | null;
  processed_at: Timestamp | null;
  received_at: GeneratedTimestamp;
}

export interface AgentJobsTable {
  id: Generated<string>;
  kind: AgentKind;
  organization_id: string;
  study_id: string;
  session_id: string | null;
  status: Defaulted<AgentJobStatus>;
  requested_by: string | null;
  options: DefaultedJsonObject;
  provider: string | null;
  used_fallback: Defaulted<boolean>;
  estimated_completion_seconds: number | null;
  queued_at: GeneratedTimestamp;
  started_at: Timestamp | null;
  completed_at: Timestamp | null;
  duration_ms: number | null;
  result: JsonObject | null;
  error: string | null;
}

export interface SessionNotesTable {
  id: Generated<string>;
  session_id: string;
  content: string;
  noted_at: Timestamp | null;
  author_kind: NoteAuthorKind;
  author_id: string | null;
  agent_job_id: string | null;
  confirmed: Defaulted<boolean>;
  decision: NoteDecision | null;
  annotation: string | null;
  decided_at: Timestamp | null;
  wcag_criterion: string | null;
  wcag_level: WcagLevel | null;
  severity: FindingSeverity | null;
  /** The element an agent finding is about (0017). */
  target_selector: string | null;
  /** Agent notes (0023): who worded them, and whether that was a fallback provider. */
  provider: string | null;
  used_fallback: Defaulted<boolean>;
  /** An agent note that is a cross-task pattern rather than one finding (0023). */
  pattern: Defaulted<boolean>;
  /** On a finding: the pattern note grouping it (0023). */
  pattern_note_id: string | null;
  /** The study task the tester was doing at the note's moment (0039). */
  task_id: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface QueuedAiWorkTable {
  id: Identity;
  step: AgentKind;
  agent_job_id: string | null;
  session_id: string | null;
  voice_segment_id: string | null;
  payload: DefaultedJsonObject;
  status: Defaulted<QueuedAiWorkStatus>;
  attempts: Defaulted<number>;
  last_error: string | null;
  next_attempt_at: GeneratedTimestamp;
  created_at: GeneratedTimestamp;
  completed_at: Timestamp | null;
}

/** An attempt at one of the study's tasks (0037), recorded by the session workflow. */
export interface TaskAttemptsTable {
  id: Generated<string>;
  session_id: string;
  task_id: string;
  variant: string | null;
  started_at: Timestamp;
  ended_at: Timestamp | null;
  outcome: TaskOutcome | null;
  active_ms: number | null;
  ease: number | null;
  reason: string | null;
  /** The page the task's success criteria name, judged when the session completes; null: none. */
  success_page: ColumnType<string | null, string | null | undefined, string | null>;
  /** The attempt's first navigation to that page; null: not reached (or not judged yet). */
  success_reached_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** One chunk of a session's DOM recording (0041): rrweb events, gzip-compressed, as the extension numbered them. */
export interface SessionRecordingChunksTable {
  id: Identity;
  session_id: string;
  seq: number;
  started_at: Timestamp;
  ended_at: Timestamp;
  event_count: number;
  has_full_snapshot: boolean;
  data: Buffer;
  byte_length: number;
  received_at: GeneratedTimestamp;
}

/** A picture of a reported finding's moment (0042): replayed, reconstructed, or none and why. */
export interface FindingScreenshotsTable {
  id: Identity;
  session_id: string;
  note_id: string;
  source: ScreenshotSource;
  png: Buffer | null;
  width: number | null;
  height: number | null;
  alt_text: string | null;
  page_url: string | null;
  outlined: Defaulted<boolean>;
  gap: ScreenshotGap | null;
  moment: Timestamp;
  captured_at: GeneratedTimestamp;
}
