import assert from 'node:assert/strict';
import { judgedAcrossPages } from '../../activities/audits/across-pages.ts';
import { asSystem } from '../../db/doors.ts';
import { listAuditPageOutlines, listAuditPages, storedPageIssues } from '../../db/repositories/audits.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import {
  inconsistentHelp,
  type OutlinedPage,
  type OutlineItem,
} from '../../activities/audits/consistent-help.ts';

// Outlines as the kit reads them: plain items by key, help items with their kind and selector.
const link = (key: string): OutlineItem => ({ key });
const help = (key: string, element: string): OutlineItem => ({
  key,
  help: 'self-help',
  label: key.split('|')[0],
  element,
});
const mailto = (label: string, address: string): OutlineItem => ({
  key: `${label.toLowerCase()}|mailto:${address}`,
  help: 'contact details',
  label,
  element: `a[href="mailto:${address}"]`,
});
const NAV = ['home|/', 'plans|/plans', 'team|/team'].map(link);
const FOOTER = ['privacy|/privacy', 'terms|/terms'].map(link);
const HELP = 'help centre|/help';
const page = (position: number, outline: OutlineItem[]): OutlinedPage => ({
  position,
  url: `https://shop.example/${position}`,
  outline,
});

describe('consistent help across a full audit (WCAG 3.2.6)', () => {
  it('help in the same place relative to the shared links on every page is no issue', () => {
    const pages = [1, 2, 3].map((position) =>
      page(position, [...NAV, help(HELP, 'nav > a:nth-child(4)'), link(`own|/${position}`), ...FOOTER]),
    );
    assert.deepEqual([...inconsistentHelp(pages)], []);
  });

  it('a page where the help moved from the navigation to the footer is reported there, at the help link', () => {
    const moved = page(3, [...NAV, ...FOOTER, help(HELP, 'footer > a:nth-child(3)')]);
    const pages = [
      page(1, [...NAV, help(HELP, '#h1'), ...FOOTER]),
      page(2, [...NAV, help(HELP, '#h2'), ...FOOTER]),
      moved,
    ];
    const found = inconsistentHelp(pages);
    assert.deepEqual([...found.keys()], [3]);
    const [issue] = found.get(3)!;
    assert.equal(issue!.ruleId, 'consistent-help');
    assert.equal(issue!.element, 'footer > a:nth-child(3)');
    assert.deepEqual(issue!.wcagCriteria, ['3.2.6']);
    assert.equal(issue!.category, 'aria');
    assert.equal(issue!.severity, 'moderate');
    assert.match(
      issue!.description,
      /^"help centre" \(a self-help option\) .* of the 5 links and buttons the 3 pages share, it comes after 5 of them here, but after 3 of them on 2 of the 3 pages \(https:\/\/shop\.example\/1\)/,
    );
  });

  it("help met again inside one page's content keeps its place where it also sits in the navigation", () => {
    const pages = [
      page(1, [...NAV, help(HELP, '#h1'), ...FOOTER]),
      page(2, [...NAV, help(HELP, '#h2'), link('pricing|/p'), help(HELP, 'main a'), ...FOOTER]),
    ];
    assert.deepEqual([...inconsistentHelp(pages)], []);
  });

  it('the place most pages agree on wins over the first page: an odd first page is the one reported', () => {
    const pages = [
      page(1, [...NAV, ...FOOTER, help(HELP, '#odd')]),
      page(2, [...NAV, help(HELP, '#h'), ...FOOTER]),
      page(3, [...NAV, help(HELP, '#h'), ...FOOTER]),
    ];
    assert.deepEqual([...inconsistentHelp(pages).keys()], [1]);
  });

  it("a shared link met again in one page's text does not move the help", () => {
    // Page 3's form links to the terms too: "terms" is no longer a landmark to read the help against.
    const pages = [
      page(1, [...NAV, help(HELP, '#h'), ...FOOTER]),
      page(2, [...NAV, help(HELP, '#h'), ...FOOTER]),
      page(3, [link('terms|/terms'), ...NAV, help(HELP, '#h'), ...FOOTER]),
    ];
    assert.deepEqual([...inconsistentHelp(pages)], []);
  });

  it('help on fewer than half of the pages is content, not the template, and is not judged', () => {
    const mail = mailto('jane', 'jane@shop.example');
    const pages = [
      page(1, [...NAV, mail, ...FOOTER]),
      page(2, [...NAV, ...FOOTER, mail]),
      ...[3, 4, 5].map((position) => page(position, [...NAV, ...FOOTER])),
    ];
    assert.deepEqual([...inconsistentHelp(pages)], []);
  });

  it('between two pages that disagree, the later one is reported', () => {
    const pages = [page(1, [help(HELP, '#first'), ...NAV]), page(2, [...NAV, help(HELP, '#last')])];
    assert.deepEqual([...inconsistentHelp(pages).keys()], [2]);
  });

  it('each kind is compared by itself: contact details that moved are reported apart from help that did not', () => {
    const mail = mailto('Write to us', 'hi@shop.example');
    const pages = [
      page(1, [mail, ...NAV, help(HELP, '#h'), ...FOOTER]),
      page(2, [mail, ...NAV, help(HELP, '#h'), ...FOOTER]),
      page(3, [...NAV, help(HELP, '#h'), ...FOOTER, mail]),
    ];
    const found = inconsistentHelp(pages);
    assert.deepEqual([...found.keys()], [3]);
    assert.equal(found.get(3)!.length, 1);
    assert.match(found.get(3)![0]!.description, /^"Write to us" \(contact details\)/);
  });

  it('help on one page only, or pages that share nothing else, give nothing to compare', () => {
    assert.deepEqual([...inconsistentHelp([page(1, [...NAV, help(HELP, '#h')]), page(2, NAV)])], []);
    assert.deepEqual(
      [
        ...inconsistentHelp([
          page(1, [link('a|/a'), help(HELP, '#h')]),
          page(2, [help(HELP, '#h'), link('b|/b')]),
        ]),
      ],
      [],
    );
  });

  it('judged again (a retried report step), the stored pages stand as after the first time: the issue once, scored once', async () => {
    const business = await createBusiness('pro');
    const db = testDatabase();
    const jobId = await asSystem(db, async (tx) => {
      const job = await tx
        .insertInto('audit_jobs')
        .values({
          organization_id: business.organizationId,
          requested_by: business.userId,
          url: 'https://shop.example/1',
          crawl: true,
          max_pages: 4,
          viewport_width: 1280,
          viewport_height: 800,
          recipients: ['owner@example.com'],
          status: 'running',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The fourth page was stored without an outline: left out of the comparison, untouched.
      const outlines = [
        [...NAV, help(HELP, '#h'), ...FOOTER],
        [...NAV, help(HELP, '#h'), ...FOOTER],
        [...NAV, ...FOOTER, help(HELP, 'footer a')],
        null,
      ];
      await tx
        .insertInto('audit_pages')
        .values(
          outlines.map((outline, index) => ({
            audit_job_id: job.id,
            position: index + 1,
            url: `https://shop.example/${index + 1}`,
            score: 100,
            grade: 'A' as const,
            issue_counts: JSON.stringify({ critical: 0, serious: 0, moderate: 0, minor: 0 }),
            issues: JSON.stringify({ issues: [], fixes: {} }),
            outline: outline && JSON.stringify(outline),
          })),
        )
        .execute();
      return job.id;
    });
    const judge = () =>
      asSystem(db, async (tx) =>
        judgedAcrossPages(tx, await listAuditPages(tx, jobId), await listAuditPageOutlines(tx, jobId)),
      );
    const first = await judge();
    await judge();
    const stored = await asSystem(db, (tx) => listAuditPages(tx, jobId));
    assert.deepEqual(
      stored.map((row) => [row.score, row.issue_counts, storedPageIssues(row).issues.length]),
      first.map((row) => [row.score, row.issue_counts, storedPageIssues(row).issues.length]),
    );
    assert.deepEqual(
      stored.map((row) => storedPageIssues(row).issues.map((issue) => issue.ruleId)),
      [[], [], ['consistent-help'], []],
    );
    assert.ok(stored[2]!.score < 100, 'the issue is scored on its page');
    assert.equal((stored[2]!.issue_counts as { moderate: number }).moderate, 1);
    assert.match(
      storedPageIssues(stored[2]!).fixes!['consistent-help']!,
      /same place in every page template/,
    );
  });
});
