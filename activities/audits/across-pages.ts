import { rescoreAuditPage, storedPageIssues, type AuditPageRow } from '../../db/repositories/audits.ts';
import type { Tx } from '../../db/doors.ts';
import { CONSISTENT_HELP, inconsistentHelp, type OutlineItem } from './consistent-help.ts';
import { OWN_RULES } from './own-rules.ts';
import { scoredPage } from './score.ts';

/**
 * The checks that compare a full audit's pages (3.2.6, consistent help), run when its report is
 * made, once every page is in. Their issues are judged afresh from the stored outlines each time,
 * so a retried report step finds what the first attempt found; a page whose issues change is
 * scored again and stored, and the pages are returned as they now stand. An outline that is not a
 * list (a page stored before outlines, or damaged) leaves its page out of the comparison.
 */
export async function judgedAcrossPages(
  tx: Tx,
  pages: readonly AuditPageRow[],
  outlines: ReadonlyMap<number, unknown>,
): Promise<AuditPageRow[]> {
  const found = inconsistentHelp(
    pages.flatMap((page) => {
      const outline = outlines.get(page.position);
      return Array.isArray(outline) && outline.every(isOutlineItem)
        ? [{ position: page.position, url: page.url, outline }]
        : [];
    }),
  );
  const judged: AuditPageRow[] = [];
  for (const page of pages) {
    const stored = storedPageIssues(page);
    const ownPage = stored.issues.filter((issue) => issue.ruleId !== CONSISTENT_HELP);
    const across = found.get(page.position) ?? [];
    if (ownPage.length === stored.issues.length && !across.length) {
      judged.push(page);
      continue;
    }
    const scored = scoredPage([...ownPage, ...across]);
    const { [CONSISTENT_HELP]: _earlier, ...fixes } = stored.fixes ?? {};
    const issues = {
      issues: scored.issues,
      fixes: across.length ? { ...fixes, [CONSISTENT_HELP]: OWN_RULES[CONSISTENT_HELP].fix } : fixes,
    };
    await rescoreAuditPage(tx, page.id, { ...scored, issues });
    judged.push({
      ...page,
      score: scored.score,
      grade: scored.grade,
      issue_counts: scored.issueCounts,
      issues,
    });
  }
  return judged;
}

const isOutlineItem = (item: unknown): item is OutlineItem =>
  typeof item === 'object' && item !== null && typeof (item as { key?: unknown }).key === 'string';
