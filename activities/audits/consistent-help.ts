import { OWN_RULES } from './own-rules.ts';
import { toIssue } from './page-audit.ts';
import type { AuditIssue } from '../../lib/audits.ts';

/** One link or button of a page, in document order (the kit's contentOutline). */
export interface OutlineItem {
  /** Its name and where it leads: the same item on another page has the same key. */
  readonly key: string;
  /** For a help mechanism (3.2.6): its kind, its name and its selector. */
  readonly help?: string;
  readonly label?: string;
  readonly element?: string;
}

export interface OutlinedPage {
  readonly position: number;
  readonly url: string;
  readonly outline: readonly OutlineItem[];
}

export const CONSISTENT_HELP = 'consistent-help';

const KIND_TEXT: Readonly<Record<string, string>> = {
  'contact details': 'contact details',
  'automated contact': 'an automated contact mechanism',
  contact: 'a way to contact people',
  'self-help': 'a self-help option',
};

/** Where one help mechanism sits on one page: the shared items before each time it occurs. */
interface Placement {
  readonly page: OutlinedPage;
  readonly element: string;
  readonly label: string;
  readonly kind: string;
  /** The shared items before it, as a sorted list joined: one entry per occurrence. */
  readonly signatures: ReadonlySet<string>;
  readonly before: ReadonlyMap<string, number>;
}

/**
 * WCAG 3.2.6: a help mechanism repeated on several pages of a set must come in the same order
 * relative to the rest of their content. Help counts when it is part of the site's template: the
 * same mechanism (kind, name and address) on at least half of the audited pages, and on two or
 * more (a staff member's address on two profile pages is content, not help placed by the site).
 * Its place on a page is the set of the links and buttons (help aside) that every one of those
 * pages has exactly once which come before it. The place most of the pages agree on (the earliest
 * page's on a tie) is the set's; a page where no occurrence of the mechanism sits there is
 * reported, at the mechanism's first occurrence. Pages without anything shared give nothing to
 * compare and are not judged. Returns the issues found, by page position.
 */
export function inconsistentHelp(pages: readonly OutlinedPage[]): Map<number, AuditIssue[]> {
  const found = new Map<number, AuditIssue[]>();
  const helpKeys = new Set(
    pages.flatMap((page) => page.outline.filter((item) => item.help).map((item) => item.key)),
  );
  for (const key of helpKeys) {
    const holders = pages.filter((page) => page.outline.some((item) => item.key === key));
    if (holders.length < 2 || holders.length * 2 < pages.length) continue;
    const shared = sharedKeys(holders);
    if (!shared.size) continue;
    const placements = holders.map((page) => placementOf(page, key, shared));
    const agreed = mostCommon(placements);
    for (const placement of placements) {
      if (placement.signatures.has(agreed.signature)) continue;
      const issue = issueOf(placement, agreed, shared.size, holders.length);
      found.set(placement.page.position, [...(found.get(placement.page.position) ?? []), issue]);
    }
  }
  return found;
}

/**
 * The items other than help found exactly once on every page that has the mechanism: what its
 * place is read against. Other help is left out, or help that moved would move its neighbour too;
 * an item repeated on a page (a footer link met again in the text) could stand on either side.
 */
function sharedKeys(holders: readonly OutlinedPage[]): Set<string> {
  const [first, ...rest] = holders.map((page) => {
    const counts = new Map<string, number>();
    for (const item of page.outline) if (!item.help) counts.set(item.key, (counts.get(item.key) ?? 0) + 1);
    return counts;
  });
  return new Set(
    [...first!.keys()].filter(
      (key) => first!.get(key) === 1 && rest.every((counts) => counts.get(key) === 1),
    ),
  );
}

function placementOf(page: OutlinedPage, key: string, shared: ReadonlySet<string>): Placement {
  const seen: string[] = [];
  const signatures = new Set<string>();
  const before = new Map<string, number>();
  let first: OutlineItem | undefined;
  for (const item of page.outline) {
    if (item.key === key) {
      first ??= item;
      const signature = [...seen].sort().join('\n');
      signatures.add(signature);
      before.set(signature, seen.length);
    } else if (shared.has(item.key)) {
      // Once each: shared items occur once on every page.
      seen.push(item.key);
    }
  }
  return {
    page,
    element: first!.element ?? 'html',
    label: first!.label ?? key,
    kind: first!.help ?? 'self-help',
    signatures,
    before,
  };
}

/** The place most pages have the mechanism in; on a tie, the earliest audited page's. */
function mostCommon(placements: readonly Placement[]): {
  signature: string;
  count: number;
  pages: Placement[];
} {
  const tally = new Map<string, Placement[]>();
  for (const placement of placements)
    for (const signature of placement.signatures)
      tally.set(signature, [...(tally.get(signature) ?? []), placement]);
  let best: { signature: string; count: number; pages: Placement[] } | undefined;
  for (const [signature, holders] of tally) {
    const earliest = (list: Placement[]) => Math.min(...list.map((p) => p.page.position));
    if (
      !best ||
      holders.length > best.count ||
      (holders.length === best.count && earliest(holders) < earliest(best.pages))
    )
      best = { signature, count: holders.length, pages: holders };
  }
  return best!;
}

function issueOf(
  placement: Placement,
  agreed: { signature: string; pages: Placement[] },
  sharedCount: number,
  holderCount: number,
): AuditIssue {
  const rule = OWN_RULES[CONSISTENT_HELP];
  const here = Math.min(...placement.before.values());
  const there = agreed.pages[0]!.before.get(agreed.signature) ?? 0;
  const where = (count: number) => (count === 0 ? 'before all of them' : `after ${count} of them`);
  const description =
    `"${placement.label}" (${KIND_TEXT[placement.kind] ?? 'help'}) is placed differently from the other pages that have it: ` +
    `of the ${sharedCount} links and buttons the ${holderCount} pages share, it comes ${where(here)} here, ` +
    `but ${where(there)} on ${agreed.pages.length} of the ${holderCount} pages (${agreed.pages[0]!.page.url}); ` +
    'help repeated across pages must keep its place in their order';
  return toIssue(CONSISTENT_HELP, rule.category, rule.severity, placement.element, description, rule.wcag);
}
