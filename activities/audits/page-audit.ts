import { createHash } from 'node:crypto';
import { errors as playwrightErrors, type Page, type Request, type Route } from 'playwright-core';
import { axeFindings, axeOptions, categoryOf, type AxeFinding } from './axe-check.ts';
import { backgroundContrastFindings } from './background-contrast.ts';
import type { OutlineItem } from './consistent-help.ts';
import { axeViolations, topAxeScript, type TopAxeRun } from './axe-run.ts';
import type { EgressProxy } from './egress-proxy.ts';
import { withoutGeneratedNames } from './generated-names.ts';
import { imageTextFindings } from './image-text.ts';
import { keyboardChecks, type RawFinding, type SkipLink, type WalkPreparation } from './keyboard-check.ts';
import { OWN_RULES, type OwnRuleId, type RuleInfo } from './own-rules.ts';
import { AUDIT_INIT_SCRIPT } from './page-script.ts';
import { scoredPage } from './score.ts';
import {
  FRAME_SEPARATOR,
  atItsLevel,
  type AuditCategory,
  type AuditIssue,
  type PageAuditResult,
} from '../../lib/audits.ts';
import { BlockedUrlError } from '../../lib/url-guard.ts';
import type { AuditCredentials } from '../../lib/audit-credentials.ts';

export interface PageAuditOptions {
  readonly categories: readonly AuditCategory[];
  /** The context's egress proxy, which refused any connection to a blocked address. */
  readonly egress: Pick<EgressProxy, 'wasRefused'>;
  readonly navigationTimeoutMs: number;
  /** When the Tab walk must stop (epoch ms), leaving time to answer. */
  readonly walkDeadline: number;
  /** Headers and cookies the request gave for one origin: sent with that origin's requests only. */
  readonly credentials?: AuditCredentials;
  /** Read the page's links and buttons in order, for the checks across a full audit's pages. */
  readonly outline?: boolean;
}

export interface PageAudit extends PageAuditResult {
  /** How to fix each failed check, by rule id, for the report. */
  readonly fixes: Readonly<Record<string, string>>;
  /** With `outline`: the page's links and buttons in document order (consistent-help.ts). */
  readonly outline?: readonly OutlineItem[];
}

/** What one evaluate call brings back from the loaded page (see the kit's collect()). */
interface Inspection {
  readonly axe: TopAxeRun;
  readonly findings: RawFinding[];
  readonly links: string[];
  readonly walk: WalkPreparation | null;
  readonly skip: SkipLink | null;
}

/** Time kept for the Tab walk when axe runs in the page's frames (which stop early to leave it). */
const WALK_RESERVE_MS = 2000;

/** Loads the page and runs every check of the chosen categories on it. */
export async function auditPage(page: Page, url: string, options: PageAuditOptions): Promise<PageAudit> {
  await loadPage(page, url, options);
  const axe = axeOptions(options.categories);
  const inspection = await inspect(page, axe, options.categories);
  // Before the Tab walk, which may open menus and change what the page holds. Only a comparison
  // across pages needs it: a page that breaks the read is audited without one.
  const outline = options.outline
    ? await page.evaluate<OutlineItem[]>('window.__auditKit.contentOutline()').catch(() => undefined)
    : undefined;
  const issues: AuditIssue[] = [];
  const fixes: Record<string, string> = {};

  // axe ran only the rules of the chosen categories (axeOptions), so every finding is wanted.
  const { violations, namedByCss } = await withoutGeneratedNames(
    page,
    await axeViolations(page, inspection.axe, axe, options.walkDeadline - WALK_RESERVE_MS),
  );
  const found = await withoutOutOfUse(page, await refreshesThatCount(page, axeFindings(violations)));
  for (const finding of found) {
    issues.push(
      toIssue(
        finding.ruleId,
        finding.category,
        finding.severity,
        finding.element,
        finding.description,
        finding.wcag,
      ),
    );
    fixes[finding.ruleId] = finding.fix;
  }
  for (const { selector, ruleId, tags } of namedByCss) {
    const rule = OWN_RULES['name-from-css'];
    issues.push(
      toIssue(
        'name-from-css',
        categoryOf(ruleId, tags),
        rule.severity,
        selector,
        'Its name is text inserted by CSS (::before or ::after): it is lost when styles are turned off or replaced',
        rule.wcag,
      ),
    );
    fixes['name-from-css'] = rule.fix;
  }
  const overImages = options.categories.includes('contrast') ? await backgroundContrastFindings(page) : [];
  const imagesOfText = options.categories.includes('images')
    ? await imageTextFindings(page, options.walkDeadline)
    : [];
  const own = await withoutComplemented(
    page,
    [...inspection.findings, ...overImages, ...imagesOfText],
    issues,
  );
  // Last: the Tab walk moves focus and may open menus that change the DOM the other checks read.
  if (inspection.walk) {
    const walked = await keyboardChecks(page, inspection.walk, inspection.skip, options.walkDeadline);
    own.push(...(await withoutComplemented(page, walked, issues)));
  }
  // Should a navigation of the page's own get past holdDocument to an internal address, the proxy
  // refused it: the audit is refused rather than judging what stands in its place.
  if (options.egress.wasRefused(page.url())) throw new BlockedUrlError(`url: ${REDIRECTED}`);
  for (const finding of own) {
    const rule = OWN_RULES[finding.ruleId as OwnRuleId];
    const wcag = finding.wcag ?? rule.wcag;
    const { severity, description } = atItsLevel(rule.severity, finding.description, wcag);
    issues.push(toIssue(finding.ruleId, rule.category, severity, finding.element, description, wcag));
    fixes[finding.ruleId] = rule.fix;
  }

  return {
    url: page.url(),
    ...scoredPage(dedupe(issues)),
    links: inspection.links,
    fixes,
    ...(outline ? { outline } : {}),
  };
}

