import assert from 'node:assert/strict';
import { createBusiness } from '../support/factories.ts';
import type { TestResponse } from '../support/api.ts';
import { sessionToken } from '../support/tokens.ts';
import { acquireAuditHarness, type AuditHarness } from './harness.ts';

export interface Issue {
  issueId: string;
  category: string;
  severity: string;
  element: string;
  description: string;
  wcagCriteria: string[];
}

export interface InstantResult {
  auditId: string;
  url: string;
  score: number;
  grade: string;
  topIssues: Issue[];
  issues: Issue[];
  issueCounts: Record<string, number>;
  wcagVersion: string;
  completedAt: string;
}

export interface InstantClient {
  /** The business user's session token. */
  readonly token: string;
  /** POST /api/audits/instant for a fixture page; asserts 200 and returns the result. */
  audit(page: string, body?: Record<string, unknown>): Promise<InstantResult>;
  /** POST /api/audits/instant with any body, for the failures; in another `format` when named. */
  request(body: Record<string, unknown>, format?: string): Promise<TestResponse>;
}

/** A signed-in business calling the instant audit endpoint of the harness. */
export async function instantClient(harness: AuditHarness): Promise<InstantClient> {
  const token = await sessionToken((await createBusiness('pro')).claims);
  const request = (body: Record<string, unknown>, format?: string) =>
    harness.api.request('POST', `/api/audits/instant${format ? `?format=${format}` : ''}`, { token, body });
  return {
    token,
    request,
    async audit(page, body = {}) {
      const response = await request({ url: `${harness.fixtures.url}/${page}`, ...body });
      assert.equal(response.status, 200, response.text);
      return response.body.data as InstantResult;
    },
  };
}

/** The shared audit harness, acquired (release it with releaseAuditHarness), and a client of its instant audits. */
export async function acquireInstantClient(): Promise<{ harness: AuditHarness; client: InstantClient }> {
  const harness = await acquireAuditHarness();
  return { harness, client: await instantClient(harness) };
}

/** The issue with this WCAG criterion and these fields; fails listing every issue when there is none. */
export function expectIssue(result: InstantResult, match: Partial<Issue> & { criterion: string }): Issue {
  const { criterion, ...fields } = match;
  const found = result.topIssues.find(
    (issue) =>
      issue.wcagCriteria.includes(criterion) &&
      Object.entries(fields).every(([key, value]) => issue[key as keyof Issue] === value),
  );
  assert.ok(found, `expected ${JSON.stringify(match)} among ${JSON.stringify(result.topIssues, null, 1)}`);
  return found;
}

/** The issues under one WCAG criterion. */
export function issuesUnder(result: InstantResult, criterion: string): Issue[] {
  return result.topIssues.filter((issue) => issue.wcagCriteria.includes(criterion));
}

/**
 * The advice (best-practice finding, no WCAG criterion) with these fields: what the audit reports
 * where the page fails no criterion (docs/audits.md, "Criteria of the own checks").
 */
export function expectAdvice(result: InstantResult, fields: Partial<Issue>): Issue {
  const found = result.topIssues.find(
    (issue) =>
      issue.wcagCriteria.length === 0 &&
      Object.entries(fields).every(([key, value]) => issue[key as keyof Issue] === value),
  );
  assert.ok(
    found,
    `expected advice ${JSON.stringify(fields)} among ${JSON.stringify(result.topIssues, null, 1)}`,
  );
  return found;
}
