import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { BrowserPool } from '../../activities/audits/browser-pool.ts';
import { auditPage } from '../../activities/audits/page-audit.ts';
import { AUDIT_CATEGORIES } from '../../lib/audits.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testConfig } from '../support/config.ts';
import { createAdmin, createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { analyzedSession, businessWithStudy, startSession, waitFor } from '../sessions/fixtures.ts';
import { validStudyBody } from '../support/study-body.ts';
import { seedStudyAudit } from '../support/study-audit.ts';
import { launchChromium, siteOf } from './keyboard.ts';
import { PageClient } from './page-client.ts';
import { SHORT_QUIZ } from './short-quiz.ts';
import { reportedStudy, studyWithProposals } from './study-fixtures.ts';

interface AuditedPage {
  readonly name: string;
  readonly path: string;
  /** The session JWT of whoever looks at it; none for the sign-in pages. */
  readonly as?: string;
}

/** Every violation plain axe-core (all its rules, best practices included) reports on the page as it stands. */
export async function axeViolations(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(
    `window.__auditKit.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
  );
}

/** A page's HTML as a signed-in tester gets it. */
async function pageOf(api: TestApi, path: string, testerId: string): Promise<string> {
  const client = new PageClient(api.url);
  client.useSession(await sessionToken({ sub: testerId, role: 'tester', organization_id: null }));
  return (await client.get(path)).html;
}

describe('every page passes the instant audit with grade A and axe-core without a violation', function () {
  this.timeout(300_000);
  let api: TestApi;
  let pool: BrowserPool;
  const pages: AuditedPage[] = [];

  before(async () => {
    // 127.0.0.1:9: a webhook endpoint the organization may register (never sent to here).
    api = await startTestApi({ env: { TRUST_PROXY: '1', AUDIT_ALLOWED_HOSTS: '127.0.0.1:9' } });
    pool = new BrowserPool({
      executablePath: testConfig().audits.chromiumPath,
      size: 1,
      egress: { allowPrivate: false, allowedHosts: [new URL(api.url).host] },
    });
    const { business, jobId } = await businessWithStudy(api);
    const analyzed = await analyzedSession(api, business, jobId);
    const running = await startSession(api, business, jobId);
    const emptyBusiness = await sessionToken((await createBusiness()).claims);
    // A tester joining: profile filled in, a quiz to take.
    const registered = await api.request('POST', '/api/auth/register', {
      body: {
        email: `audit-joiner-${randomUUID()}@example.com`,
        password: 'a long enough password',
        role: 'tester',
      },
    });
    assert.equal(registered.status, 201, registered.text);
    const joiner = (registered.body.data as { sessionToken: string }).sessionToken;
    const filled = await api.request('PATCH', '/api/testers/me', {
      token: joiner,
      body: { country: 'GB', devices: ['desktop'], languages: ['en'], accessNeeds: ['low_vision'] },
    });
    assert.equal(filled.status, 200, filled.text);
    const admin = await sessionToken(await createAdmin());
    const quiz = await api.request('POST', '/api/admin/quiz', {
      token: admin,
      body: SHORT_QUIZ,
    });
    assert.equal(quiz.status, 201, quiz.text);
    // Mongolia (MN): a study short of testers, so a capacity review waits for an admin.
    const short = await studyWithProposals(api, business, 'MN', 1, 3);
    await waitFor(async () => {
      const reviews = await api.request('GET', `/api/admin/capacity-reviews?jobId=${short.jobId}`, {
        token: admin,
      });
      return (reviews.body.data as unknown[]).length > 0;
    });
    // Peru (PE): a study with a proposal to decide, a drafted message to review, and an offer sent.
    const recruiting = await studyWithProposals(api, business, 'PE', 3);
    const approve = async (proposal: { proposalId: string }) => {
      const approved = await api.request('POST', `/api/outreach/proposals/${proposal.proposalId}/approve`, {
        token: business,
        body: {},
      });
      assert.equal(approved.status, 200, approved.text);
      return (approved.body.data as { outreachId: string }).outreachId;
    };
    await approve(recruiting.proposals[0]!);
    const offered = recruiting.proposals[2]!;
    const offerId = await approve(offered);
    const sent = await api.request('POST', `/api/outreach/${offerId}/approve`, { token: business, body: {} });
    assert.equal(sent.status, 200, sent.text);
    await waitFor(async () => {
      const offers = await pageOf(api, '/offers', offered.testerId);
      return offers.includes(`/offers/${offerId}/answer`);
    });
    // A draft to pay for (never paid here), and the local provider's checkout page for it.
    const draft = await api.request('POST', '/api/jobs', { token: business, body: validStudyBody() });
    assert.equal(draft.status, 201, draft.text);
    const draftId = (draft.body.data as { jobId: string }).jobId;
    const checkout = await api.request('POST', '/api/billing/checkout', {
      token: business,
      body: { jobId: draftId },
    });
    assert.equal(checkout.status, 200, checkout.text);
    // An API token to list (and revoke) on the tokens page.
    const token = await api.request('POST', '/api/auth/tokens', {
      token: business,
      body: { name: 'Audit export', scope: 'read' },
    });
    assert.equal(token.status, 201, token.text);
    // A webhook endpoint to list, and its page (an empty delivery log).
    const endpoint = await api.request('POST', '/api/webhook-endpoints', {
      token: business,
      body: {
        url: 'http://127.0.0.1:9/orders',
        events: ['study.completed', 'payout.paid'],
        description: 'Orders',
      },
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    const endpointId = (endpoint.body.data as { endpointId: string }).endpointId;
    // A study whose one session is confirmed: its tester report and its study report are written.
    const reported = await reportedStudy(api);
    // One finding with the picture of its moment, the others still without (the form to make them).
    await asSystem(testDatabase(), async (tx) => {
      const note = await tx
        .selectFrom('session_notes')
        .select(['id', 'noted_at'])
        .where('session_id', '=', reported.session.sessionId)
        .where('confirmed', '=', true)
        .executeTakeFirstOrThrow();
      const png = await sharp({
        create: { width: 640, height: 400, channels: 3, background: { r: 250, g: 250, b: 250 } },
      })
        .png()
        .toBuffer();
      await tx
        .insertInto('finding_screenshots')
        .values({
          session_id: reported.session.sessionId,
          note_id: note.id,
          source: 'replay',
          png,
          width: 640,
          height: 400,
          alt_text:
            "The tester's view of the checkout at 10:07:12 UTC, replayed from the session's screen recording",
          outlined: false,
          moment: note.noted_at ?? new Date(),
        })
        .execute();
    });
    // The reported study's prototype audited: its page and its report's compare it with the testers.
    await seedStudyAudit(reported.jobId);
    // Two instant audits of one page, the later with an issue: the audits page's result and chart.
    const auditor = await createBusiness('pro');
    const auditIds = await asSystem(testDatabase(), async (tx) => {
      const ids: string[] = [];
      for (const [score, issues] of [
        [100, []],
        [
          92,
          [
            {
              issueId: 'color-contrast-0123456789',
              ruleId: 'color-contrast',
              category: 'contrast',
              severity: 'serious',
              element: '#price',
              description:
                'Element has insufficient color contrast of 2.5 (foreground #999, background #fff)',
              wcagCriteria: ['1.4.3'],
            },
          ],
        ],
      ] as const) {
        const row = await tx
          .insertInto('audits')
          .values({
            organization_id: auditor.organizationId,
            requested_by: auditor.userId,
            url: 'https://shop.example/checkout',
            score,
            grade: 'A',
            result: JSON.stringify({
              issueCounts: { critical: 0, serious: issues.length, moderate: 0, minor: 0 },
              issues,
              finalUrl: 'https://shop.example/checkout',
            }),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(row.id);
      }
      return ids;
    });
    const auditorToken = await sessionToken(auditor.claims);
    const checkoutPath = new URL((checkout.body.data as { checkoutUrl: string }).checkoutUrl).pathname;
    pages.push(
      { name: 'sign in', path: '/login' },
      { name: 'sign in after an OAuth refusal', path: '/login?error=access_denied' },
      { name: 'registration', path: '/register' },
      { name: 'magic link landing', path: '/login/magic-link?token=abc' },
      { name: 'password reset request', path: '/reset-password' },
      { name: 'new password', path: '/reset-password?token=abc' },
      { name: 'not found', path: '/no-such-page' },
      { name: 'tester dashboard', path: '/dashboard', as: analyzed.testerToken },
      { name: 'business dashboard', path: '/dashboard', as: business },
      { name: 'business dashboard without studies', path: '/dashboard', as: emptyBusiness },
      { name: 'create a study', path: '/dashboard/jobs/new', as: business },
      { name: 'API tokens', path: '/dashboard/tokens', as: business },
      { name: 'webhook endpoints', path: '/dashboard/webhooks', as: business },
      { name: 'audits', path: '/dashboard/audits', as: auditorToken },
      {
        name: 'an audit and its score over time',
        path: `/dashboard/audits?audit=${auditIds[1]}`,
        as: auditorToken,
      },
      { name: 'a webhook endpoint', path: `/dashboard/webhooks/${endpointId}`, as: business },
      {
        name: 'review of analysed findings',
        path: `/sessions/${analyzed.sessionId}/review`,
        as: analyzed.testerToken,
      },
      { name: 'tester profile', path: '/profile', as: joiner },
      { name: 'admin dashboard', path: '/dashboard', as: admin },
      { name: 'capacity reviews', path: '/admin/capacity-reviews', as: admin },
      { name: 'pending testers', path: '/admin/testers', as: admin },
      { name: 'active testers', path: '/admin/testers?status=active', as: admin },
      { name: 'quiz editor', path: '/admin/quiz', as: admin },
      { name: 'qualification quiz', path: '/quiz', as: joiner },
      { name: 'offers, none yet', path: '/offers', as: joiner },
      {
        name: 'offers, one open',
        path: '/offers',
        as: await sessionToken({ sub: offered.testerId, role: 'tester', organization_id: null }),
      },
      {
        name: 'study with proposals and a message',
        path: `/dashboard/jobs/${recruiting.jobId}`,
        as: business,
      },
      { name: 'study without recruitment', path: `/dashboard/jobs/${jobId}`, as: business },
      { name: 'draft study to pay for', path: `/dashboard/jobs/${draftId}`, as: business },
      { name: 'local checkout', path: checkoutPath, as: business },
      { name: 'tester report', path: `/reports/${reported.reportId}`, as: reported.session.testerToken },
      { name: 'study with reports', path: `/dashboard/jobs/${reported.jobId}`, as: reported.business },
      { name: 'study report', path: `/dashboard/jobs/${reported.jobId}/report`, as: reported.business },
      { name: 'study report not written yet', path: `/dashboard/jobs/${jobId}/report`, as: business },
      { name: 'session start', path: `/sessions/${running.sessionId}/start`, as: running.testerToken },
      {
        name: 'review of a running session',
        path: `/sessions/${running.sessionId}/review`,
        as: running.testerToken,
      },
    );
  });
  after(async () => {
    await pool?.close();
    await api?.stop();
  });

  it('each page: grade A, no critical or serious issue, no axe violation', async () => {
    const failures: string[] = [];
    for (const [index, { name, path, as }] of pages.entries()) {
      await pool.withPage(
        { viewport: { width: 1280, height: 800 }, timeoutMs: 60_000 },
        async (page, egress) => {
          await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.9.8.${index + 1}` });
          if (as) await page.context().addCookies([{ name: 'session', value: as, url: api.url }]);
          const result = await auditPage(page, api.url + path, {
            categories: AUDIT_CATEGORIES,
            egress,
            navigationTimeoutMs: 20_000,
            walkDeadline: Date.now() + 30_000,
          });
          assert.equal(
            new URL(result.url).pathname,
            path.split('?')[0],
            `${name}: the page itself was audited`,
          );
          const serious = result.issues.filter(
            (issue) => issue.severity === 'critical' || issue.severity === 'serious',
          );
          if (result.grade !== 'A' || serious.length) {
            failures.push(
              `${name}: grade ${result.grade}, ${JSON.stringify(result.issues.map((i) => `${i.ruleId} ${i.severity} ${i.element}`))}`,
            );
          }
          const violations = await axeViolations(page);
          if (violations.length) failures.push(`${name}: axe ${violations.join('; ')}`);
          // The page's frame: one h1, and the landmarks every page has.
          const frame = await page.evaluate<string[]>(`(() => {
            const missing = [];
            if (document.querySelectorAll('h1').length !== 1) missing.push('exactly one h1');
            for (const selector of ['header', 'nav', 'main', 'footer', 'a.skip-link[href="#main"]']) {
              if (!document.querySelector(selector)) missing.push(selector);
            }
            return missing;
          })()`);
          if (frame.length) failures.push(`${name}: without ${frame.join(', ')}`);
        },
      );
    }
    assert.deepEqual(failures, []);
  });

  it('respects reduced motion: no transition on any control when the person asks for less motion', async () => {
    const browser = await launchChromium();
    try {
      const durations = async (reducedMotion: 'reduce' | 'no-preference') => {
        const context = await browser.newContext({ reducedMotion });
        const page = await context.newPage();
        await page.goto(`${siteOf(api.url)}/login`);
        const found = await page.evaluate<string[]>(
          `[...document.querySelectorAll('a, button, input')].map((el) => getComputedStyle(el).transitionDuration)`,
        );
        await context.close();
        return found;
      };
      assert.ok(
        (await durations('no-preference')).some((duration) => duration !== '0s'),
        'the pages do animate when motion is welcome (so the check below can fail)',
      );
      assert.deepEqual(
        [...new Set(await durations('reduce'))],
        ['0s'],
        'no transition under prefers-reduced-motion: reduce',
      );
    } finally {
      await browser.close();
    }
  });
});
