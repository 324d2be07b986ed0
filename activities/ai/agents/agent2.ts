import { z } from 'zod';
import type { FindingSeverity } from '../../../lib/domain.ts';
import { findingsOf, PATTERN_THRESHOLD, patternSentence } from '../../../lib/analysis/findings.ts';
import { crossTaskPatterns } from '../../../lib/analysis/patterns.ts';
import { taskName } from '../../../lib/analysis/task-name.ts';
import { analyseSignals } from '../../../lib/analysis/signal-analysis.ts';
import {
  mostSevereFirst,
  SEVERITY_ORDER,
  severityRank,
  type MomentKind,
  type SessionSignals,
  type WcagReference,
} from '../../../lib/analysis/signals.ts';
import { TITLE_FOR } from '../../../lib/analysis/wcag.ts';
import { knownId, MATERIAL_ITEMS, words, type AgentAnswer, type WordingRunner } from '../agent-runner.ts';

export interface Agent2Input {
  readonly signals: SessionSignals;
}

/** One finding, ready to be stored as an unconfirmed session note. */
export interface Agent2Finding {
  readonly findingId: string;
  readonly kind: MomentKind;
  readonly timestamp: string;
  readonly target: string | null;
  readonly severity: FindingSeverity;
  /** Code, name and level from the WCAG 2.2 catalog. */
  readonly wcag: WcagReference;
  readonly title: string;
  readonly description: string;
  /** The note's text: the words, then the facts (criterion, level, severity) always. */
  readonly content: string;
  readonly corroboratedBy: readonly MomentKind[];
  /** The cross-task pattern the finding belongs to, if any. */
  readonly patternId: string | null;
  /** The task in progress when it happened; null between tasks or without task attempts. */
  readonly task: { readonly order: number; readonly title: string } | null;
}

export interface Agent2Pattern {
  readonly patternId: string;
  readonly wcag: WcagReference;
  readonly findingIds: readonly string[];
  readonly occurrences: number;
  /** The tasks' titles (or, in a session without task attempts, the pages) it came up in. */
  readonly places: readonly string[];
  readonly placeKind: 'task' | 'page';
  /** The most severe of its findings. */
  readonly severity: FindingSeverity;
  /** When its first finding happened. */
  readonly timestamp: string;
  /** The words, then the core's sentence of how often and where (always, whoever worded it). */
  readonly description: string;
}

export interface Agent2Result {
  readonly findings: Agent2Finding[];
  readonly patterns: Agent2Pattern[];
  readonly summary: string;
  readonly overallFrustrationScore: number;
}

const SYSTEM = [
  'You are Agent 2 of a usability and accessibility testing service, reviewing a finished test.',
  'Each finding was detected in the signals and mapped to a WCAG 2.2 success criterion with a severity, and names the task the tester was doing, if any.',
  'Write a short title and a technical description for each finding, a description of each cross-task pattern, and a summary.',
  'Do not change criteria, severities, times or elements, and refer to findings and patterns only by their ids.',
].join(' ');

