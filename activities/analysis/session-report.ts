import type { FindingSeverity, WcagLevel } from '../../db/schema-sessions.ts';
import type { ToneProfile } from '../../db/schema.ts';
import { negativeShare } from './barrier-moments.ts';
import { SEVERITY_ORDER, type FacialSignal } from './signals.ts';

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
}

export interface ReportFinding {
  readonly findingId: string;
  readonly severity: FindingSeverity;
  readonly title: string;
  readonly description: string;
  readonly plainEnglish: string;
  readonly timestamp: string;
  readonly affectedFlow: string;
  readonly wcag: { readonly criterion: string; readonly level: WcagLevel } | null;
}

export interface SessionReportContent {
  readonly overallScore: number;
  readonly findings: ReportFinding[];
  readonly recommendations: string[];
  readonly emotionalProfile: { avgFrustration: number; avgConfusion: number; avgPositive: number };
}

const PENALTY: Readonly<Record<FindingSeverity, number>> = { critical: 25, high: 15, medium: 8, low: 3 };

const RECOMMENDATION_FOR: Readonly<Record<string, string>> = {
  '3.3.1': 'Describe each input error in text next to the field and say how to fix it (WCAG 3.3.1).',
  '4.1.2': 'Give every custom control a role, an accessible name and visible state changes (WCAG 4.1.2).',
  '3.3.2': 'Label form fields visibly and state the expected format before input (WCAG 3.3.2).',
  '2.4.4': 'Make each link say where it leads, so users need not go back and forth (WCAG 2.4.4).',
  '2.4.6': 'Use descriptive headings so users can find content without scanning (WCAG 2.4.6).',
  '2.2.1':
    'Let users extend or turn off time limits and avoid content that demands sustained focus (WCAG 2.2.1).',
  '3.3.5': 'Offer context-sensitive help where users hesitate (WCAG 3.3.5).',
};

// Tone changes framing, never facts (spec, Tone profiles).
const TONE_OPENING: Readonly<Record<ToneProfile, string>> = {
  standard: 'Observed:',
  moderate: 'What happened:',
  supportive: 'Good to know:',
  restorative: 'This was not your fault:',
};

/** Agent 3 on the project's own analysis: the tester's report from confirmed notes only. */
export function buildSessionReport(
  notes: readonly ConfirmedNote[],
  frames: readonly FacialSignal[],
  tone: ToneProfile,
): SessionReportContent {
  const findings = [...notes]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((note): ReportFinding => {
      const severity = note.severity ?? 'low';
      const title = titleOf(note.content);
      return {
        findingId: note.noteId,
        severity,
        title,
        description: note.annotation ? `${note.content} Tester's note: ${note.annotation}` : note.content,
        plainEnglish: `${TONE_OPENING[tone]} ${title.toLowerCase()}${note.target ? ` at ${note.target}` : ''}.`,
        timestamp: note.at.toISOString(),
        affectedFlow: note.target ?? 'whole session',
        wcag:
          note.wcagCriterion && note.wcagLevel
            ? { criterion: note.wcagCriterion, level: note.wcagLevel }
            : null,
      };
    });
  const penalty = findings.reduce((sum, finding) => sum + PENALTY[finding.severity], 0);
  const byWeight = [...findings].sort(
    (a, b) => SEVERITY_ORDER.indexOf(b.severity) - SEVERITY_ORDER.indexOf(a.severity),
  );
  const recommendations = [
    ...new Set(
      byWeight.flatMap((f) => (f.wcag ? [RECOMMENDATION_FOR[f.wcag.criterion]] : [])).filter(Boolean),
    ),
  ] as string[];
  return {
    overallScore: Math.max(0, 100 - penalty),
    findings,
    recommendations,
    emotionalProfile: emotionalProfile(frames.filter((frame) => frame.faceDetected)),
  };
}

function titleOf(content: string): string {
  const colon = content.indexOf(':');
  const head = colon > 0 && colon <= 80 ? content.slice(0, colon) : content.slice(0, 80);
  return head.trim();
}

function emotionalProfile(frames: readonly FacialSignal[]) {
  const mean = (value: (frame: FacialSignal) => number) =>
    frames.length ? round(frames.reduce((sum, frame) => sum + value(frame), 0) / frames.length) : 0;
  return {
    avgFrustration: mean(negativeShare),
    avgConfusion: mean((frame) => frame.confidences.confused ?? frame.confidences.surprise ?? 0),
    avgPositive: mean((frame) => frame.confidences.happy ?? frame.confidences.happiness ?? 0),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
