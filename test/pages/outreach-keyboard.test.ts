import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { axeViolations, keyboardContext, launchChromium, siteOf, tabTo } from './keyboard.ts';
import { signInByKeyboard, withPassword } from './sign-in-as.ts';
import { studyWithProposals, type Proposal } from './study-fixtures.ts';

const PASSWORD = 'keyboard-only-business';

// Bolivia (BO): no other test recruits there.
describe('the outreach approval flow, keyboard only, in Chromium', function () {
  this.timeout(180_000);
  let api: TestApi;
  let browser: Browser;
  let jobId: string;
  let proposal: Proposal;
  let email: string;

  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    const owner = await createBusiness('pro');
    email = await withPassword(owner.claims.sub, PASSWORD);
    let proposals: Proposal[];
    ({ jobId, proposals } = await studyWithProposals(api, await sessionToken(owner.claims), 'BO', 1));
    proposal = proposals[0]!;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('sign in, open the study, approve the proposal, reword its message, approve it', async () => {
    const context = await keyboardContext(browser, '10.78.0.1');
    const page = await context.newPage();
    const site = siteOf(api.url);
    const study = `/dashboard/jobs/${jobId}`;

    await page.goto(`${site}/dashboard`);
    await signInByKeyboard(page, email, PASSWORD, '/dashboard');
    await tabTo(page, `a[href="${study}"]`);
    await Promise.all([page.waitForURL(`**${study}`), page.keyboard.press('Enter')]);

    await tabTo(page, `form[action$="/proposals/${proposal.proposalId}/approve"] button`);
    await Promise.all([page.waitForURL(`**${study}?done=proposal-approved`), page.keyboard.press('Enter')]);
    const message = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('outreach_messages')
        .select(['id', 'channel'])
        .where('proposal_id', '=', proposal.proposalId)
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual(await axeViolations(page), [], 'the queue with a message has no axe violation');

    // Reword the draft (select the text in the field, type over it) and approve it as it now reads,
    // without saving first: what is approved is what the box shows.
    await tabTo(page, `#field-body-${message.id}`);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Hello! Would you try our booking flow? About 20 minutes, paid.');
    await tabTo(page, `button[formaction$="/outreach/${message.id}/approve"]`);
    await Promise.all([page.waitForURL(`**${study}?done=outreach-approved`), page.keyboard.press('Enter')]);
    assert.match((await page.locator('.notice').textContent())!, /Message approved/);
    assert.deepEqual(await axeViolations(page), []);

    const stored = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('outreach_messages')
        .select(['status', 'body'])
        .where('id', '=', message.id)
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual(stored, {
      status: 'approved',
      body: 'Hello! Would you try our booking flow? About 20 minutes, paid.',
    });
    await context.close();
  });
});
