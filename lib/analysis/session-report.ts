import type { FindingSeverity, ReportFormat, TaskOutcome, ToneProfile, WcagLevel } from '../domain.ts';
import { duration } from '../duration-text.ts';
import { confusionShare, negativeShare } from './detectors/facial.ts';
import { LOW_EASE_MAX } from './detectors/tasks.ts';
import { RECOMMENDATION_FOR, RECOMMENDATION_FRAME } from './recommendations.ts';
import { mostSevereFirst, type FacialSignal } from './signals.ts';
import { WCAG_CATALOG } from './wcag-catalog.ts';

/** A note that passed the human-in-the-loop gate: the only input a report is built from. */
export interface ConfirmedNote {
  readonly noteId: string;
  readonly content: string;
  readonly annotation: string | null;
  readonly severity: FindingSeverity | null;
  readonly wcagCriterion: string | null;
  readonly wcagLevel: WcagLevel | null;
  readonly at: Date;
  /** The element involved, when Agent 2 recorded one. */
  readonly target: string | null;
  /** A cross-task pattern (Agent 2) rather than one finding: reported as a pattern, never scored. */
  readonly pattern?: boolean;
  /** On a finding: the pattern note that groups it. */
  readonly patternNoteId?: string | null;
  /** The task the tester was doing at its moment, when Agent 2 recorded one. */
  readonly task?: ReportTaskRef | null;
}

/** A study task as a finding names it. */
export interface ReportTaskRef {
  readonly order: number;
  readonly title: string;
}

/** One of the study's tasks with the session's attempt at it, as the report reads it. */
export interface ReportTaskInput extends ReportTaskRef {
  /** Null when the tester never started it. */
  readonly outcome: TaskOutcome | null;
  readonly activeMs: number | null;
  readonly ease: number | null;
}

/** The report's section on one task: how the attempt went, and the findings made in it. */
export interface ReportTask extends ReportTaskRef {
  readonly outcome: TaskOutcome | 'not_attempted';
  readonly timeOnTaskSeconds: number | null;
  readonly ease: number | null;
  readonly findingIds: readonly string[];
}

export interface ReportWcag {
  readonly criterion: string;
  readonly level: WcagLevel;
  readonly name?: string;
}

export interface ReportFinding {
  readonly findingId: string;
  readonly severity: FindingSeverity;
  readonly title: string;
  readonly description: string;
  readonly plainEnglish: string;
  readonly timestamp: string;
  readonly affectedFlow: string;
  readonly wcag: ReportWcag | null;
}

/**
 * A cross-task pattern the tester confirmed: one criterion recurring across the session's tasks,
 * in Agent 2's words with the analysis core's count. Its findings carry their own severities and
 * penalties; the pattern adds none.
 */
export interface ReportPattern {
  readonly patternId: string;
  readonly severity: FindingSeverity;
  readonly wcag: ReportWcag | null;
  readonly description: string;
  /** The report's findings it groups (those the tester confirmed). */
  readonly findingIds: readonly string[];
}

export interface EmotionalProfile {
  readonly avgFrustration: number;
  readonly avgConfusion: number;
  readonly avgPositive: number;
}

export interface SessionReportContent {
  readonly overallScore: number;
  readonly findings: ReportFinding[];
  /** Absent from reports written before patterns were stored. */
  readonly patterns?: ReportPattern[];
  /** A section per study task; absent from reports written before sessions had tasks. */
  readonly tasks?: ReportTask[];
  readonly recommendations: string[];
  readonly emotionalProfile: EmotionalProfile;
  readonly format?: ReportFormat;
  /** The report as prose, when `reportFormat` is narrative. */
  readonly narrative?: string;
}

/** What no wording may change: ids, severities, criteria, times, places, the score. */
export interface ReportFacts {
  readonly findings: readonly (Omit<ReportFinding, 'title' | 'description' | 'plainEnglish'> & {
    readonly content: string;
    readonly annotation: string | null;
    /** The task it happened in, if any (its title is then the `affectedFlow`). */
    readonly task: ReportTaskRef | null;
  })[];
  readonly patterns: readonly ReportPattern[];
  readonly tasks: readonly ReportTask[];
  readonly overallScore: number;
  readonly emotionalProfile: EmotionalProfile;
  /** Criteria to recommend on, the most severe first. */
  readonly recommendationCriteria: readonly string[];
}