const REFRESH_RULES = ['meta-refresh', 'meta-refresh-no-exceptions'];
// HTML's declarative refresh: whitespace, a time (digits, or a fraction), then whitespace, ';', ','
// or the end; anything else ("0: url") and the browser ignores the element.
const FIRST_REFRESH = `Array.from(document.querySelectorAll('meta[http-equiv]')).find((m) => m.httpEquiv.trim().toLowerCase() === 'refresh' && /^[\\t\\n\\f\\r ]*(?:[0-9]+|(?=[.]))[0-9.]*(?:[\\t\\n\\f\\r ;,]|$)/.test(m.content))`;

/**
 * For each selector, whether it names one of the elements that `targets` (a script giving an
 * array of elements, or nulls) names in the page, or with `inside`, an element within one of them.
 * A selector that names nothing never matches.
 */
async function namesOneOf(
  page: Page,
  selectors: readonly string[],
  targets: string,
  inside = false,
): Promise<boolean[]> {
  return page.evaluate<boolean[]>(
    `((selectors) => { const targets = (${targets}).filter(Boolean); return selectors.map((s) => { const el = window.__auditKit.resolve(s); return !!el && (${inside} ? targets.some((t) => t.contains(el)) : targets.includes(el)); }); })(${JSON.stringify(selectors)})`,
  );
}

/** `findings` less those of `checked` whose flag in `drop` (by position) is set. */
function withoutFlagged<T>(findings: readonly T[], checked: readonly T[], drop: readonly boolean[]): T[] {
  const dropped = new Set(checked.filter((_, index) => drop[index]));
  return findings.filter((finding) => !dropped.has(finding));
}

/**
 * axe's refresh findings on the one refresh a browser acts on, the first valid one: a later
 * `<meta http-equiv="refresh">` is never processed (W3C ACT bc659a and bisz58). In the top
 * document; a frame's are kept as axe found them.
 */
async function refreshesThatCount(page: Page, findings: readonly AxeFinding[]): Promise<AxeFinding[]> {
  const refreshes = findings.filter(
    (finding) => REFRESH_RULES.includes(finding.ruleId) && !finding.element.includes(FRAME_SEPARATOR),
  );
  if (!refreshes.length) return [...findings];
  const counts = await namesOneOf(
    page,
    refreshes.map((finding) => finding.element),
    `[${FIRST_REFRESH}]`,
  );
  return withoutFlagged(
    findings,
    refreshes,
    counts.map((counted) => !counted),
  );
}

/** axe's rules on what sequential focus must reach: an element the page took out of use cannot fail them. */
const REACH_RULES: readonly string[] = ['frame-focusable-content', 'scrollable-region-focusable'];

/**
 * axe's reach findings without those on elements the page has taken out of use (inert, or behind
 * the modal dialog on top, the kit's `takenOutOfUse`): nobody expects to reach them by keyboard while
 * they are (W3C ACT akn7bn: a frame taken out of the tab order while a modal dialog is open).
 */
async function withoutOutOfUse(page: Page, findings: readonly AxeFinding[]): Promise<AxeFinding[]> {
  const reach = findings.filter((finding) => REACH_RULES.includes(finding.ruleId));
  if (!reach.length) return [...findings];
  // Inside a frame (axe names the frame's document, `#frame |> html`), the frame element in the top
  // document: everything in an inert frame is inert.
  const inTop = reach.map((finding) => finding.element.split(FRAME_SEPARATOR)[0]!);
  const out = await page.evaluate<boolean[]>(
    `${JSON.stringify(inTop)}.map((s) => window.__auditKit.takenOutOfUse(s))`,
  );
  return withoutFlagged(findings, reach, out);
}

