import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../../../scripts/lib/tools.ts';

/** Where the W3C ACT Rules' approved test cases are served from (`/WAI/<path>` is `<dir>/<path>`). */
export function actRulesDir(): string {
  return resolve(process.env.ACT_RULES_DIR ?? join(PROJECT_ROOT, '..', 'shared', 'act'));
}

/** The catalogue's folder under actRulesDir(); its entries' paths are relative to it. */
const CATALOGUE_DIR = 'content-assets/wcag-act-rules';
const CATALOGUE = `${CATALOGUE_DIR}/testcases.json`;
/** Where w3.org serves the cases: an EARL report names each case by this address. */
export const W3C_WAI = 'https://www.w3.org/WAI/';

export type Expected = 'passed' | 'failed' | 'inapplicable';

/** One approved test case, as `testcases.json` lists it. */
export interface ActCase {
  readonly ruleId: string;
  readonly ruleName: string;
  readonly testcaseId: string;
  readonly testcaseTitle: string;
  readonly expected: Expected;
  /**
   * Under actRulesDir(), and under https://www.w3.org/WAI/ on w3.org
   * (`content-assets/wcag-act-rules/testcases/<ruleId>/<testcaseId>.html`).
   */
  readonly relativePath: string;
}

export interface ActRule {
  readonly ruleId: string;
  readonly ruleName: string;
  /**
   * The WCAG criteria the rule requires (`forConformance` and not `secondary`), e.g. ["1.4.3"]: a
   * failed case must be reported under one of them.
   */
  readonly conformance: readonly string[];
  /** The WCAG criteria the rule names as secondary (c487ae's 2.4.9): allowed, never required. */
  readonly secondary: readonly string[];
  /**
   * What a case is judged by: `conformance`, or for a rule that no criterion requires, the
   * criteria the rule names as secondary, or `NO_CRITERION_JUDGED_BY` (docs/decisions/audits.md).
   */
  readonly judgedBy: readonly string[];
  /** Its HTML cases (the SVG and XML ones are not pages a browser audits as a site). */
  readonly cases: readonly ActCase[];
}

/**
 * One approved rule maps to no WCAG criterion at all ("Element marked as decorative is not exposed",
 * 46ca7f): an element with `role="none"` or `alt=""` that is still exposed has a role its markup
 * contradicts, which is what 4.1.2 (Name, Role, Value) asks of it.
 */
export const NO_CRITERION_JUDGED_BY: readonly string[] = ['4.1.2'];

interface CatalogueEntry extends ActCase {
  readonly ruleAccessibilityRequirements?: Record<
    string,
    { forConformance?: boolean; secondary?: unknown }
  > | null;
}

/** `wcag20:1.4.3` -> `1.4.3`; techniques and other requirements -> undefined. */
function criterionOf(key: string): string | undefined {
  return /^wcag2\d?:(\d+\.\d+\.\d+)$/i.exec(key)?.[1];
}

/** The approved rules with their HTML cases, in the catalogue's order. */
export async function loadActRules(dir = actRulesDir()): Promise<ActRule[]> {
  const file = join(dir, CATALOGUE);
  if (!existsSync(file)) {
    throw new Error(
      `no ACT test cases at ${file}: set ACT_RULES_DIR to a copy of w3c/wcag-act-rules' approved cases (content-assets/wcag-act-rules/)`,
    );
  }
  const { testcases } = JSON.parse(await readFile(file, 'utf8')) as { testcases: CatalogueEntry[] };
  const rules = rulesOf(testcases);
  // A case missing would be audited as the server's 404 page, and count as passed.
  const missing = rules.flatMap((rule) => rule.cases).filter((c) => !existsSync(join(dir, c.relativePath)));
  if (missing.length)
    throw new Error(`ACT cases missing under ${dir}: ${missing.map((c) => c.relativePath).join(', ')}`);
  return rules;
}

/**
 * Groups catalogue entries into rules and works out what each rule's cases are judged by; an
 * entry's `relativePath` (relative to the catalogue's folder) becomes relative to actRulesDir().
 */
export function rulesOf(entries: readonly CatalogueEntry[]): ActRule[] {
  const rules = new Map<string, { rule: ActRule; cases: ActCase[] }>();
  for (const entry of entries) {
    let found = rules.get(entry.ruleId);
    if (!found) {
      const requirements = Object.entries(entry.ruleAccessibilityRequirements ?? {});
      const required = ({ forConformance, secondary }: { forConformance?: boolean; secondary?: unknown }) =>
        Boolean(forConformance) && secondary === undefined;
      const criteria = (wanted: boolean) => [
        ...new Set(
          requirements
            .filter(([, requirement]) => required(requirement) === wanted)
            .flatMap(([key]) => criterionOf(key) ?? []),
        ),
      ];
      const conformance = criteria(true);
      const secondary = criteria(false);
      const cases: ActCase[] = [];
      const judgedBy = conformance.length
        ? conformance
        : secondary.length
          ? secondary
          : [...NO_CRITERION_JUDGED_BY];
      found = {
        rule: { ruleId: entry.ruleId, ruleName: entry.ruleName, conformance, secondary, judgedBy, cases },
        cases,
      };
      rules.set(entry.ruleId, found);
    }
    if (/\.html?$/.test(entry.relativePath)) {
      found.cases.push({
        ruleId: entry.ruleId,
        ruleName: entry.ruleName,
        testcaseId: entry.testcaseId,
        testcaseTitle: entry.testcaseTitle,
        expected: entry.expected,
        relativePath: `${CATALOGUE_DIR}/${entry.relativePath}`,
      });
    }
  }
  return [...rules.values()].map(({ rule }) => rule);
}
