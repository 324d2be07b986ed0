import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { validStudyBody } from '../support/study-body.ts';
import { PageClient, textOfId } from './page-client.ts';
import { studyWithProposals, type Proposal } from './study-fixtures.ts';

const proposalRow = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('proposals')
      .select(['status', 'skip_reason'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  );
const messageOf = (proposalId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('outreach_messages')
      .select(['id', 'status', 'subject', 'body', 'channel'])
      .where('proposal_id', '=', proposalId)
      .executeTakeFirstOrThrow(),
  );

// Kenya (KE): no other test recruits there.
describe("the business's study page (/dashboard/jobs/:id): proposals and the outreach queue", function () {
  this.timeout(120_000);
  let api: TestApi;
  let business: string;
  let jobId: string;
  let proposals: Proposal[];
  let path: string;
  const as = (jwt: string) => {
    const client = new PageClient(api.url);
    client.useSession(jwt);
    return client;
  };

  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    business = await sessionToken((await createBusiness('pro')).claims);
    ({ jobId, proposals } = await studyWithProposals(api, business, 'KE', 2));
    path = `/dashboard/jobs/${jobId}`;
  });
  after(() => api.stop());

  it('shows the study, its recruitment and a form per pending proposal to its business', async () => {
    const page = await as(business).get(path);
    assert.equal(page.status, 200);
    assert.match(page.html, /<h1>[^<]+<\/h1>/);
    assert.match(page.html, /<dt>Proposals to decide<\/dt><dd>2<\/dd>/);
    assert.match(page.html, /<dt>Sessions confirmed<\/dt><dd>0 of 2<\/dd>/);
    for (const proposal of proposals) {
      assert.ok(page.html.includes(`action="${path}/proposals/${proposal.proposalId}/approve"`));
      assert.ok(page.html.includes(`action="${path}/proposals/${proposal.proposalId}/skip"`));
    }
    const dashboard = await as(business).get('/dashboard');
    assert.ok(dashboard.html.includes(`href="${path}"`), 'the dashboard links to the study page');
  });

  it('is a 404 page for a tester and for another organization; signed out it goes to sign in', async () => {
    for (const jwt of [
      await sessionToken(await createTester()),
      await sessionToken((await createBusiness()).claims),
    ]) {
      const page = await as(jwt).get(path);
      assert.equal(page.status, 404);
      assert.doesNotMatch(page.html, new RegExp(proposals[0]!.proposalId));
    }
    // Another organization, through its own study's page or through this one: not found either way.
    const stranger = await sessionToken((await createBusiness()).claims);
    const own = await api.request('POST', '/api/jobs', { token: stranger, body: validStudyBody() });
    assert.equal(own.status, 201, own.text);
    const other = as(stranger);
    await other.get('/dashboard');
    const ownPath = `/dashboard/jobs/${(own.body.data as { jobId: string }).jobId}`;
    for (const target of [path, ownPath]) {
      const posted = await other.post(`${target}/proposals/${proposals[0]!.proposalId}/approve`, {});
      assert.equal(posted.status, 404);
    }
    // The same organization: an item of another study is not found on this study's page.
    const second = await api.request('POST', '/api/jobs', { token: business, body: validStudyBody() });
    const secondPath = `/dashboard/jobs/${(second.body.data as { jobId: string }).jobId}`;
    const mine = as(business);
    await mine.get(secondPath);
    assert.equal(
      (await mine.post(`${secondPath}/proposals/${proposals[0]!.proposalId}/approve`, {})).status,
      404,
    );
    assert.equal((await proposalRow(proposals[0]!.proposalId)).status, 'pending');
    const anonymous = await new PageClient(api.url).get(path);
    assert.equal(anonymous.location, `/login?next=${encodeURIComponent(path)}`);
  });

  it('skips a proposal with its reason (a reason too long is refused at its field, the text kept)', async () => {
    const client = as(business);
    await client.get(path);
    const [skipped] = proposals;
    const field = `reason-${skipped!.proposalId}`;
    const long = await client.post(`${path}/proposals/${skipped!.proposalId}/skip`, {
      [field]: 'x'.repeat(2001),
    });
    assert.equal(long.status, 422);
    assert.match(textOfId(long.html, `field-${field}-error`), /at most 2000|Too big/i);
    assert.ok(long.html.includes(`value="${'x'.repeat(2001)}"`));
    assert.equal((await proposalRow(skipped!.proposalId)).status, 'pending');
    const done = await client.post(`${path}/proposals/${skipped!.proposalId}/skip`, {
      [field]: 'Tested this flow last month',
    });
    assert.equal(done.status, 303);
    assert.equal(done.location, `${path}?done=proposal-skipped`);
    assert.deepEqual(await proposalRow(skipped!.proposalId), {
      status: 'skipped',
      skip_reason: 'Tested this flow last month',
    });
  });

  it('approves a proposal, edits its drafted message (an empty text refused at its field), approves the message; a second approval is 409', async () => {
    const client = as(business);
    await client.get(path);
    const approved = proposals[1]!;
    const done = await client.post(`${path}/proposals/${approved.proposalId}/approve`, {});
    assert.equal(done.status, 303);
    const page = await client.get(done.location!);
    assert.match(page.html, /Proposal approved/);
    const message = await messageOf(approved.proposalId);
    assert.equal(message.status, 'pending');
    assert.ok(page.html.includes(`action="${path}/outreach/${message.id}/approve"`));

    const body = `body-${message.id}`;
    const subject = `subject-${message.id}`;
    const empty = await client.post(`${path}/outreach/${message.id}/edit`, {
      [body]: '   ',
      [subject]: 'Kept subject',
    });
    assert.equal(empty.status, 422);
    assert.equal(textOfId(empty.html, `field-${body}-error`), 'Error: Must not be empty');
    assert.ok(empty.html.includes('value="Kept subject"'));
    const edited = await client.post(`${path}/outreach/${message.id}/edit`, {
      [body]: 'Hello, would you test our booking flow? It takes 20 minutes.',
      [subject]: 'A paid study for you',
    });
    assert.equal(edited.status, 303);
    const stored = await messageOf(approved.proposalId);
    assert.equal(stored.body, 'Hello, would you test our booking flow? It takes 20 minutes.');
    assert.equal(stored.subject, stored.channel === 'email' ? 'A paid study for you' : null);

    // The approve button is in the form with the text: a text changed in the box is saved, then approved.
    const sent = await client.post(`${path}/outreach/${message.id}/approve`, {
      [body]: 'Hello, would you test our booking flow? About 20 minutes.',
      [subject]: 'A paid study for you',
    });
    assert.equal(sent.status, 303);
    assert.equal(
      (await messageOf(approved.proposalId)).body,
      'Hello, would you test our booking flow? About 20 minutes.',
    );
    assert.equal(sent.location, `${path}?done=outreach-approved`);
    assert.equal((await messageOf(approved.proposalId)).status, 'approved');
    const after = await client.get(sent.location);
    assert.match(after.html, /No message waits for review/);
    const again = await client.post(`${path}/outreach/${message.id}/approve`, {});
    assert.equal(again.status, 409);
    assert.match(again.html, /must be pending to approve \(it is approved\)/);
  });
});
