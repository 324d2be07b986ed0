import type { MomentKind, WcagReference } from './signals.ts';
import { currentCriterion } from './wcag-catalog.ts';

/**
 * The success criterion each kind of barrier most often points to. A heuristic, as any mapping from
 * behaviour to WCAG is: the tester confirms or rejects each finding before it reaches a report.
 */
export const CRITERION_FOR: Readonly<Record<MomentKind, string>> = {
  error: '3.3.1',
  rage_clicks: '4.1.2',
  // An element that looks operable and is not: its role is conveyed by presentation only.
  dead_clicks: '1.3.1',
  field_struggle: '3.3.2',
  focus_cycling: '2.1.2',
  form_abandonment: '3.3.2',
  input_corrections: '3.3.3',
  navigation_loop: '2.4.4',
  back_tracking: '2.4.4',
  scroll_hunting: '2.4.6',
  long_hesitation: '3.3.2',
  frustration_peak: '3.3.2',
  confusion_peak: '3.3.2',
  attention_drop: '2.2.1',
  verbal_frustration: '3.3.2',
  hesitation: '3.3.5',
  // A task given up, far slower than others or rated hard: most often instructions or labels that
  // did not say what to do, unless a barrier in the same task explains it (then it corroborates).
  task_abandoned: '3.3.2',
  slow_task: '2.4.6',
  low_ease: '3.3.2',
};

/** The reference (code, name, level) from the WCAG 2.2 catalog; a code not in force is a bug. */
export function wcagReference(code: string): WcagReference {
  const criterion = currentCriterion(code);
  if (!criterion) throw new Error(`WCAG ${code} is not a success criterion of WCAG 2.2`);
  return { criterion: criterion.code, name: criterion.name, level: criterion.level };
}

export const WCAG_FOR: Readonly<Record<MomentKind, WcagReference>> = Object.fromEntries(
  Object.entries(CRITERION_FOR).map(([kind, code]) => [kind, wcagReference(code)]),
) as Record<MomentKind, WcagReference>;

/** Plain-English titles for report readers. */
export const TITLE_FOR: Readonly<Record<MomentKind, string>> = {
  error: 'An error interrupted the task',
  rage_clicks: 'A control did not respond as expected',
  dead_clicks: 'Something looked clickable but did nothing',
  field_struggle: 'A form field was hard to complete',
  focus_cycling: 'Keyboard focus went round in circles',
  form_abandonment: 'A form was left unfinished',
  input_corrections: 'An entry had to be corrected again and again',
  navigation_loop: 'Navigation went round in circles',
  back_tracking: 'Pages had to be left straight away',
  scroll_hunting: 'Content was hard to find on the page',
  long_hesitation: 'The tester was stuck with nothing to do',
  frustration_peak: 'Visible frustration',
  confusion_peak: 'Visible confusion',
  attention_drop: 'Attention dropped',
  verbal_frustration: 'The tester voiced frustration',
  hesitation: 'The tester hesitated repeatedly',
  task_abandoned: 'The tester gave up on the task',
  slow_task: 'The task took far longer than for other testers',
  low_ease: 'The tester found the task difficult',
};
