import assert from 'node:assert/strict';
import { business, payoutAccountOf, tester } from './fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

describe('POST /api/billing/connect', () => {
  let h: PaymentsHarness;
  before(async () => {
    h = await startPaymentsHarness();
  });
  after(() => h.stop());

  const returnUrl = 'https://usability.example/tester/payouts';
  const connect = (token: string, body: unknown = { returnUrl }) =>
    h.request('POST', '/api/billing/connect', { token, body });

  it("creates the tester's connected account once and an onboarding link back to returnUrl", async () => {
    const person = await tester();
    const first = await connect(person.token);
    assert.equal(first.status, 200, first.text);
    const data = first.body.data as { onboardingUrl: string; accountId: string };
    const [account] = h.provider!.createdAt('/v1/accounts').filter((a) => a.params.email === person.email);
    assert.ok(account, 'the provider created the account');
    assert.equal(data.accountId, account.id);
    assert.deepEqual(account.params.capabilities, { transfers: { requested: 'true' } });
    assert.equal(account.idempotencyKey, `connect:${person.sub}`);
    const [link] = h.provider!.createdAt('/v1/account_links').filter((l) => l.params.account === account.id);
    assert.deepEqual([link?.params.type, link?.params.return_url], ['account_onboarding', returnUrl]);
    assert.match(data.onboardingUrl, /^https:\/\/connect\.provider\.test\/setup\//);
    const stored = await payoutAccountOf(person.sub);
    assert.deepEqual(
      [stored.provider_account_id, stored.status, stored.payouts_enabled],
      [account.id, 'onboarding', false],
    );

    const again = await connect(person.token);
    assert.equal((again.body.data as { accountId: string }).accountId, account.id, 'the same account again');
    assert.equal(
      h.provider!.createdAt('/v1/accounts').filter((a) => a.params.email === person.email).length,
      1,
    );
    assert.equal(
      h.provider!.createdAt('/v1/account_links').filter((l) => l.params.account === account.id).length,
      2,
    );
  });

  it("a returnUrl off the service's origin is refused (422), so the link is no open redirect", async () => {
    const answer = await connect((await tester()).token, { returnUrl: 'https://evil.example/steal' });
    assert.equal(answer.status, 422, answer.text);
    assert.match(answer.body.error ?? '', /^returnUrl: /);
    assert.equal(
      (await connect((await tester()).token, { returnUrl: 'https://app.usability.example/back' })).status,
      200,
    );
  });

  it('only testers onboard (a business gets 403); the provider down is 503', async () => {
    assert.equal((await connect((await business()).token)).status, 403);
    h.provider!.fault('/v1/accounts', 'status500');
    assert.equal((await connect((await tester()).token)).status, 503);
  });
});