/**
 * The own findings on elements the axe rule their check complements (RuleInfo.complements) reported
 * already: one defect, one issue. Compared as the elements the selectors name in the page (a
 * finding inside an element the rule reported, for a rule that reports containers: RuleInfo.within).
 */
async function withoutComplemented(
  page: Page,
  findings: readonly RawFinding[],
  issues: readonly AuditIssue[],
): Promise<RawFinding[]> {
  const infoOf = (finding: RawFinding) => OWN_RULES[finding.ruleId as OwnRuleId] as RuleInfo | undefined;
  const complementOf = (finding: RawFinding): string | undefined => infoOf(finding)?.complements;
  const dropped = new Set<RawFinding>();
  // One look in the page per complemented rule.
  for (const complemented of new Set(findings.map(complementOf))) {
    const mine = findings.filter((finding) => complemented && complementOf(finding) === complemented);
    const axe = issues.filter((issue) => issue.ruleId === complemented).map((issue) => issue.element);
    if (!mine.length || !axe.length) continue;
    const covered = await namesOneOf(
      page,
      mine.map((finding) => finding.element),
      `${JSON.stringify(axe)}.map((s) => window.__auditKit.resolve(s))`,
      infoOf(mine[0]!)?.within === true,
    );
    for (const [index, finding] of mine.entries()) if (covered[index]) dropped.add(finding);
  }
  return findings.filter((finding) => !dropped.has(finding));
}

const REDIRECTED = 'Leads to an address that is not publicly accessible (a redirect sent the page there)';

/**
 * Opens the page. Every hop of the main frame's navigation (its server redirects) is remembered:
 * when the egress proxy refused one (a public URL redirecting to 169.254.169.254), the audit is
 * refused too, rather than auditing the proxy's refusal page or reporting a load error. (A finding's reconstructed
 * picture opens the prototype the same way: activities/recordings/finding-screenshots.ts.)
 */
export async function loadPage(
  page: Page,
  url: string,
  options: Pick<PageAuditOptions, 'egress' | 'navigationTimeoutMs' | 'credentials'>,
): Promise<void> {
  const hops: string[] = [];
  // The audit's own navigation and its server redirects only: a navigation the page starts later
  // (a meta refresh, a script) is stopped by holdDocument and never leaves the document, wherever
  // it pointed, so the document as loaded is audited.
  const onRequest = (request: Request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    if (hops.length === 0 || request.redirectedFrom()) hops.push(request.url());
  };
  page.on('request', onRequest);
  await holdDocument(page, options.credentials);
  try {
    // Until the document's own load is complete: Playwright's 'load' would wait for the load of
    // a navigation the page started and holdDocument stopped, which never comes. A sub-resource
    // that never arrives (a stalled frame or image) holds the load event back for ever, so once
    // the document is parsed its load is awaited for half the navigation time at most, and then
    // the document is audited as it stands.
    const deadline = Date.now() + options.navigationTimeoutMs;
    const left = () => Math.max(1, deadline - Date.now());
    await page.goto(url, { waitUntil: 'commit', timeout: options.navigationTimeoutMs });
    await page.waitForFunction(() => document.readyState !== 'loading', undefined, {
      polling: 50,
      timeout: left(),
    });
    await page
      .waitForFunction(() => document.readyState === 'complete', undefined, {
        polling: 50,
        timeout: Math.min(left(), options.navigationTimeoutMs / 2),
      })
      .catch((error: unknown) => {
        if (!(error instanceof playwrightErrors.TimeoutError)) throw error;
      });
  } catch (error) {
    if (hops.some((hop) => options.egress.wasRefused(hop))) throw new BlockedUrlError(`url: ${REDIRECTED}`);
    throw error;
  } finally {
    page.off('request', onRequest);
  }
  if (hops.some((hop) => options.egress.wasRefused(hop))) throw new BlockedUrlError(`url: ${REDIRECTED}`);
  // The browser follows a redirect without asking the route again, so a hop within the origin went
  // without the credentials: the page reached is not the one they open. Said rather than audited.
  const origin = options.credentials?.origin;
  const within = hops.slice(1).find((hop) => originOf(hop) === origin);
  if (within) {
    throw new BlockedUrlError(
      `url: Redirects within its origin (to ${within}); with headers or cookies, give the address it redirects to`,
    );
  }
}

/**
 * Keeps the page on the document its address answered with (its server redirects followed): any
 * later navigation of the main frame (a meta refresh, a script setting location) is aborted as
 * one the page cancelled, on which a browser stays where it is (what a script's navigation stopped
 * of the document's parsing stays stopped: the audit sees what the browser had). So a page that moves at once is audited
 * as it loaded rather than failing with a destroyed context, and a timed refresh stays for axe's
 * `meta-refresh` to report (2.2.1, a delay above 0 and under 20 hours).
 */
