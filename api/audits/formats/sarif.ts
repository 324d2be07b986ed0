// SARIF 2.1.0 (OASIS), the format code-scanning tools and CI dashboards read: one run, the audit's
// checks as the driver's rules, each issue a result located on its page (the artifact) and its
// element (a logical location named by the CSS selector). A page has no lines, so a location has
// no region: the one warning SARIF's validator gives (SARIF2017).

import { WCAG_VERSION, type Severity } from '../../../lib/audits.ts';
import { checkInfo, failedChecks, TOOL, worstSeverity, type FinishedAudit } from './audit-document.ts';

/** SARIF's levels: critical and serious issues fail, moderate warn, minor inform. */
const LEVELS: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = {
  critical: 'error',
  serious: 'error',
  moderate: 'warning',
  minor: 'note',
};

export function sarifDocument(audit: FinishedAudit): object {
  const issues = audit.pages.flatMap((page) => page.issues.map((issue) => ({ issue, page })));
  const checks = failedChecks(issues.map(({ issue }) => issue));
  const ruleIndex = new Map(checks.map(({ ruleId }, index) => [ruleId, index]));
  const fixes = Object.assign({}, ...audit.pages.map((page) => page.fixes)) as Record<string, string>;
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: TOOL.name,
            fullName: TOOL.fullName,
            version: TOOL.version,
            informationUri: TOOL.informationUri,
            rules: checks.map(({ ruleId, issues: found }) => {
              const info = checkInfo(ruleId);
              const criteria = [...new Set(found.flatMap((issue) => issue.wcagCriteria))];
              const fix = fixes[ruleId];
              return {
                id: ruleId,
                shortDescription: { text: info.description ?? found[0]!.description },
                ...(fix ? { help: { text: fix } } : {}),
                ...(info.helpUri ? { helpUri: info.helpUri } : {}),
                defaultConfiguration: { level: LEVELS[worstSeverity(found)] },
                properties: {
                  category: found[0]!.category,
                  tags: ['accessibility', ...criteria.map((criterion) => `WCAG ${criterion}`)],
                },
              };
            }),
          },
        },
        automationDetails: { id: `${audit.kind}-audit/${audit.id}` },
        invocations: [{ executionSuccessful: true, endTimeUtc: audit.completedAt.toISOString() }],
        results: issues.map(({ issue, page }) => ({
          ruleId: issue.ruleId,
          ruleIndex: ruleIndex.get(issue.ruleId)!,
          level: LEVELS[issue.severity],
          message: { text: issue.description },
          locations: [
            {
              // As a URI reference: the address as typed may hold spaces or letters outside ASCII.
              physicalLocation: { artifactLocation: { uri: new URL(page.url).href } },
              logicalLocations: [{ fullyQualifiedName: issue.element, kind: 'element' }],
            },
          ],
          // Stable across runs while the check and the element's selector stay: a dashboard tells
          // a new issue from one it has seen.
          partialFingerprints: { 'issueId/v1': issue.issueId },
          properties: {
            severity: issue.severity,
            category: issue.category,
            wcagCriteria: [...issue.wcagCriteria],
          },
        })),
        // Every audited page, those without issues too (a SARIF artifact that only names a
        // location is redundant, SARIF2004).
        properties: {
          url: audit.url,
          score: audit.score,
          grade: audit.grade,
          wcagVersion: WCAG_VERSION,
          pages: audit.pages.map((page) => page.url),
        },
      },
    ],
  };
}
