import type { AuditCategory, Severity } from '../../lib/audits.ts';

export interface RuleInfo {
  readonly category: AuditCategory;
  readonly severity: Severity;
  /**
   * The WCAG criteria the found condition fails; empty for advice (best practice) that fails no
   * criterion by itself. A finding may narrow them (RawFinding.wcag). Why each: docs/audits.md.
   */
  readonly wcag: readonly string[];
  /** What to do about it, for the report's remediation list. */
  readonly fix: string;
  /**
   * The axe rule this check fills the gaps of: a finding on an element that rule reported already
   * is dropped, so one defect is one issue (page-audit.ts, withoutComplemented).
   */
  readonly complements?: string;
  /**
   * The complemented rule reports the container of the defect (aria-hidden-focus names the hidden
   * element): a finding inside an element it reported is the same defect.
   */
  readonly within?: boolean;
}

/** The project's own checks: what axe-core does not do (see docs/audits.md). */
export const OWN_RULES = {
  // Replaces axe's "no name" finding where CSS-generated text gives the name (generated-names.ts);
  // the audit files it under the replaced rule's category.
  'name-from-css': {
    category: 'aria',
    severity: 'moderate',
    wcag: ['1.3.1'],
    fix: 'Put the text in the HTML (or an aria-label): text inserted with CSS content is lost when styles are off or replaced (F87).',
  },
  // Under axe's avoid-inline-spacing's category: the tight line heights that rule misses.
  'line-height-important': {
    category: 'aria',
    severity: 'serious',
    wcag: ['1.4.12'],
    complements: 'avoid-inline-spacing',
    fix: 'Drop !important from line-height in style attributes, or make it at least 1.5 times the font size, so readers can widen it.',
  },
  'keyboard-trap': {
    category: 'keyboard',
    severity: 'critical',
    wcag: ['2.1.2'],
    fix: 'Let Tab and Shift+Tab move focus out of every widget; never cancel Tab without moving focus onward.',
  },
  'keyboard-unreachable': {
    category: 'keyboard',
    severity: 'serious',
    wcag: ['2.1.1'],
    fix: 'Use native controls (button, a href, input) or give custom widgets tabindex="0" and key handlers.',
  },
  // Not a defect of the page: the walk ran out of Tab presses or time before the end. Listed as a
  // minor issue (the spec's instant result has no room for notes) so the gap is visible.
  'keyboard-walk-incomplete': {
    category: 'keyboard',
    severity: 'minor',
    wcag: [],
    fix: 'Check keyboard access past the point where the walk stopped by hand; long runs of links are quicker to pass by keyboard behind a skip link or a menu.',
  },
  'focus-order': {
    category: 'keyboard',
    severity: 'moderate',
    wcag: ['2.4.3'],
    fix: 'Make the DOM order follow the visual order; remove positive tabindex values and CSS reordering of controls.',
  },
  'skip-link-missing': {
    category: 'keyboard',
    severity: 'moderate',
    wcag: ['2.4.1'],
    fix: 'Add a "Skip to main content" link as the first focusable element, pointing at the main landmark.',
  },
  'skip-link-broken': {
    category: 'keyboard',
    severity: 'serious',
    wcag: ['2.4.1'],
    fix: 'Point the skip link at an element that exists (its id) and is visible.',
  },
  'in-page-link-broken': {
    category: 'keyboard',
    severity: 'moderate',
    wcag: [],
    fix: 'Point every in-page link (href="#...") at an id that exists on the page, or remove the link.',
  },
  'focus-visible': {
    category: 'keyboard',
    severity: 'serious',
    wcag: ['2.4.7'],
    fix: 'Do not remove the focus outline; give :focus-visible a clear outline or border with 3:1 contrast.',
  },
  // What axe's aria-hidden-focus finds in the markup, seen at the Tab walk's stops (so a keyboard
  // check): axe reports the hidden container, this the element focus rests on.
  'aria-hidden-focused': {
    category: 'keyboard',
    severity: 'serious',
    wcag: ['4.1.2'],
    complements: 'aria-hidden-focus',
    within: true,
    fix: 'Take focusable content out of aria-hidden containers (or give it tabindex="-1" or inert); a focus sentinel must pass focus on when it receives it.',
  },
  'focus-obscured': {
    category: 'keyboard',
    severity: 'serious',
    wcag: ['2.4.11'],
    fix: 'Keep focused controls out from under sticky headers, footers and banners: add scroll-padding (or scroll-margin) as tall as the fixed content, or let it get out of the way.',
  },
  // Text axe asks to review (its backdrop is an image or a gradient), judged from the pixels behind it.
  'background-contrast': {
    category: 'contrast',
    severity: 'serious',
    wcag: ['1.4.3'],
    complements: 'color-contrast',
    fix: 'Give text over an image or gradient a solid or semi-opaque backdrop, or a colour that keeps 4.5:1 (3:1 for large text) against every part of the background behind it.',
  },
  'background-contrast-enhanced': {
    category: 'contrast',
    severity: 'minor',
    wcag: ['1.4.6'],
    complements: 'color-contrast-enhanced',
    fix: 'For enhanced contrast, keep text over an image or gradient at 7:1 (4.5:1 for large text) against every part of the background behind it.',
  },
  'non-text-contrast': {
    category: 'contrast',
    severity: 'serious',
    wcag: ['1.4.11'],
    fix: 'Give control borders or backgrounds a contrast of at least 3:1 against their surroundings.',
  },
  // Text in a picture, read by text recognition (image-text.ts). Both criteria: 1.4.9 (AAA) drops
  // 1.4.5's exception for pictures of text a user can customise, which no page check can tell.
  'image-of-text': {
    category: 'images',
    severity: 'moderate',
    wcag: ['1.4.5', '1.4.9'],
    fix: 'Set the text as real text styled with CSS (a web font, colours, a background image behind it) instead of a picture of it; only logos and text whose look is essential may stay pictures.',
  },
  // Compared across the pages of a full audit when its report is made (consistent-help.ts).
  'consistent-help': {
    category: 'aria',
    severity: 'moderate',
    wcag: ['3.2.6'],
    fix: 'Put help (contact details, a contact form or chat, the help pages) in the same place in every page template, in the same order relative to the navigation and the rest of the shared content.',
  },
  'image-alt-filename': {
    category: 'images',
    severity: 'serious',
    wcag: ['1.1.1'],
    fix: 'Replace file names in alt attributes with a short description of what the image shows.',
  },
  'image-alt-redundant-phrase': {
    category: 'images',
    severity: 'minor',
    wcag: [],
    fix: 'Drop "image of" and similar phrases from alternative text.',
  },
  'image-alt-duplicates-text': {
    category: 'images',
    severity: 'minor',
    wcag: [],
    fix: 'Use alt="" for images whose meaning is already given by the adjacent text.',
  },
  'error-message-not-associated': {
    category: 'forms',
    severity: 'serious',
    wcag: [],
    fix: 'Tie each error message to its field with aria-describedby (or aria-errormessage) and set aria-invalid.',
  },
  'invalid-field-without-message': {
    category: 'forms',
    severity: 'serious',
    wcag: ['3.3.1'],
    fix: 'Describe the error in text and tie it to the invalid field with aria-describedby.',
  },
  // WCAG 2.2: pasting a password or a code is what spares the memory test 3.3.8 forbids.
  'credential-paste-blocked': {
    category: 'forms',
    severity: 'serious',
    wcag: ['3.3.8'],
    fix: 'Let people paste into password, user name and code fields: remove the paste handler that cancels it, so password managers and copied codes work.',
  },
  'autocomplete-missing': {
    category: 'forms',
    severity: 'moderate',
    wcag: [],
    fix: 'Add the matching autocomplete token (email, tel, given-name, ...) to fields that collect personal data.',
  },
  'page-has-headings': {
    category: 'headings',
    severity: 'moderate',
    wcag: [],
    fix: 'Structure the content with headings, starting with one h1.',
  },
  'page-has-h1': {
    category: 'headings',
    severity: 'moderate',
    wcag: [],
    fix: 'Give the page one h1 naming its main content.',
  },
  'heading-skipped-level': {
    category: 'headings',
    severity: 'moderate',
    wcag: [],
    fix: 'Nest headings one level at a time (h1, h2, h3); style them with CSS rather than picking levels for size.',
  },
} as const satisfies Record<string, RuleInfo>;

export type OwnRuleId = keyof typeof OWN_RULES;
