// Which of a session's tasks each signal belongs to, and whether a task's success page was
// reached during its attempt. Pure functions over the attempts' spans: they are applied once the
// session's signals are all in, so the order in which batches and task reports arrived does not
// matter (issue 31, point 3).
import type { TaskOutcome } from '../domain.ts';

/** An attempt's span on the tester's clock, in epoch milliseconds; `endedAt` null while it runs. */
export interface AttemptSpan {
  readonly order: number;
  readonly startedAt: number;
  readonly endedAt: number | null;
}

/**
 * The order of the task in progress at `at`, or null between tasks. A span includes its start and
 * excludes its end, so a signal at the moment one task ends and the next starts goes to the next.
 * Attempts never overlap (one task at a time), so at most one span holds `at`.
 */
export function taskAt(spans: readonly AttemptSpan[], at: number): number | null {
  for (const span of spans) {
    if (at >= span.startedAt && (span.endedAt === null || at < span.endedAt)) return span.order;
  }
  return null;
}

/**
 * The page a task's success criteria name, as the extension records a navigation's target: a path
 * with an optional fragment (`/booking/confirmed`, `/app#/receipt`). A full URL counts by its path
 * and fragment (the prototype may be served elsewhere); a path counts when it stands alone, not
 * inside a word ("and/or"). Null when the criteria name no page.
 */
export function successPageOf(criteria: string | null | undefined): string | null {
  if (!criteria) return null;
  const url = /\bhttps?:\/\/[^\s"'<>()[\]]+/i.exec(criteria);
  if (url) {
    try {
      const parsed = new URL(trimPunctuation(url[0]));
      return normalisePage(parsed.pathname + parsed.hash);
    } catch {
      // Not a URL after all: look for a path.
    }
  }
  const path = /(?:^|[\s"'`(])(\/[\w\-.~%!$&*+,;=:@/]+(?:#[^\s"'`)]*)?)/.exec(criteria);
  return path ? normalisePage(trimPunctuation(path[1]!)) : null;
}

/** A sentence's full stop or comma after a path is not part of it. */
const trimPunctuation = (text: string) => text.replace(/[.,;:!?]+$/, '');

/** Without a trailing slash (but `/`), so `/done/` and `/done` are one page. */
function normalisePage(page: string): string {
  // A route fragment's query (`#/receipt?id=1`) is never recorded, as a page's query is not.
  const [path = '', fragment] = page.replace(/(#[^?]*)\?.*$/, '$1').split('#', 2);
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return fragment ? `${trimmed}#${fragment}` : trimmed;
}

/**
 * Whether a navigation's target is the page: the same path, and the same fragment when the page
 * names one (a page without a fragment is reached whatever anchor the tester landed on).
 */
export function isPage(page: string, target: string): boolean {
  const [pagePath, pageFragment] = normalisePage(page).split('#', 2);
  const [targetPath, targetFragment] = normalisePage(target).split('#', 2);
  return pagePath === targetPath && (pageFragment === undefined || pageFragment === targetFragment);
}

/** A navigation as stored: when, and the page's path with its fragment. */
export interface Navigation {
  readonly at: number;
  readonly target: string;
}

/**
 * The first moment the attempt reached the page (within its span, both ends included), or null.
 * Unlike `taskAt`, the end counts: the confirmation page and the tester's Done often share a
 * moment, and reaching the page then is the task's success.
 */
export function firstArrival(
  page: string,
  span: AttemptSpan,
  navigations: readonly Navigation[],
): number | null {
  for (const navigation of navigations) {
    const within =
      navigation.at >= span.startedAt && (span.endedAt === null || navigation.at <= span.endedAt);
    if (within && isPage(page, navigation.target)) return navigation.at;
  }
  return null;
}

/** Where the tester's own answer and the success page disagree. */
export type OutcomeDispute = 'done_without_reaching' | 'gave_up_after_reaching';

/** The disagreement between what the tester said and whether the success page was reached, if any. */
export function outcomeDispute(outcome: TaskOutcome, reached: boolean | null): OutcomeDispute | null {
  if (reached === null) return null;
  if (outcome === 'completed' && !reached) return 'done_without_reaching';
  if (outcome === 'abandoned' && reached) return 'gave_up_after_reaching';
  return null;
}
