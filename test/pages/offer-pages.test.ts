import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { offerAnswerLink } from '../../lib/offer-links.ts';
import { offerWorkflowId } from '../../workflows/messages/offer.ts';
import { waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { countOf, escaped, PageClient } from './page-client.ts';
import { studyWithProposals, type Proposal } from './study-fixtures.ts';

const offerOf = (proposalId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('outreach_messages')
      .select(['id', 'offer_status', 'session_id', 'body'])
      .where('proposal_id', '=', proposalId)
      .executeTakeFirst(),
  );

// Ecuador (EC): no other test recruits there.
describe("the tester's offers (/offers): every offer sent to them, accepted or declined on the page", function () {
  this.timeout(120_000);
  let api: TestApi;
  let business: string;
  let proposals: Proposal[];
  const offers: { id: string; body: string }[] = [];
  const testerPage = async (testerId: string) => {
    const client = new PageClient(api.url);
    client.useSession(await sessionToken({ sub: testerId, role: 'tester', organization_id: null }));
    return client;
  };

  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    business = await sessionToken((await createBusiness('pro')).claims);
    ({ proposals } = await studyWithProposals(api, business, 'EC', 3));
    for (const proposal of proposals) {
      const approved = await api.request('POST', `/api/outreach/proposals/${proposal.proposalId}/approve`, {
        token: business,
        body: {},
      });
      assert.equal(approved.status, 200, approved.text);
      const { outreachId } = approved.body.data as { outreachId: string };
      const sent = await api.request('POST', `/api/outreach/${outreachId}/approve`, {
        token: business,
        body: {},
      });
      assert.equal(sent.status, 200, sent.text);
    }
    for (const proposal of proposals) {
      await waitFor(async () => (await offerOf(proposal.proposalId))?.offer_status === 'open');
      const offer = (await offerOf(proposal.proposalId))!;
      offers.push({ id: offer.id, body: offer.body });
    }
  });
  after(() => api.stop());

  it('lists the open offer with its message and Accept and Decline; the header and the dashboard link it', async () => {
    const tester = await testerPage(proposals[0]!.testerId);
    const page = await tester.get('/offers');
    assert.equal(page.status, 200);
    assert.equal(countOf(page.html, /<h1>/), 1);
    assert.match(page.html, /1 offer waiting for your answer/);
    for (const paragraph of offers[0]!.body.split(/\n{2,}/)) {
      assert.ok(page.html.includes(`<p>${escaped(paragraph)}</p>`), `the message: ${paragraph}`);
    }
    assert.ok(page.html.includes(`action="/offers/${offers[0]!.id}/answer"`));
    assert.ok(!page.html.includes(offers[1]!.id), "another tester's offer is not listed");
    assert.match(page.html, /<a href="\/offers">Your offers<\/a>/);
    assert.match((await tester.get('/dashboard')).html, /href="\/offers"/);
  });

  it('Accept answers the offer as the emailed link would: the session is made, the offer reads accepted', async () => {
    const tester = await testerPage(proposals[0]!.testerId);
    await tester.get('/offers');
    const accepted = await tester.post(`/offers/${offers[0]!.id}/answer`, { answer: 'accept' });
    assert.equal(accepted.status, 303);
    const row = (await offerOf(proposals[0]!.proposalId))!;
    assert.equal(row.offer_status, 'accepted');
    assert.ok(row.session_id, 'the session was created');
    assert.equal(
      accepted.location,
      `/sessions/${row.session_id}/start?start=1`,
      "it leads to the session's start page, which the recorder presses itself",
    );
    const start = await tester.get(accepted.location);
    assert.equal(start.status, 200);
    assert.match(start.html, /Start your session/);
    assert.match(start.html, /<form id="start-form" method="post" action="[^"]+" data-autostart(="")?>/);
    const page = await tester.get('/offers');
    assert.match(page.html, /You accepted it on/);
    assert.ok(
      !page.html.includes(`action="/offers/${offers[0]!.id}/answer"`),
      'no buttons on an answered offer',
    );
    const again = await tester.post(`/offers/${offers[0]!.id}/answer`, { answer: 'decline' });
    assert.equal(again.location, '/offers?done=already_accepted', 'a second answer changes nothing');
    assert.equal((await offerOf(proposals[0]!.proposalId))!.offer_status, 'accepted');
  });

  it('Decline frees the place; nobody else may answer the offer, and a bad answer is the 404 page', async () => {
    const owner = await testerPage(proposals[1]!.testerId);
    await owner.get('/offers');
    for (const jwt of [await sessionToken(await createTester())]) {
      const stranger = new PageClient(api.url);
      stranger.useSession(jwt);
      await stranger.get('/offers');
      assert.equal(
        (await stranger.post(`/offers/${offers[1]!.id}/answer`, { answer: 'accept' })).status,
        404,
      );
    }
    const businessPage = new PageClient(api.url);
    businessPage.useSession(business);
    assert.equal((await businessPage.get('/offers')).status, 404);
    assert.equal((await owner.post(`/offers/${offers[1]!.id}/answer`, { answer: 'maybe' })).status, 404);
    assert.equal((await owner.post(`/offers/${randomUUID()}/answer`, { answer: 'accept' })).status, 404);
    assert.equal((await offerOf(proposals[1]!.proposalId))!.offer_status, 'open');
    const declined = await owner.post(`/offers/${offers[1]!.id}/answer`, { answer: 'decline' });
    assert.equal(declined.location, '/offers?done=declined');
    assert.equal((await offerOf(proposals[1]!.proposalId))!.offer_status, 'declined');
    assert.match((await owner.get('/offers')).html, /You declined it on/);
  });

  it('an open offer whose workflow is gone (terminated by hand) answers that it is closed, never 500, and changes nothing', async () => {
    const offer = offers[2]!;
    const { client } = await temporalEnvironment();
    await client.workflow.getHandle(offerWorkflowId(offer.id)).terminate('an operator ended it');
    const tester = await testerPage(proposals[2]!.testerId);
    await tester.get('/offers');
    const answered = await tester.post(`/offers/${offer.id}/answer`, { answer: 'accept' });
    assert.equal(answered.status, 303);
    assert.equal(answered.location, '/offers?done=closed');
    assert.match(
      (await tester.get(answered.location)).html,
      /This offer is closed and can no longer be answered/,
    );
    // The email's signed link: the page of the answer, as a conflict.
    const link = new URL(offerAnswerLink(api.url, api.config.auth.jwtSecret, offer.id, 'decline'));
    const byMail = await new PageClient(api.url).post(`${link.pathname}${link.search}`, {});
    assert.equal(byMail.status, 409);
    assert.match(byMail.html, /This offer is closed and can no longer be answered/);
    const row = (await offerOf(proposals[2]!.proposalId))!;
    assert.deepEqual([row.offer_status, row.session_id], ['open', null]);
  });

  it('signed out, the page sends to sign-in and back', async () => {
    const visitor = await new PageClient(api.url).get('/offers');
    assert.equal(visitor.status, 303);
    assert.equal(visitor.location, '/login?next=%2Foffers');
  });
});