async function holdDocument(page: Page, credentials: AuditCredentials | undefined): Promise<void> {
  // The first navigation is the audit's own (page.goto); its server redirects are part of it (a
  // redirect answered with credentials too: the browser follows it as one).
  let started = false;
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && !request.redirectedFrom()) {
      // Aborted as a navigation the page itself cancelled: no error page takes the document's place.
      if (started) return route.abort('aborted');
      started = true;
    }
    if (
      credentials &&
      new URL(request.url()).origin === credentials.origin &&
      sentByOrigin(page, request, credentials.origin)
    ) {
      return sendWithCredentials(page, route, credentials);
    }
    return route.continue();
  });
}

/**
 * Whether the audited origin itself makes the request: the audit's own navigation, or a request of
 * a document of that origin (a frame's navigation counts as its parent's). A frame of another
 * origin (an advert, a widget) asking the audited origin gets no credentials added: the browser
 * believes it sent none, so it would let that frame read the answer.
 */
function sentByOrigin(page: Page, request: Request, origin: string): boolean {
  const frame = request.frame();
  if (request.isNavigationRequest()) {
    if (frame === page.mainFrame()) return true;
    const parent = frame.parentFrame();
    return parent !== null && originOf(parent.url()) === origin;
  }
  return originOf(frame.url()) === origin;
}

const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : null);

/**
 * One request to the credentials' origin, sent with them. Not by `route.continue({ headers })`:
 * Chromium would carry those headers along a redirect to another origin (Playwright 1.41 on). The
 * request is made here with no redirect followed (through the context's proxy, so the egress
 * policy holds) and its answer handed to the page, which follows a redirect itself, without them:
 * to another origin that is the point; within the origin loadPage refuses the page reached. The cookies join the page's own for that URL in one `Cookie` header; they
 * never enter the browser's jar, whose cookies reach every port of a host.
 */
async function sendWithCredentials(page: Page, route: Route, credentials: AuditCredentials): Promise<void> {
  const request = route.request();
  const jar = await page.context().cookies(request.url());
  const cookie = [...jar, ...credentials.cookies].map(({ name, value }) => `${name}=${value}`).join('; ');
  const headers: Record<string, string> = { ...request.headers() };
  for (const [name, value] of Object.entries(credentials.headers)) headers[name.toLowerCase()] = value;
  if (cookie) headers.cookie = cookie;
  let response;
  try {
    response = await route.fetch({ headers, maxRedirects: 0 });
  } catch {
    // Unreachable, refused or cut off: failed as the browser's own request would have.
    await route.abort('failed').catch(() => undefined);
    return;
  }
  await route.fulfill({ response });
}

/**
 * axe in the top document (its rules for the chosen categories), then the kit's own checks, in one
 * round trip. The warm contexts load both at document start; a page without them (a context from
 * elsewhere) gets them injected here.
 */
async function inspect(page: Page, axe: object, categories: readonly AuditCategory[]): Promise<Inspection> {
  const script = `window.__auditKit && window.__auditKit.axe ? ${topAxeScript(axe)}.then((axe) => Object.assign({ axe }, window.__auditKit.collect(${JSON.stringify(categories)}))) : null`;
  const inspection = await page.evaluate<Inspection | null>(script);
  if (inspection) return inspection;
  await page.evaluate(AUDIT_INIT_SCRIPT);
  return (await page.evaluate<Inspection | null>(script))!;
}

export function toIssue(
  ruleId: string,
  category: AuditCategory,
  severity: AuditIssue['severity'],
  element: string,
  description: string,
  wcag: readonly string[],
): AuditIssue {
  const issueId = `${ruleId}-${createHash('sha256').update(element).digest('hex').slice(0, 10)}`;
  return { issueId, ruleId, category, severity, element, description, wcagCriteria: [...wcag] };
}

function dedupe(issues: readonly AuditIssue[]): AuditIssue[] {
  const byId = new Map<string, AuditIssue>();
  for (const issue of issues) if (!byId.has(issue.issueId)) byId.set(issue.issueId, issue);
  return [...byId.values()];
}

/** Screenshots of the viewport with the offending element outlined, for critical and serious issues. */
export async function annotatedScreenshots(
  page: Page,
  issues: readonly AuditIssue[],
  limit: number,
): Promise<Map<string, Buffer>> {
  const shots = new Map<string, Buffer>();
  for (const issue of issues
    .filter((i) => i.severity === 'critical' || i.severity === 'serious')
    .slice(0, limit)) {
    const selector = JSON.stringify(issue.element);
    if (!(await page.evaluate<boolean>(`window.__auditKit.outline(${selector}, true)`))) continue;
    shots.set(issue.issueId, await page.screenshot({ type: 'png' }));
    await page.evaluate(`window.__auditKit.outline(${selector}, false)`);
  }
  return shots;
}
