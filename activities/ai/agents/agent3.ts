import { z } from 'zod';
import type { ReportFormat, ToneProfile } from '../../../lib/domain.ts';
import {
  composeReport,
  localReportWording,
  reportFacts,
  type ReportTaskInput,
  type ConfirmedNote,
  type ReportWording,
  type SessionReportContent,
} from '../../../lib/analysis/session-report.ts';
import type { FacialSignal } from '../../../lib/analysis/signals.ts';
import { knownId, MATERIAL_ITEMS, words, type AgentAnswer, type WordingRunner } from '../agent-runner.ts';

export interface Agent3Input {
  /** Confirmed notes only: the human-in-the-loop gate is the caller's, and the database's, to hold. */
  readonly notes: readonly ConfirmedNote[];
  readonly frames: readonly FacialSignal[];
  readonly tone: ToneProfile;
  readonly format: ReportFormat;
  /** The study's tasks with the session's attempts: the report's section per task. */
  readonly tasks?: readonly ReportTaskInput[];
}

/** The spec's tone profiles, as the model is told them. */
export const TONE_INSTRUCTIONS: Readonly<Record<ToneProfile, string>> = {
  standard: 'Standard: direct, neutral technical language.',
  supportive: 'Supportive: encouraging framing.',
  moderate: 'Moderate: a balance between standard and supportive; general-purpose.',
  restorative:
    'Restorative: trauma-informed language for sensitive user groups; never imply the tester failed.',
};

/**
 * Agent 3: the tester's report. Scores, severities, criteria, times and places come from the
 * confirmed notes; the provider (or the local analyst) writes titles, descriptions, Plain English
 * and recommendations in the study's tone. Tone changes wording, never facts.
 */
export async function agent3Report(
  word: WordingRunner,
  input: Agent3Input,
): Promise<AgentAnswer<SessionReportContent>> {
  const facts = reportFacts(input.notes, input.frames, input.tasks ?? []);
  const local = localReportWording(facts, input.tone, input.format);
  const narrative = input.format === 'narrative';
  const { wording, provider, usedFallback } = await word<ReportWording>({
    agent: 'agent3',
    system: [
      'You are Agent 3 of a usability and accessibility testing service, writing a tester report from confirmed findings.',
      `Tone: ${TONE_INSTRUCTIONS[input.tone]} The tone changes wording and framing, never facts.`,
      `Format: ${narrative ? 'narrative: also write the report as prose in "narrative"' : 'structured'}.`,
      'Do not change severities, criteria, times or scores; refer to findings by findingId and recommendations by criterion.',
    ].join(' '),
    material: {
      tone: input.tone,
      format: input.format,
      overallScore: facts.overallScore,
      findings: facts.findings.slice(0, MATERIAL_ITEMS).map((f) => ({
        findingId: f.findingId,
        severity: f.severity,
        timestamp: f.timestamp,
        affectedFlow: f.affectedFlow,
        wcag: f.wcag,
        note: f.content,
        testerAnnotation: f.annotation,
      })),
      recommendationCriteria: facts.recommendationCriteria,
    },
    schema: z.object({
      findings: z
        .array(
          z.object({
            findingId: knownId(
              facts.findings.map((f) => f.findingId),
              'findingId',
            ),
            title: words(120),
            description: words(4000).describe('technical'),
            plainEnglish: words(2000).describe('for a non-specialist'),
          }),
        )
        .default([]),
      recommendations: z
        .array(z.object({ criterion: knownId(facts.recommendationCriteria, 'criterion'), text: words(1000) }))
        .default([]),
      // Nullable rather than absent: OpenAI's strict schemas require every property.
      narrative: narrative ? words(20_000) : z.string().nullable().optional(),
    }),
    local: () => local,
  });

  // Words the provider left out are the local analyst's; facts are never anyone's but the notes'.
  const given = new Set(wording.findings.map((f) => f.findingId));
  const givenCriteria = new Set(wording.recommendations.map((r) => r.criterion));
  const filled: ReportWording = {
    findings: [...wording.findings, ...local.findings.filter((f) => !given.has(f.findingId))],
    recommendations: [
      ...wording.recommendations,
      ...local.recommendations.filter((r) => !givenCriteria.has(r.criterion)),
    ],
    narrative: wording.narrative ?? local.narrative,
  };
  return { result: composeReport(facts, filled, input.format), provider, usedFallback };
}
