import type { FindingSeverity, ReportFormat, ToneProfile, WcagLevel } from '../domain.ts';
import { confusionShare, negativeShare } from './detectors/facial.ts';
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
  /** The title of the task the tester was doing at its moment, when Agent 2 recorded one. */
  readonly task?: string | null;
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
    /** The task's title, when the finding happened in one (then also its `affectedFlow`). */
    readonly task: string | null;
  })[];
  readonly patterns: readonly ReportPattern[];
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
  readonly narrative?: string | undefined;
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

/** Agent 3 on the project's own analysis: the tester's report from confirmed notes only. */
export function buildSessionReport(
  notes: readonly ConfirmedNote[],
  frames: readonly FacialSignal[],
  tone: ToneProfile,
  format: ReportFormat = 'structured',
): SessionReportContent {
  const facts = reportFacts(notes, frames);
  return composeReport(facts, localReportWording(facts, tone, format), format);
}

export function reportFacts(notes: readonly ConfirmedNote[], frames: readonly FacialSignal[]): ReportFacts {
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
    affectedFlow: note.task ?? note.target ?? 'whole session',
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
  const findings = facts.findings.map((finding) => {
    const title = titleOf(finding.content);
    const place = finding.task
      ? ` in the task "${finding.task}"`
      : finding.affectedFlow === 'whole session'
        ? ''
        : ` at ${finding.affectedFlow}`;
    return {
      findingId: finding.findingId,
      title,
      description: finding.annotation
        ? `${finding.content} Tester's note: ${finding.annotation}`
        : finding.content,
      plainEnglish: `${TONE_OPENING[tone]} ${title.toLowerCase()}${place}.`,
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
