import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness, createTester } from '../support/factories.ts';
import { freePort } from '../support/free-port.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import { PageClient } from './page-client.ts';

const paidAt = (jobId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('studies').select('paid_at').where('id', '=', jobId).executeTakeFirstOrThrow(),
  );

// Tanzania (TZ): no other test recruits there (a paid study starts matching).
describe('paying for a draft study from its page, through the local checkout page', function () {
  this.timeout(60_000);
  let api: TestApi;
  let business: string;
  const as = (jwt: string) => {
    const client = new PageClient(api.url);
    client.useSession(jwt);
    return client;
  };
  const draft = async (testerCount = 3) => {
    const body = {
      ...validStudyBody(),
      targeting: { countries: ['TZ'], devices: ['desktop'], testerCount },
    };
    const created = await api.request('POST', '/api/jobs', { token: business, body });
    assert.equal(created.status, 201, created.text);
    return (created.body.data as { jobId: string }).jobId;
  };

  before(async () => {
    // The local provider's page posts its signed event to the webhook route of this API.
    const port = await freePort();
    api = await startTestApi({
      port,
      env: { TRUST_PROXY: '1', PAYMENTS_WEBHOOK_URL: `http://127.0.0.1:${port}/api/webhooks/payments` },
    });
    business = await sessionToken((await createBusiness('pro')).claims);
  });
  after(() => api.stop());

  it('a draft shows what checkout charges, and the page may post on to the checkout origin', async () => {
    const jobId = await draft(3);
    const page = await as(business).get(`/dashboard/jobs/${jobId}`);
    assert.equal(page.status, 200);
    assert.match(page.html, /3 testers at 25.00 EUR each, 75\.00 EUR in all\./);
    assert.ok(page.html.includes(`action="/dashboard/jobs/${jobId}/checkout"`));
    const origin = new URL(api.config.http.baseUrl).origin;
    assert.match(page.headers.get('content-security-policy')!, new RegExp(`form-action 'self' ${origin};`));
  });

  it('checkout goes to the local page; Pay posts the signed event and comes back to the study, paid', async () => {
    const jobId = await draft(2);
    const browser = as(business);
    await browser.get(`/dashboard/jobs/${jobId}`);
    const checkout = await browser.post(`/dashboard/jobs/${jobId}/checkout`, {});
    assert.equal(checkout.status, 303, checkout.html);
    const location = new URL(checkout.location!);
    assert.equal(location.origin, new URL(api.config.http.baseUrl).origin);
    assert.match(location.pathname, /^\/billing\/local-checkout\/cs_local_[0-9a-f]{24}$/);

    const provider = await browser.get(location.pathname);
    assert.equal(provider.status, 200);
    assert.match(provider.html, /<dt>Amount<\/dt><dd>50\.00 EUR<\/dd>/);
    assert.ok(provider.html.includes(`href="/dashboard/jobs/${jobId}?checkout=cancelled"`));
    assert.equal((await paidAt(jobId)).paid_at, null, 'opening the page pays nothing');

    const paid = await browser.post(location.pathname, {});
    assert.equal(paid.status, 303, paid.html);
    assert.equal(paid.location, `/dashboard/jobs/${jobId}?checkout=success`);
    assert.ok((await paidAt(jobId)).paid_at, 'the webhook route recorded the payment');
    const back = await browser.get(paid.location);
    assert.match(back.html, /Payment received/);
    assert.doesNotMatch(back.html, /Pay by checkout/);

    // The same checkout again: paid, nothing more to pay; the study's page refuses a second checkout.
    const again = await browser.get(location.pathname);
    assert.match(again.html, /<dt>Checkout<\/dt><dd>paid<\/dd>/);
    assert.doesNotMatch(again.html, /<button type="submit">Pay<\/button>/);
    const refused = await browser.post(`/dashboard/jobs/${jobId}/checkout`, {});
    assert.equal(refused.status, 409);
    assert.match(refused.html, /Study is already paid/);
  });

  it('a tester or an admin cannot check out a study (404 page), and an unknown checkout is a 404 page', async () => {
    const jobId = await draft(1);
    for (const jwt of [await sessionToken(await createTester()), await sessionToken(await createAdmin())]) {
      const browser = as(jwt);
      await browser.get('/dashboard');
      const refused = await browser.post(`/dashboard/jobs/${jobId}/checkout`, {});
      assert.equal(refused.status, 404);
    }
    assert.equal((await paidAt(jobId)).paid_at, null);
    const unknown = await as(business).get('/billing/local-checkout/cs_local_000000000000000000000000');
    assert.equal(unknown.status, 404);
  });

  it('signed out, checkout goes to sign in and back to the study page', async () => {
    const jobId = await draft(1);
    const visitor = new PageClient(api.url);
    await visitor.get('/login');
    const post = await visitor.post(`/dashboard/jobs/${jobId}/checkout`, {});
    assert.equal(post.status, 303);
    assert.equal(post.location, `/login?next=${encodeURIComponent(`/dashboard/jobs/${jobId}`)}`);
  });
});
