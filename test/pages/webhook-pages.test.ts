import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createMembers, createTester, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { axeViolations, keyboardContext, launchChromium, siteOf, tabTo } from './keyboard.ts';
import { PageClient, textOfId } from './page-client.ts';
import { signInByKeyboard, withPassword } from './sign-in-as.ts';

const PATH = '/dashboard/webhooks';
const ALLOWED = '127.0.0.1:9';
const URL_OK = `http://${ALLOWED}/orders`;

describe("the organization's webhook endpoints on pages (/dashboard/webhooks) over the commands of /api/webhook-endpoints", function () {
  this.timeout(120_000);
  let api: TestApi;
  let owner: BusinessFixture;
  const as = async (claims: BusinessFixture['claims']) => {
    const client = new PageClient(api.url);
    client.useSession(await sessionToken(claims));
    await client.get(PATH);
    return client;
  };
  const endpointIdIn = (html: string) => new RegExp(`href="${PATH}/([0-9a-f-]{36})"`).exec(html)![1]!;

  before(async () => {
    api = await startTestApi({ worker: false, env: { TRUST_PROXY: '1', AUDIT_ALLOWED_HOSTS: ALLOWED } });
    owner = await createBusiness('pro');
  });
  after(() => api.stop());

  it('registers an endpoint, shows its secret once, lists it, and the API knows it', async () => {
    const client = await as(owner.claims);
    const dashboard = await client.get('/dashboard');
    assert.ok(dashboard.html.includes(`href="${PATH}"`), 'the dashboard links the page');
    const registered = await client.post(PATH, {
      url: URL_OK,
      description: 'Order system',
      events: 'study.completed',
    });
    assert.equal(registered.status, 200, registered.html);
    const secret =
      /id="registered-secret" type="text" readonly value="([^"]+)"/i.exec(registered.html)?.[1] ?? '';
    assert.match(secret, /^whsec_/);
    const endpointId = endpointIdIn(registered.html);
    const read = await api.request('GET', `/api/webhook-endpoints/${endpointId}`, {
      token: await sessionToken(owner.claims),
    });
    assert.deepEqual((read.body.data as { events: string[] }).events, ['study.completed']);
    const again = await client.get(PATH);
    assert.ok(!again.html.includes(secret), 'never shown again');
    assert.ok(again.html.includes(URL_OK));
  });

  it('refuses a form without events, with a private URL, keeping what was typed', async () => {
    const client = await as(owner.claims);
    const page = await client.post(PATH, { url: 'http://10.2.3.4/hook', description: 'Kept' });
    assert.equal(page.status, 422);
    assert.match(textOfId(page.html, 'field-events-error'), /At least one event type/);
    assert.ok(page.html.includes('value="Kept"'));
    const blocked = await client.post(PATH, { url: 'http://10.2.3.4/hook', events: 'payout.paid' });
    assert.equal(blocked.status, 422);
    assert.match(textOfId(blocked.html, 'field-url-error'), /publicly accessible/);
  });

  it("an endpoint's page shows its delivery log, turns it off and on, and deletes it", async () => {
    const client = await as(owner.claims);
    const registered = await client.post(PATH, { url: URL_OK, events: 'payout.paid' });
    const endpointId = endpointIdIn(registered.html);
    await asSystem(testDatabase(), async (tx) => {
      const event = await tx
        .insertInto('webhook_events')
        .values({
          organization_id: owner.organizationId,
          type: 'payout.paid',
          object: JSON.stringify({ paymentId: randomUUID() }),
          dedupe_key: `page-test:${randomUUID()}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('webhook_deliveries')
        .values({
          event_id: event.id,
          endpoint_id: endpointId,
          organization_id: owner.organizationId,
          attempts: 2,
          last_response_code: 503,
        })
        .execute();
    });
    const page = await client.get(`${PATH}/${endpointId}`);
    assert.equal(page.status, 200);
    assert.match(page.html, /payout\.paid/);
    assert.match(page.html, /<td>503<\/td>/);
    assert.match(page.html, /Being tried/);

    const off = await client.post(`${PATH}/${endpointId}/status`, { enabled: 'false' });
    assert.equal(off.status, 303);
    assert.match((await client.get(off.location!)).html, /Turn it on again/);
    const on = await client.post(`${PATH}/${endpointId}/status`, { enabled: 'true' });
    assert.match((await client.get(on.location!)).html, /Turn it off/);

    const deleted = await client.post(`${PATH}/${endpointId}/delete`, {});
    assert.equal(deleted.status, 303);
    assert.equal(deleted.location, `${PATH}?done=deleted`);
    assert.equal((await client.get(`${PATH}/${endpointId}`)).status, 404);
  });

  it("a member who is not an owner is told only owners manage endpoints (403); testers get the 404 page; another organization's endpoint is not found", async () => {
    const [member] = await createMembers(owner.organizationId, 1);
    const page = await (await as(member!)).get(PATH);
    assert.equal(page.status, 403);
    assert.match(page.html, /Only the organization's owners manage its webhook endpoints/);
    assert.doesNotMatch(page.html, /Register the endpoint/);

    const tester = new PageClient(api.url);
    tester.useSession(await sessionToken(await createTester()));
    assert.equal((await tester.get(PATH)).status, 404);

    const mine = await as(owner.claims);
    const endpointId = endpointIdIn((await mine.post(PATH, { url: URL_OK, events: 'report.ready' })).html);
    const other = await as((await createBusiness()).claims);
    assert.equal((await other.get(`${PATH}/${endpointId}`)).status, 404);
    assert.equal((await other.post(`${PATH}/${endpointId}/delete`, {})).status, 404);
  });

  describe('keyboard only, in Chromium', () => {
    let browser: Browser;
    before(async () => {
      browser = await launchChromium();
    });
    after(() => browser?.close());

    it('signs in, registers an endpoint for two events, reads its secret, and opens its page', async () => {
      const business = await createBusiness('pro');
      const email = await withPassword(business.userId, 'keyboard-webhooks');
      const context = await keyboardContext(browser, '10.77.0.9');
      const page = await context.newPage();
      await page.goto(siteOf(api.url) + PATH);
      await signInByKeyboard(page, email, 'keyboard-webhooks', PATH);
      assert.equal(await page.locator('h1').textContent(), 'Webhooks');

      await tabTo(page, '#field-url');
      await page.keyboard.type(URL_OK);
      await tabTo(page, '#field-description');
      await page.keyboard.type('Chat room');
      await tabTo(page, '#field-events-study\\.completed');
      await page.keyboard.press('Space');
      await tabTo(page, '#field-events-report\\.ready');
      await page.keyboard.press('Space');
      await tabTo(page, 'form[action="/dashboard/webhooks"] button[type="submit"]');
      await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
      await page.waitForSelector('#registered-secret');
      assert.match(await page.locator('#registered-secret').inputValue(), /^whsec_/);
      assert.deepEqual(await axeViolations(page), []);

      await tabTo(page, `a[href^="${PATH}/"]`);
      await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
      assert.equal(await page.locator('h1').textContent(), `Webhook endpoint ${URL_OK}`);
      assert.match(await page.locator('main').innerText(), /study\.completed, report\.ready/);
      assert.deepEqual(await axeViolations(page), []);
      await context.close();
    });
  });
});
