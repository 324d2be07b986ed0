import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { PageClient, textOfId } from './page-client.ts';

const PATH = '/dashboard/tokens';

describe("the organization's API tokens on a page (/dashboard/tokens) over the commands of /api/auth/tokens", function () {
  this.timeout(60_000);
  let api: TestApi;
  let owner: BusinessFixture;
  const as = async (claims: BusinessFixture['claims']) => {
    const client = new PageClient(api.url);
    client.useSession(await sessionToken(claims));
    await client.get(PATH);
    return client;
  };

  before(async () => {
    api = await startTestApi({ worker: false, env: { TRUST_PROXY: '1' } });
    owner = await createBusiness();
  });
  after(() => api.stop());

  it('issues a token, shows its secret once, and the token then works on the API', async () => {
    const client = await as(owner.claims);
    const dashboard = await client.get('/dashboard');
    assert.ok(dashboard.html.includes(`href="${PATH}"`), 'the dashboard links the page');
    const issued = await client.post(PATH, { name: 'Nightly export', scope: 'read' });
    assert.equal(issued.status, 200);
    const secret = /id="issued-token" type="text" readonly value="([^"]+)"/i.exec(issued.html)?.[1] ?? '';
    assert.ok(secret.startsWith('uat_'), 'the secret is shown');
    const studies = await api.request('GET', '/api/jobs', { token: secret });
    assert.equal(studies.status, 200, 'the token reads the API');
    const again = await client.get(PATH);
    assert.ok(!again.html.includes(secret), 'never shown again');
    assert.match(again.html, /<th scope="row">Nightly export<\/th>/);
  });

  it('refuses a form without a name or a scope at its field, keeping what was typed', async () => {
    const client = await as(owner.claims);
    const page = await client.post(PATH, { name: '  ', scope: 'everything' });
    assert.equal(page.status, 422);
    assert.match(textOfId(page.html, 'field-name-error'), /Required/);
    assert.match(textOfId(page.html, 'field-scope-error'), /Invalid option|Expected/);
  });

  it('revokes a token: the API refuses it afterwards, and the list says so', async () => {
    const client = await as(owner.claims);
    const issued = await client.post(PATH, {
      name: `To revoke ${randomUUID().slice(0, 6)}`,
      scope: 'read_write',
    });
    const secret = /id="issued-token" type="text" readonly value="([^"]+)"/i.exec(issued.html)![1]!;
    // The list is newest first: the first revoke button is the new token's.
    const tokenId = new RegExp(`action="${PATH}/([0-9a-f-]{36})/revoke"`).exec(issued.html)![1]!;
    const revoked = await client.post(`${PATH}/${tokenId}/revoke`, {});
    assert.equal(revoked.status, 303);
    assert.equal(revoked.location, `${PATH}?done=revoked`);
    assert.equal((await api.request('GET', '/api/jobs', { token: secret })).status, 401);
    const list = await client.get(revoked.location);
    assert.match(list.html, /Token revoked/);
    assert.ok(
      !list.html.includes(`action="${PATH}/${tokenId}/revoke"`),
      'no revoke button on a revoked token',
    );
    const unknown = await client.post(`${PATH}/${randomUUID()}/revoke`, {});
    assert.equal(unknown.status, 404);
  });

  it("a member who is not an owner is told only owners manage tokens (403); testers get the 404 page; another organization's token is not found", async () => {
    const memberId = await asSystem(testDatabase(), async (tx) => {
      const user = await tx
        .insertInto('users')
        .values({ email: `page-member-${randomUUID()}@example.com`, role: 'business' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('organization_memberships')
        .values({ organization_id: owner.organizationId, user_id: user.id, member_role: 'member' })
        .execute();
      return user.id;
    });
    const member = await as({ sub: memberId, role: 'business', organization_id: owner.organizationId });
    const page = await member.get(PATH);
    assert.equal(page.status, 403);
    assert.match(page.html, /Only the organization's owners manage its API tokens/);
    assert.doesNotMatch(page.html, /Issue the token/);

    const tester = new PageClient(api.url);
    tester.useSession(await sessionToken(await createTester()));
    assert.equal((await tester.get(PATH)).status, 404);

    const mine = await as(owner.claims);
    const issued = await mine.post(PATH, { name: 'Not yours', scope: 'read' });
    const tokenId = new RegExp(`action="${PATH}/([0-9a-f-]{36})/revoke"`).exec(issued.html)![1]!;
    const other = await as((await createBusiness()).claims);
    assert.equal((await other.post(`${PATH}/${tokenId}/revoke`, {})).status, 404);
  });
});
