import type { MomentKind, WcagReference } from './signals.ts';

/**
 * The success criterion each kind of barrier most often points to. A heuristic, as any mapping from
 * behaviour to WCAG is: the tester confirms or rejects each finding before it reaches a report.
 */
export const WCAG_FOR: Readonly<Record<MomentKind, WcagReference>> = {
  error: { criterion: '3.3.1', name: 'Error Identification', level: 'A' },
  repeated_clicks: { criterion: '4.1.2', name: 'Name, Role, Value', level: 'A' },
  field_struggle: { criterion: '3.3.2', name: 'Labels or Instructions', level: 'A' },
  navigation_loop: { criterion: '2.4.4', name: 'Link Purpose (In Context)', level: 'A' },
  scroll_hunting: { criterion: '2.4.6', name: 'Headings and Labels', level: 'AA' },
  frustration_peak: { criterion: '3.3.2', name: 'Labels or Instructions', level: 'A' },
  attention_drop: { criterion: '2.2.1', name: 'Timing Adjustable', level: 'A' },
  verbal_frustration: { criterion: '3.3.2', name: 'Labels or Instructions', level: 'A' },
  hesitation: { criterion: '3.3.5', name: 'Help', level: 'AAA' },
};

/** Plain-English titles for report readers. */
export const TITLE_FOR: Readonly<Record<MomentKind, string>> = {
  error: 'An error interrupted the task',
  repeated_clicks: 'A control did not respond as expected',
  field_struggle: 'A form field was hard to complete',
  navigation_loop: 'Navigation went back and forth',
  scroll_hunting: 'Content was hard to find on the page',
  frustration_peak: 'Visible frustration',
  attention_drop: 'Attention dropped',
  verbal_frustration: 'The tester voiced frustration',
  hesitation: 'The tester hesitated repeatedly',
};
