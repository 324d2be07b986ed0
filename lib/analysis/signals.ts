import type { EventType, FindingSeverity, Sentiment, TaskOutcome, WcagLevel } from '../domain.ts';

// The stored signals as the analysis reads them: plain values, no database types, so the
// functions below stay pure and testable from literals.

export interface EventSignal {
  readonly type: EventType;
  readonly target: string;
  readonly at: Date;
  readonly scrollY: number | null;
  /** Character count of the field after an input event; raw content is never sent. */
  readonly inputLength?: number | null;
}

export interface FacialSignal {
  readonly at: Date;
  readonly faceDetected: boolean;
  /** Emotion label -> confidence 0-1. */
  readonly confidences: Readonly<Record<string, number>>;
  readonly attention: number;
}

export interface VoiceSignal {
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly transcript: string;
  readonly sentiment: Sentiment;
  readonly sentimentScore: number;
  readonly hesitations: number;
  readonly containsPii: boolean;
  readonly sanitised: boolean;
}

/** One of the session's task attempts, as the analysis reads it. */
export interface TaskSignal {
  /** The study task's id, where the signals were read from the database. */
  readonly taskId?: string;
  readonly order: number;
  readonly title: string;
  readonly startedAt: Date;
  /** Null while in progress. */
  readonly endedAt: Date | null;
  readonly outcome: TaskOutcome | null;
  /** Time on task, pauses left out; null while in progress. */
  readonly activeMs: number | null;
  /** The Single Ease Question's answer (1 very difficult ... 7 very easy). */
  readonly ease: number | null;
  /**
   * The tester's words on giving up, if any, with personal data already replaced by placeholders
   * (the loader redacts them, as it does transcripts: they may go to an AI provider).
   */
  readonly reason?: string | null;
  /** The study's median time on this task over other sessions' completed attempts; null with too few. */
  readonly studyMedianMs: number | null;
}

export interface SessionSignals {
  readonly events: readonly EventSignal[];
  readonly facial: readonly FacialSignal[];
  readonly voice: readonly VoiceSignal[];
  /** The session's task attempts (none for a session recorded before tasks were reported). */
  readonly tasks?: readonly TaskSignal[];
}

/** Barriers seen in the interaction itself. */
export const INTERACTION_KINDS = [
  'error',
  'rage_clicks',
  'dead_clicks',
  'field_struggle',
  'focus_cycling',
  'form_abandonment',
  'input_corrections',
  'navigation_loop',
  'back_tracking',
  'scroll_hunting',
  'long_hesitation',
] as const;
/** Reactions of the tester (face and voice): they corroborate barriers, or stand alone. */
export const REACTION_KINDS = [
  'frustration_peak',
  'confusion_peak',
  'attention_drop',
  'verbal_frustration',
  'hesitation',
] as const;
/** What the tester's task attempts say: a give-up, a time far above the study's, a low ease. */
export const TASK_KINDS = ['task_abandoned', 'slow_task', 'low_ease'] as const;
export type InteractionKind = (typeof INTERACTION_KINDS)[number];
export type ReactionKind = (typeof REACTION_KINDS)[number];
export type TaskKind = (typeof TASK_KINDS)[number];
export type MomentKind = InteractionKind | ReactionKind | TaskKind;
export const MOMENT_KINDS: readonly MomentKind[] = [...INTERACTION_KINDS, ...REACTION_KINDS, ...TASK_KINDS];

/** A candidate barrier moment: where something went wrong, and what says so. */
export interface BarrierMoment {
  readonly kind: MomentKind;
  readonly at: Date;
  /** The element involved, when an event names one. */
  readonly target: string | null;
  readonly severity: FindingSeverity;
  /** What was measured, in words (counts, scores, a quote). */
  readonly evidence: string;
}

export interface WcagReference {
  readonly criterion: string;
  readonly name: string;
  readonly level: WcagLevel;
}

/** Agent 2's output for one barrier: a WCAG-mapped finding with its corroborating signals. */
export interface Finding {
  readonly kind: MomentKind;
  readonly at: Date;
  readonly target: string | null;
  readonly severity: FindingSeverity;
  readonly wcag: WcagReference;
  readonly content: string;
  /** Other moments (facial, voice) within the correlation window. */
  readonly corroboratedBy: readonly MomentKind[];
  /** How many findings share this criterion in the session (a cross-task pattern when above 1). */
  readonly patternCount: number;
  /** The task in progress when it happened (a task's own moment: that task); null between tasks. */
  readonly task: { readonly order: number; readonly title: string } | null;
}

export const SEVERITY_ORDER: readonly FindingSeverity[] = ['low', 'medium', 'high', 'critical'];

/** Higher is more severe. */
export const severityRank = (severity: FindingSeverity): number => SEVERITY_ORDER.indexOf(severity);

/** For sorting: the more severe first. */
export const mostSevereFirst = (a: { severity: FindingSeverity }, b: { severity: FindingSeverity }): number =>
  severityRank(b.severity) - severityRank(a.severity);

export function raiseSeverity(severity: FindingSeverity, steps: number): FindingSeverity {
  const index = Math.min(SEVERITY_ORDER.length - 1, severityRank(severity) + steps);
  return SEVERITY_ORDER[index]!;
}