/** The words of a report: what a provider (or the local analyst) writes over the facts. */
export interface ReportWording {
  readonly findings: readonly {
    findingId: string;
    title: string;
    description: string;
    plainEnglish: string;
  }[];
  readonly recommendations: readonly { criterion: string; text: string }[];
  readonly narrative?: string | null | undefined;
}

const PENALTY: Readonly<Record<FindingSeverity, number>> = { critical: 25, high: 15, medium: 8, low: 3 };

// Tone changes framing, never facts (spec, Tone profiles).
const TONE_OPENING: Readonly<Record<ToneProfile, string>> = {
  standard: 'Observed:',
  moderate: 'What happened:',
  supportive: 'Good to know:',
  restorative: 'This was not your fault:',
};
const NARRATIVE_OPENING: Readonly<Record<ToneProfile, string>> = {
  standard: 'During the session the following barriers were observed.',
  moderate: 'Here is what happened during the session, in the order it happened.',
  supportive: 'Thank you for working through the session; here is what you helped uncover.',
  restorative:
    'Everything below describes the product, not you: each of these moments is something the design should have made easier.',
};

/**
 * How the tone frames a finding: a supportive report does not greet a barrier that stopped the
 * tester with "Good to know".
 */
export function toneOpening(tone: ToneProfile, severity: FindingSeverity): string {
  if (tone === 'supportive' && (severity === 'high' || severity === 'critical'))
    return 'This got in your way:';
  return TONE_OPENING[tone];
}

/** What the finding's task cost the tester, in plain words (nothing for a task never started). */
export function costOf(task: ReportTask): string {
  const time = task.timeOnTaskSeconds === null ? '' : duration(task.timeOnTaskSeconds * 1000);
  const ease =
    task.ease !== null && task.ease <= LOW_EASE_MAX ? ` You rated it ${task.ease} of 7 for ease.` : '';
  switch (task.outcome) {
    case 'abandoned':
      return ` It kept you from finishing the task${time ? ` after ${time}` : ''}.${ease}`;
    case 'unfinished':
      return ` The session ended before you finished the task.${ease}`;
    case 'completed':
      return time ? ` The task took you ${time}.${ease}` : ease;
    case 'not_attempted':
      return '';
  }
}

/** Agent 3 on the project's own analysis: the tester's report from confirmed notes only. */
export function buildSessionReport(
  notes: readonly ConfirmedNote[],
  frames: readonly FacialSignal[],
  tone: ToneProfile,
  format: ReportFormat = 'structured',
  tasks: readonly ReportTaskInput[] = [],
): SessionReportContent {
  const facts = reportFacts(notes, frames, tasks);
  return composeReport(facts, localReportWording(facts, tone, format), format);
}

export function reportFacts(
  notes: readonly ConfirmedNote[],
  frames: readonly FacialSignal[],
  tasks: readonly ReportTaskInput[] = [],
): ReportFacts {
  const inOrder = [...notes].sort((a, b) => a.at.getTime() - b.at.getTime());
  const findingNotes = inOrder.filter((note) => !note.pattern);
  const patterns = inOrder
    .filter((note) => note.pattern)
    .map((note) => ({
      patternId: note.noteId,
      severity: note.severity ?? ('low' as const),
      wcag: note.wcagCriterion && note.wcagLevel ? wcagOf(note.wcagCriterion, note.wcagLevel) : null,
      description: note.content,
      findingIds: findingNotes.filter((f) => f.patternNoteId === note.noteId).map((f) => f.noteId),
    }));
  const findings = findingNotes.map((note) => ({
    findingId: note.noteId,
    severity: note.severity ?? ('low' as const),
    timestamp: note.at.toISOString(),
    affectedFlow: note.task?.title ?? note.target ?? 'whole session',
    task: note.task ?? null,
    wcag: note.wcagCriterion && note.wcagLevel ? wcagOf(note.wcagCriterion, note.wcagLevel) : null,
    content: note.content,
    annotation: note.annotation,
  }));
  const penalty = findings.reduce((sum, finding) => sum + PENALTY[finding.severity], 0);
  const byWeight = [...findings].sort(mostSevereFirst);
  const recommendationCriteria = [
    ...new Set(
      byWeight.flatMap((f) => (f.wcag && RECOMMENDATION_FOR[f.wcag.criterion] ? [f.wcag.criterion] : [])),
    ),
  ];
  return {
    findings,
    patterns,
    tasks: tasks.map((task) => ({
      order: task.order,
      title: task.title,
      outcome: task.outcome ?? 'not_attempted',
      timeOnTaskSeconds: task.activeMs === null ? null : Math.round(task.activeMs / 100) / 10,
      ease: task.ease,
      findingIds: findings.filter((f) => f.task?.order === task.order).map((f) => f.findingId),
    })),
    overallScore: Math.max(0, 100 - penalty),
    emotionalProfile: emotionalProfile(frames.filter((frame) => frame.faceDetected)),
    recommendationCriteria,
  };
}

