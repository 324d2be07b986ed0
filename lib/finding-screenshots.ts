import type { ScreenshotGap } from './domain.ts';

// What a report says of a finding's picture (issue 32, docs/decisions/sessions.md, "A picture of
// each finding"): the words for each reason a finding has none, and the alternative text of one.

/** Why a finding has no picture, in the words the report and the pages use. */
export const SCREENSHOT_GAP_WORDS: Readonly<Record<ScreenshotGap, string>> = {
  recording_erased: "The session's screen recording was erased, and the pictures made from it with it.",
  prototype_blocked:
    'The session has no screen recording of this moment, and the prototype is not at a public address the service may load to reconstruct it.',
  prototype_failed:
    'The session has no screen recording of this moment, and the prototype page could not be loaded to reconstruct it.',
  no_browser: 'No browser was available to make the picture.',
};

/** A finding without a row yet: no picture asked for, or the audit worker has not reached it. */
export const SCREENSHOT_PENDING_WORDS =
  'The picture of this moment has not been made yet: asking for the report with includeScreenshots (POST /api/reports) makes it, in the background.';

export interface AltTextFacts {
  readonly source: 'replay' | 'reconstructed';
  readonly findingTitle: string;
  /** The address pictured (origin and path), when known. */
  readonly pageUrl: string | null;
  /** The finding's moment. */
  readonly moment: Date;
  /** Whether the finding's element was found and outlined. */
  readonly outlined: boolean;
  readonly selector: string | null;
}

/** The picture's text alternative: what it shows, where and when, and what is outlined. */
export function screenshotAltText(facts: AltTextFacts): string {
  const time = facts.moment.toISOString().slice(11, 19);
  const where = facts.pageUrl ? ` of ${facts.pageUrl}` : '';
  const shown =
    facts.source === 'replay'
      ? `The tester's view${where} at ${time} UTC, replayed from the session's screen recording`
      : `The prototype page${where} as it loads now, reconstructed because no screen recording covers ${time} UTC (not the tester's screen)`;
  const element = !facts.selector
    ? 'the finding names no element'
    : facts.outlined
      ? `the element ${facts.selector} is outlined in red`
      : `the element ${facts.selector} is not on the page shown`;
  return `${shown}, for the finding "${facts.findingTitle}"; ${element}.`;
}
