import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { cookieValue, createPasswordUser, tokenFromMail } from '../auth/helpers.ts';
import { takeMail } from '../auth/mailed-links.ts';
import type { TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { startApiWithMail, stopApiWithMail, type ApiWithMail } from '../auth/mailed-links.ts';
import type { MailCatcher } from '../support/mail-catcher.ts';
import { sessionToken } from '../support/tokens.ts';
import { countOf, PageClient, textOfId } from './page-client.ts';

describe('sign-in pages (/login, /register, /login/magic-link, /reset-password, /logout, /dashboard)', () => {
  let api: TestApi;
  let mail: MailCatcher;
  let withMail: ApiWithMail;
  before(async () => {
    withMail = await startApiWithMail(undefined, { TRUST_PROXY: '1' });
    ({ api, mail } = withMail);
  });
  after(() => stopApiWithMail(withMail));
  const browser = () => new PageClient(api.url);

  describe('shape', () => {
    it('a page is HTML with one h1, landmarks, a skip link and the security headers', async () => {
      const page = await browser().get('/login');
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.equal(countOf(page.html, /<h1[ >]/), 1);
      for (const landmark of ['<main', '<header', '<nav', '<footer', 'href="#main"']) {
        assert.ok(page.html.includes(landmark), landmark);
      }
      const csp = page.headers.get('content-security-policy')!;
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.doesNotMatch(page.html, /<script|style=/, 'no inline script or style for the CSP to refuse');
    });

    it('every form carries the CSRF token of the browser, whose cookie is httpOnly', async () => {
      const client = browser();
      const page = await client.get('/register');
      assert.match(page.html, /name="_csrf" value="[A-Za-z0-9_-]{43}"/);
      const cookie = page.headers.getSetCookie().find((line) => line.startsWith('__Host-csrf='));
      assert.ok(cookie && /HttpOnly/.test(cookie) && /SameSite=Lax/.test(cookie), cookie);
    });

    it("a form post without the token, or with another browser's, is refused with a 403 page and changes nothing", async () => {
      const email = `csrf-${randomUUID()}@example.com`;
      const fields = { role: 'tester', email, password: 'a-long-password-1' };
      const client = browser();
      await client.get('/register');
      const forged = await client.post('/register', { ...fields, _csrf: 'x'.repeat(43) });
      assert.equal(forged.status, 403);
      assert.match(forged.headers.get('content-type')!, /^text\/html/);
      assert.match(forged.html, /could not be accepted/);
      const other = browser();
      const otherToken = /name="_csrf" value="([^"]+)"/.exec((await other.get('/register')).html)![1]!;
      const crossed = await client.post('/register', { ...fields, _csrf: otherToken });
      assert.equal(crossed.status, 403);
      const stranger = new PageClient(api.url);
      const noCookie = await stranger.post('/register', fields);
      assert.equal(noCookie.status, 403);
      const users = await asSystem(testDatabase(), (tx) =>
        tx.selectFrom('users').select('id').where('email', '=', email).execute(),
      );
      assert.equal(users.length, 0);
    });

    it("every form post of every page, signed in or not, is refused with 403 without the browser's token", async () => {
      const posts = api.api.pages
        .filter((page) => page.startsWith('POST '))
        .map((page) => page.slice('POST '.length).replace(/:[A-Za-z]+/g, randomUUID()));
      assert.ok(posts.length >= 15, posts.join(', '));
      for (const path of posts) {
        // A browser per form: one address's anonymous budget would run out before the pages do.
        const client = browser();
        await client.get('/login');
        const refused = await client.post(path, { _csrf: '' });
        assert.equal(refused.status, 403, path);
        assert.match(refused.html, /could not be accepted/, path);
      }
    });

    it('a path that is not a page answers a 404 page to a browser and the envelope to an API client', async () => {
      const page = await browser().get('/no-such-page');
      assert.equal(page.status, 404);
      assert.match(page.html, /<h1>Page not found<\/h1>/);
      const json = await fetch(`${api.url}/no-such-page`, { headers: { Accept: 'application/json' } });
      assert.equal(json.status, 404);
      assert.equal(((await json.json()) as { success: boolean }).success, false);
    });
  });

  describe('registration', () => {
    it('errors re-render the form with the values kept and each message tied to its field', async () => {
      const client = browser();
      await client.get('/register');
      const page = await client.post('/register', {
        role: 'business',
        email: 'not-an-email',
        password: 'short',
        displayName: 'Ada',
      });
      assert.equal(page.status, 422);
      assert.equal(textOfId(page.html, 'field-email-error'), 'Error: Must be an email address');
      assert.equal(textOfId(page.html, 'field-password-error'), 'Error: Must be at least 10 characters');
      assert.match(page.html, /id="field-email"[^>]*value="not-an-email"/);
      assert.match(
        page.html,
        /id="field-email"[^>]*aria-invalid="true"[^>]*aria-describedby="field-email-error"/,
      );
      assert.match(page.html, /id="field-displayName"[^>]*value="Ada"/);
      assert.match(page.html, /id="field-role-business"[^>]*checked/);
      assert.doesNotMatch(page.html, /value="short"/, 'a password is never written back into the page');
      assert.match(page.html, /role="alert"[\s\S]*href="#field-email"/);
    });

    it('a taken email is said next to the email field (409)', async () => {
      const user = await createPasswordUser('tester');
      const client = browser();
      await client.get('/register');
      const page = await client.post('/register', {
        role: 'tester',
        email: user.email,
        password: 'long-enough-pw',
      });
      assert.equal(page.status, 409);
      assert.equal(
        textOfId(page.html, 'field-email-error'),
        'Error: An account with this email already exists',
      );
    });

    it('registers a business with its organization and lands on the dashboard signed in', async () => {
      const client = browser();
      await client.get('/register');
      const email = `page-${randomUUID()}@example.com`;
      const done = await client.post('/register', {
        role: 'business',
        email,
        password: 'long-enough-pw',
        organizationName: 'Page Org',
      });
      assert.equal(done.status, 303);
      assert.equal(done.location, '/dashboard');
      const dashboard = await client.get('/dashboard');
      assert.equal(dashboard.status, 200);
      assert.match(dashboard.html, /Your organization has no studies yet/);
      const me = await api.request('GET', '/api/auth/me', { token: client.cookies.get('session')! });
      const account = me.body.data as { role: string; organizationId: string | null };
      assert.equal(account.role, 'business');
      assert.ok(account.organizationId, 'the organization was created with the account');
    });
  });

  describe('password sign-in and sign-out', () => {
    it("a wrong password re-renders the form with the email kept and the API's message (401)", async () => {
      const user = await createPasswordUser('tester');
      const client = browser();
      await client.get('/login');
      const page = await client.post('/login', { email: user.email, password: 'wrong-password' });
      assert.equal(page.status, 401);
      assert.match(page.html, /Invalid email or password/);
      assert.ok(page.html.includes(`value="${user.email}"`));
      assert.equal(client.cookies.get('session'), undefined);
    });

    it('signs in to /dashboard, or back to the page the visitor was going to, and never to another site', async () => {
      const user = await createPasswordUser('tester');
      const client = browser();
      await client.get('/login?next=%2Fdashboard%3Ftab%3D1');
      const page = await client.post('/login', {
        email: user.email,
        password: user.password,
        next: '/dashboard?tab=1',
      });
      assert.equal(page.status, 303);
      assert.equal(page.location, '/dashboard?tab=1');
      assert.ok(client.cookies.get('session'));
      const other = browser();
      await other.get('/login');
      const away = await other.post('/login', {
        email: user.email,
        password: user.password,
        next: '//evil.example/x',
      });
      assert.equal(away.location, '/dashboard');
    });

    it('a signed-in page without a session cookie, or with an expired one, goes to /login and back', async () => {
      const client = browser();
      const anonymous = await client.get('/dashboard');
      assert.equal(anonymous.status, 303);
      assert.equal(anonymous.location, '/login?next=%2Fdashboard');
      const tester = await createPasswordUser('tester');
      const expired = await sessionToken(
        { sub: tester.id, role: 'tester', organization_id: null },
        new Date(Date.now() - 2 * 86_400_000),
      );
      client.useSession(expired);
      const ended = await client.get('/dashboard');
      assert.equal(ended.location, '/login?next=%2Fdashboard&ended=1');
      const login = await client.get(ended.location);
      assert.match(login.html, /Your session has ended/);
      assert.match(login.html, /name="next" value="\/dashboard"/);
    });

    it('sign-out ends the login: the cookies are cleared and the old session JWT no longer opens a page', async () => {
      const user = await createPasswordUser('tester');
      const client = browser();
      await client.get('/login');
      await client.post('/login', { email: user.email, password: user.password });
      const jwt = client.cookies.get('session')!;
      assert.equal((await client.get('/dashboard')).status, 200);
      const out = await client.post('/logout', {});
      assert.equal(out.status, 303);
      assert.equal(out.location, '/login?signedOut=1');
      assert.equal(client.cookies.get('session'), undefined);
      const reuse = browser();
      reuse.useSession(jwt);
      assert.equal((await reuse.get('/dashboard')).status, 303);
    });

    it("the OAuth callback's error is shown on the sign-in page", async () => {
      const page = await browser().get('/login?error=access_denied');
      assert.match(page.html, /did not work \(access_denied\)/);
    });
  });

  describe('emailed links', () => {
    it('the magic link page signs in only when its button is pressed, and once', async () => {
      const user = await createPasswordUser('business');
      const client = browser();
      await client.get('/login');
      const asked = await client.post('/login/magic-link/request', { 'link-email': user.email });
      assert.equal(asked.status, 200);
      assert.match(asked.html, /a sign-in link is on its way/);
      const token = tokenFromMail((await takeMail(mail, user.email)).text, '/login/magic-link');
      const landing = await client.get(`/login/magic-link?token=${encodeURIComponent(token)}`);
      assert.equal(landing.status, 200);
      assert.equal(client.cookies.get('session'), undefined, 'opening the link alone signs nobody in');
      const signedIn = await client.post('/login/magic-link', { token });
      assert.equal(signedIn.status, 303);
      assert.equal(signedIn.location, '/dashboard');
      assert.ok(client.cookies.get('session'));
      const again = browser();
      await again.get('/login');
      const reused = await again.post('/login/magic-link', { token });
      assert.equal(reused.status, 401);
      assert.match(reused.html, /invalid, expired or already used/);
    });

    it('an unknown email gets the same answer as a known one', async () => {
      const client = browser();
      await client.get('/login');
      const page = await client.post('/login/magic-link/request', {
        'link-email': `nobody-${randomUUID()}@example.com`,
      });
      assert.equal(page.status, 200);
      assert.match(page.html, /a sign-in link is on its way/);
      const bad = await client.post('/login/magic-link/request', { 'link-email': 'nope' });
      assert.equal(bad.status, 422);
      assert.equal(textOfId(bad.html, 'field-link-email-error'), 'Error: Must be an email address');
    });

    it('the reset link sets a new password, which then signs in; a short one is refused next to its field', async () => {
      const user = await createPasswordUser('tester');
      const client = browser();
      await client.get('/reset-password');
      await client.post('/reset-password/request', { email: user.email });
      const token = tokenFromMail((await takeMail(mail, user.email)).text, '/reset-password');
      const form = await client.get(`/reset-password?token=${encodeURIComponent(token)}`);
      assert.match(form.html, /Choose a new password/);
      const short = await client.post('/reset-password', { token, password: 'short' });
      assert.equal(short.status, 422);
      assert.equal(textOfId(short.html, 'field-password-error'), 'Error: Must be at least 10 characters');
      const done = await client.post('/reset-password', { token, password: 'a-brand-new-password' });
      assert.equal(done.status, 303);
      assert.equal(done.location, '/login?reset=1');
      const login = await client.get('/login?reset=1');
      assert.match(login.html, /Your password has been changed/);
      const signedIn = await client.post('/login', { email: user.email, password: 'a-brand-new-password' });
      assert.equal(signedIn.status, 303);
    });
  });

  it("the API's login still answers JSON with the cookies (the command is shared)", async () => {
    const user = await createPasswordUser('tester');
    const response = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(response.status, 200);
    assert.ok(cookieValue(response.headers, 'session'));
  });
});