/** The local analyst's words: templates, framed by the tone. */
export function localReportWording(
  facts: ReportFacts,
  tone: ToneProfile,
  format: ReportFormat,
): ReportWording {
  const taskOf = new Map(facts.tasks.map((task) => [task.order, task]));
  const findings = facts.findings.map((finding) => {
    const title = titleOf(finding.content);
    const place = finding.task
      ? ` in the task "${finding.task.title}"`
      : finding.affectedFlow === 'whole session'
        ? ''
        : ` at ${finding.affectedFlow}`;
    const task = finding.task ? taskOf.get(finding.task.order) : undefined;
    return {
      findingId: finding.findingId,
      title,
      description: finding.annotation
        ? `${finding.content} Tester's note: ${finding.annotation}`
        : finding.content,
      plainEnglish: `${toneOpening(tone, finding.severity)} ${title.toLowerCase()}${place}.${task ? costOf(task) : ''}`,
    };
  });
  const recommendations = facts.recommendationCriteria.map((criterion) => ({
    criterion,
    text: RECOMMENDATION_FRAME[tone](RECOMMENDATION_FOR[criterion]!),
  }));
  const narrative =
    format === 'narrative'
      ? [
          NARRATIVE_OPENING[tone],
          ...findings.map((f) => f.plainEnglish),
          ...facts.patterns.map((p) => p.description),
        ].join(' ')
      : undefined;
  return { findings, recommendations, narrative };
}

/** Facts and words into the stored report: every fact comes from `facts`, whatever the words say. */
export function composeReport(
  facts: ReportFacts,
  wording: ReportWording,
  format: ReportFormat,
): SessionReportContent {
  const words = new Map(wording.findings.map((w) => [w.findingId, w]));
  const texts = new Map(wording.recommendations.map((r) => [r.criterion, r.text]));
  const findings = facts.findings.map(({ content, annotation: _annotation, task: _task, ...fact }) => {
    const w = words.get(fact.findingId);
    return {
      findingId: fact.findingId,
      severity: fact.severity,
      title: w?.title ?? titleOf(content),
      description: w?.description ?? content,
      plainEnglish: w?.plainEnglish ?? titleOf(content),
      timestamp: fact.timestamp,
      affectedFlow: fact.affectedFlow,
      wcag: fact.wcag,
    };
  });
  const recommendations = facts.recommendationCriteria.map((criterion) => {
    const text = texts.get(criterion) ?? RECOMMENDATION_FOR[criterion]!;
    return text.includes(criterion) ? text : `${text} (WCAG ${criterion})`;
  });
  return {
    overallScore: facts.overallScore,
    findings,
    patterns: [...facts.patterns],
    ...(facts.tasks.length ? { tasks: [...facts.tasks] } : {}),
    recommendations,
    emotionalProfile: facts.emotionalProfile,
    format,
    ...(format === 'narrative' && wording.narrative ? { narrative: wording.narrative } : {}),
  };
}

function wcagOf(criterion: string, level: WcagLevel): ReportWcag {
  const name = WCAG_CATALOG.get(criterion)?.name;
  return name ? { criterion, level, name } : { criterion, level };
}

function titleOf(content: string): string {
  const colon = content.indexOf(':');
  const head = colon > 0 && colon <= 80 ? content.slice(0, colon) : content.slice(0, 80);
  return head.trim();
}

function emotionalProfile(frames: readonly FacialSignal[]): EmotionalProfile {
  const mean = (value: (frame: FacialSignal) => number) =>
    frames.length ? round(frames.reduce((sum, frame) => sum + value(frame), 0) / frames.length) : 0;
  return {
    avgFrustration: mean(negativeShare),
    avgConfusion: mean(confusionShare),
    avgPositive: mean((frame) => frame.confidences.happy ?? frame.confidences.happiness ?? 0),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
