import { taskMoments } from './detectors/tasks.ts';
import {
  mostSevereFirst,
  raiseSeverity,
  REACTION_KINDS,
  type BarrierMoment,
  type Finding,
  type MomentKind,
  type TaskSignal,
} from './signals.ts';
import { taskAt } from './task-attribution.ts';
import { lastEventsBefore, type Timeline } from './timeline.ts';
import { TITLE_FOR, WCAG_FOR } from './wcag.ts';

/** Facial and voice signals this close to an interaction barrier are read as reactions to it. */
export const CORRELATION_WINDOW_MS = 10_000;
/** A criterion met this often in one session is a pattern, not an accident. */
export const PATTERN_THRESHOLD = 3;
/** Evidence quoted per finding; the rest is counted. */
const EVIDENCE_QUOTED = 3;
const AFFECTIVE: ReadonlySet<MomentKind> = new Set(REACTION_KINDS);

/**
 * Agent 2's facts from the signal-analysis core's moments (`analyseSignals`) and the session's task
 * attempts: each interaction barrier becomes a WCAG-mapped finding, raised one severity level per
 * kind of facial or voice reaction around it and of what its task's attempt says (a give-up, a
 * time far above the study's, a low ease: `taskMoments`); reactions and task moments that explain
 * no interaction barrier become findings of their own; a criterion that recurs across the session
 * is raised once more as a cross-task pattern. Each finding carries the task in progress when it
 * happened. Linear in the number of moments and events (tasks are few).
 */
export function findingsOf(
  timeline: Timeline,
  moments: readonly BarrierMoment[],
  tasks: readonly TaskSignal[] = [],
): Finding[] {
  const barriers = moments.filter((moment) => !AFFECTIVE.has(moment.kind));
  const reactions = moments.filter((moment) => AFFECTIVE.has(moment.kind));
  const explained = new Set<BarrierMoment>();
  const spans = tasks.map((task) => ({
    order: task.order,
    startedAt: task.startedAt.getTime(),
    endedAt: task.endedAt?.getTime() ?? null,
  }));
  const titleOf = new Map(tasks.map((task) => [task.order, task.title]));
  const ownMoments = new Map(tasks.map((task) => [task.order, taskMoments([task])]));
  const orderAt = (at: Date) => taskAt(spans, at.getTime());

  // Both lists are in time order, so the correlation window slides forward with two pointers.
  let low = 0;
  const drafts = barriers.map((barrier) => {
    const time = barrier.at.getTime();
    while (low < reactions.length && reactions[low]!.at.getTime() < time - CORRELATION_WINDOW_MS) low += 1;
    const near: BarrierMoment[] = [];
    for (
      let i = low;
      i < reactions.length && reactions[i]!.at.getTime() <= time + CORRELATION_WINDOW_MS;
      i += 1
    ) {
      near.push(reactions[i]!);
      explained.add(reactions[i]!);
    }
    const order = orderAt(barrier.at);
    const ofTask = order === null ? [] : (ownMoments.get(order) ?? []);
    for (const moment of ofTask) explained.add(moment);
    const around = [...near, ...ofTask];
    return {
      moment: barrier,
      order,
      corroboratedBy: [...new Set(around.map((reaction) => reaction.kind))],
      evidence: around.map((reaction) => reaction.evidence),
    };
  });
  const alone = reactions.filter((reaction) => !explained.has(reaction));
  const targets = lastEventsBefore(
    timeline.events,
    alone.map((reaction) => reaction.at),
  );
  alone.forEach((reaction, i) => {
    drafts.push({
      moment: { ...reaction, target: targets[i]?.target ?? null },
      order: orderAt(reaction.at),
      corroboratedBy: [],
      evidence: [],
    });
  });
  // What a task's attempt says, when no barrier in the task explains it, is one finding: its most
  // severe moment, with the others (a give-up also rated hard) as evidence that raises nothing, as
  // they are one experience told twice. It belongs to its task, though its moment, the attempt's
  // end, is outside the span.
  for (const [order, own] of ownMoments) {
    const [first, ...others] = own.filter((moment) => !explained.has(moment)).sort(mostSevereFirst);
    if (!first) continue;
    drafts.push({
      moment: first,
      order,
      corroboratedBy: [],
      evidence: others.map((moment) => moment.evidence),
    });
  }

  const perCriterion = new Map<string, number>();
  for (const draft of drafts) {
    const criterion = WCAG_FOR[draft.moment.kind].criterion;
    perCriterion.set(criterion, (perCriterion.get(criterion) ?? 0) + 1);
  }

  return drafts
    .map(({ moment, order, corroboratedBy, evidence }): Finding => {
      const wcag = WCAG_FOR[moment.kind];
      const patternCount = perCriterion.get(wcag.criterion)!;
      const steps = Math.min(2, corroboratedBy.length) + (patternCount >= PATTERN_THRESHOLD ? 1 : 0);
      const severity = raiseSeverity(moment.severity, steps);
      const quoted = evidence.slice(0, EVIDENCE_QUOTED);
      const more = evidence.length - quoted.length;
      const parts = [
        `${TITLE_FOR[moment.kind]}: ${moment.evidence}.`,
        ...(quoted.length ? [`Around it, ${quoted.join('; ')}${more ? ` and ${more} more` : ''}.`] : []),
        ...(patternCount >= PATTERN_THRESHOLD ? [patternSentence(wcag.criterion, patternCount)] : []),
        `Likely WCAG ${wcag.criterion} ${wcag.name} (Level ${wcag.level}); severity ${severity}.`,
      ];
      return {
        kind: moment.kind,
        at: moment.at,
        target: moment.target,
        severity,
        wcag,
        content: parts.join(' '),
        corroboratedBy,
        patternCount,
        task: order === null ? null : { order, title: titleOf.get(order) ?? `Task ${order}` },
      };
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * The sentence a finding of a recurring criterion carries, whoever words the rest: the recurrence
 * is a fact of the analysis core and raised the finding's severity.
 */
export function patternSentence(criterion: string, occurrences: number): string {
  return `WCAG ${criterion} came up ${occurrences} times in this session.`;
}