/** Agent 2: WCAG-mapped findings, severities and cross-task patterns from the analysis core, worded. */
export async function agent2Findings(
  word: WordingRunner,
  input: Agent2Input,
): Promise<AgentAnswer<Agent2Result>> {
  const analysis = analyseSignals(input.signals);
  const tasks = input.signals.tasks ?? [];
  const found = findingsOf(analysis.timeline, analysis.moments, tasks);
  const patterns = crossTaskPatterns(found, analysis.timeline.events, tasks.length > 0).map((pattern) => ({
    ...pattern,
    patternId: `pattern-${pattern.wcag.criterion}`,
    findingIds: pattern.findings.map((index) => `finding-${index + 1}`),
  }));
  const patternOf = new Map(patterns.flatMap((p) => p.findingIds.map((id) => [id, p.patternId] as const)));
  const facts = found.map((finding, index) => ({ ...finding, findingId: `finding-${index + 1}` }));
  const shown = [...facts].sort(mostSevereFirst).slice(0, MATERIAL_ITEMS);

  const localPattern = (p: (typeof patterns)[number]) => {
    const where = p.places.length
      ? ` ${p.placeKind === 'task' ? 'in' : 'on'} ${p.places.length} ${p.placeKind}${p.places.length === 1 ? '' : 's'} (${p.places.slice(0, 3).join(', ')})`
      : '';
    const between = !p.betweenTasks
      ? ''
      : p.places.length
        ? `, ${p.betweenTasks} of them between tasks`
        : ' between tasks';
    return `WCAG ${p.wcag.criterion} ${p.wcag.name} came up ${p.occurrences} times${where}${between}.`;
  };
  const { wording, provider, usedFallback } = await word({
    agent: 'agent2',
    system: SYSTEM,
    material: {
      overallFrustrationScore: analysis.overallFrustrationScore,
      findings: shown.map((f) => ({
        findingId: f.findingId,
        type: f.kind,
        timestamp: f.at.toISOString(),
        element: f.target,
        task: f.task ? taskName(f.task) : null,
        severity: f.severity,
        wcag: f.wcag,
        evidence: f.content,
      })),
      patterns: patterns.map((p) => ({
        patternId: p.patternId,
        wcag: p.wcag,
        findingIds: p.findingIds.slice(0, MATERIAL_ITEMS),
        [p.placeKind === 'task' ? 'tasks' : 'pages']: p.places.slice(0, 20),
        ...(p.betweenTasks ? { betweenTasks: p.betweenTasks } : {}),
      })),
    },
    schema: z.object({
      summary: words(2000),
      findings: z
        .array(
          z.object({
            findingId: knownId(
              facts.map((f) => f.findingId),
              'findingId',
            ),
            title: words(120),
            description: words(4000),
          }),
        )
        .default([]),
      patterns: z
        .array(
          z.object({
            patternId: knownId(
              patterns.map((p) => p.patternId),
              'patternId',
            ),
            description: words(2000),
          }),
        )
        .default([]),
    }),
    local: () => ({
      summary: localSummary(facts, patterns.length),
      findings: facts.map((f) => ({
        findingId: f.findingId,
        title: TITLE_FOR[f.kind],
        description: f.content,
      })),
      patterns: patterns.map((p) => ({ patternId: p.patternId, description: localPattern(p) })),
    }),
  });

  const worded = new Map(wording.findings.map((w) => [w.findingId, w]));
  const patternWords = new Map(wording.patterns.map((w) => [w.patternId, w.description]));
  return {
    result: {
      findings: facts.map((fact) => {
        const w = worded.get(fact.findingId);
        // The analysis core's own text already states the facts; a provider's gets them appended,
        // the recurrence that raised the severity included.
        const recurrence =
          fact.patternCount >= PATTERN_THRESHOLD
            ? ` ${patternSentence(fact.wcag.criterion, fact.patternCount)}`
            : '';
        const content =
          !w || w.description === fact.content
            ? fact.content
            : `${w.title}: ${w.description}${recurrence} Likely WCAG ${fact.wcag.criterion} ${fact.wcag.name} (Level ${fact.wcag.level}); severity ${fact.severity}.`;
        return {
          findingId: fact.findingId,
          kind: fact.kind,
          timestamp: fact.at.toISOString(),
          target: fact.target,
          severity: fact.severity,
          wcag: fact.wcag,
          title: w?.title ?? TITLE_FOR[fact.kind],
          description: w?.description ?? fact.content,
          content,
          corroboratedBy: fact.corroboratedBy,
          patternId: patternOf.get(fact.findingId) ?? null,
          task: fact.task,
        };
      }),
      patterns: patterns.map((p) => {
        const grouped = p.findings.map((index) => found[index]!);
        const worded = patternWords.get(p.patternId);
        return {
          patternId: p.patternId,
          wcag: p.wcag,
          findingIds: p.findingIds,
          occurrences: p.occurrences,
          places: p.places,
          placeKind: p.placeKind,
          severity: grouped.reduce<FindingSeverity>(
            (most, f) => (severityRank(f.severity) > severityRank(most) ? f.severity : most),
            'low',
          ),
          timestamp: grouped[0]!.at.toISOString(),
          description:
            !worded || worded === localPattern(p) ? localPattern(p) : `${worded} ${localPattern(p)}`,
        };
      }),
      summary: wording.summary,
      overallFrustrationScore: analysis.overallFrustrationScore,
    },
    provider,
    usedFallback,
  };
}

function localSummary(findings: readonly { severity: FindingSeverity }[], patterns: number): string {
  if (!findings.length) return 'No barriers were found in this session.';
  const counts = SEVERITY_ORDER.map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .reverse()
    .map(([s, n]) => `${n} ${s}`);
  return `${findings.length} finding${findings.length === 1 ? '' : 's'} (${counts.join(', ')}); ${patterns} cross-task pattern${
    patterns === 1 ? '' : 's'
  }.`;
}
