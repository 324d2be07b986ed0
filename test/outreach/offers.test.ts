import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { createEmailSender } from '../../clients/email.ts';
import { createMessagingSender } from '../../clients/messaging.ts';
import { asSystem } from '../../db/doors.ts';
import { offerAnswerLink } from '../../lib/offer-links.ts';
import { OFFER_EXPIRY_REMINDER_MS, OFFER_WINDOW_MS, TEST_DUE_AFTER_MS } from '../../lib/offers.ts';
import { offerQuery, offerWorkflowId } from '../../workflows/messages/offer.ts';
import { offerWorkflow } from '../../workflows/offer.ts';
import { paymentConfirmedSignal, studyWorkflowId } from '../../workflows/messages/study.ts';
import { waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { startBotApi, type BotApiServer } from '../support/bot-api.ts';
import { testConfig } from '../support/config.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { timeSkippingEnvironment, workflowBundle } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { qualifiedTester } from './fixtures.ts';

const HOUR_MS = 60 * 60 * 1000;
const WEBHOOK_SECRET = 'offers-webhook-secret-0123';
const BOT_TOKEN = '123456:offers-test-bot';

interface Proposal {
  proposalId: string;
  testerId: string;
  status: string;
}

const outboxRows = (kind: string, outreachId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('notification_outbox')
      .select(['channel', 'recipient', 'subject', 'body', 'status', 'payload'])
      .where('kind', '=', kind)
      .where((eb) => eb(eb.ref('payload', '->>').key('outreachId' as never), '=', outreachId))
      .execute(),
  );

const offerRow = (outreachId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('outreach_messages')
      .select(['status', 'offer_status', 'sent_at', 'offer_expires_at', 'answered_at', 'session_id'])
      .where('id', '=', outreachId)
      .executeTakeFirstOrThrow(),
  );

// Recruits in Austria (AT) and Belgium (BE), countries no other test recruits in. The study's
// workflow runs on the time-skipping server with its own worker, so expiry is reached by skipping.
// Each test has a server of its own: its clock skips ahead only when no other test's workflows hold it.
describe('offers: approval sends the offer, the tester answers, it expires', function () {
  this.timeout(180_000);
  let env: TestWorkflowEnvironment;
  let api: TestApi;
  let bot: BotApiServer;
  let worker: Worker;
  let running: Promise<void>;
  let business: string;
  let activities: ReturnType<typeof createActivities>;
  let mailDir: string;

  before(async () => {
    bot = await startBotApi();
    business = await sessionToken((await createBusiness('pro')).claims);
  });
  after(() => bot?.stop());

  beforeEach(async () => {
    env = await timeSkippingEnvironment();
    const taskQueue = `offers-${process.pid}`;
    const config = testConfig();
    worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: (activities = createActivities({
        db: serviceDatabase(),
        messaging: createMessagingSender({ botToken: BOT_TOKEN, apiRoot: bot.url, outboxDir: tmpdir() }),
        email: createEmailSender({
          smtpUrl: undefined,
          from: 'offers@usability.example',
          outboxDir: (mailDir = await mkdtemp(join(tmpdir(), 'offers-mail-'))),
        }),
        offerLinks: { baseUrl: config.http.baseUrl, secret: config.auth.jwtSecret },
      })),
    });
    running = worker.run();
    api = await startTestApi({
      temporal: env.client,
      worker: false,
      env: {
        TEMPORAL_TASK_QUEUE: taskQueue,
        MESSAGING_WEBHOOK_SECRET: WEBHOOK_SECRET,
        MESSAGING_BOT_TOKEN: BOT_TOKEN,
        MESSAGING_API_ROOT: bot.url,
      },
    });
  });
  afterEach(async () => {
    await api?.stop();
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  /** A study for `testerCount` testers in `country`, made active on the time-skipping server. */
  async function activeStudy(
    country: string,
    testerCount: number,
    reminderAfterHours?: number,
  ): Promise<string> {
    const study = validStudyBody();
    const body = {
      ...study,
      abTest: undefined,
      targeting: { countries: [country], devices: ['desktop'], testerCount },
      settings: { ...(study.settings as object), ...(reminderAfterHours ? { reminderAfterHours } : {}) },
    };
    const created = await api.request('POST', '/api/jobs', { body, token: business });
    assert.equal(created.status, 201, created.text);
    const { jobId } = created.body.data as { jobId: string };
    await env.client.workflow.getHandle(studyWorkflowId(jobId)).signal(paymentConfirmedSignal);
    return jobId;
  }

  const post = (path: string, body?: unknown, token = business) => api.request('POST', path, { token, body });
  const proposals = async (jobId: string) =>
    (await api.request('GET', `/api/outreach/proposals?jobId=${jobId}&limit=100`, { token: business })).body
      .data as Proposal[];

  /** A study recruiting one tester in `country`; the offer for `tester` approved; its outreach id. */
  async function approvedOffer(country: string, tester: string, jobId: string): Promise<string> {
    await waitFor(async () => (await proposals(jobId)).some((p) => p.testerId === tester));
    const proposal = (await proposals(jobId)).find((p) => p.testerId === tester)!;
    const accepted = await post(`/api/outreach/proposals/${proposal.proposalId}/approve`);
    assert.equal(accepted.status, 200, accepted.text);
    const { outreachId } = accepted.body.data as { outreachId: string };
    const approved = await post(`/api/outreach/${outreachId}/approve`);
    assert.equal(approved.status, 200, approved.text);
    const answer = approved.body.data as Record<string, string>;
    assert.deepEqual(Object.keys(answer).sort(), ['approvedAt', 'outreachId', 'scheduledSendAt', 'status']);
    assert.equal(answer.status, 'approved');
    assert.ok(Date.parse(answer.scheduledSendAt!) >= Date.parse(answer.approvedAt!));
    const again = await post(`/api/outreach/${outreachId}/approve`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'Outreach message must be pending to approve (it is approved)');
    assert.ok(country);
    return outreachId;
  }

  const press = (updateId: number, chatId: number, data: string) =>
    api.request('POST', '/api/webhooks/messaging', {
      headers: { 'x-webhook-secret': WEBHOOK_SECRET },
      body: { update_id: updateId, callback_query: { id: `cb-${updateId}`, from: { id: chatId }, data } },
    });

  it('a chat offer carries accept and decline buttons; accepting creates the session with its token, once; the reminders follow', async () => {
    const chatId = 700_001;
    const tester = await qualifiedTester('AT', { messaging_chat_id: String(chatId) });
    const jobId = await activeStudy('AT', 1, 3);
    const outreachId = await approvedOffer('AT', tester, jobId);

    const offer = await bot.waitForMessage(String(chatId), (text) =>
      text.includes('This offer is open until'),
    );
    const markup = (
      typeof offer.params.reply_markup === 'string'
        ? JSON.parse(offer.params.reply_markup)
        : offer.params.reply_markup
    ) as { inline_keyboard: { text: string; callback_data: string }[][] };
    assert.deepEqual(markup.inline_keyboard.flat(), [
      { text: 'Accept', callback_data: `offer:accept:${outreachId}` },
      { text: 'Decline', callback_data: `offer:decline:${outreachId}` },
    ]);
    const sent = await offerRow(outreachId);
    assert.equal(sent.offer_status, 'open');
    assert.equal(sent.offer_expires_at!.getTime() - sent.sent_at!.getTime(), OFFER_WINDOW_MS);

    // Another chat pressing the button changes nothing.
    const stranger = await press(9001, 700_999, `offer:accept:${outreachId}`);
    assert.equal(stranger.status, 200, stranger.text);
    assert.equal((stranger.body.data as { offer?: string }).offer, undefined);
    assert.equal((await offerRow(outreachId)).offer_status, 'open');

    const accepted = await press(9002, chatId, `offer:accept:${outreachId}`);
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual(accepted.body.data, { received: true, linked: false, offer: 'accepted' });
    const row = await offerRow(outreachId);
    assert.equal(row.offer_status, 'accepted');
    // Both presses are answered (the buttons' spinners stop), the stranger's too.
    const answered = bot.calls
      .filter((call) => call.method === 'answerCallbackQuery')
      .map((call) => call.params.callback_query_id);
    assert.deepEqual(answered, ['cb-9001', 'cb-9002']);
    assert.ok(row.session_id);
    const session = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').selectAll().where('id', '=', row.session_id!).executeTakeFirstOrThrow(),
    );
    assert.equal(session.tester_id, tester);
    assert.equal(session.status, 'active');
    assert.equal(session.due_at!.getTime() - session.started_at.getTime(), TEST_DUE_AFTER_MS);
    assert.ok(session.test_token_hash);

    // The acceptance confirmation carries the token; the business hears "tester matched".
    const confirmation = await bot.waitForMessage(String(chatId), (text) => text.includes('Your test token'));
    assert.match(String(confirmation.params.text), /\n[0-9a-f]{48}\n/);
    await waitFor(async () => (await outboxRows('tester_matched', outreachId)).length === 1);
    const [matched] = await outboxRows('tester_matched', outreachId);
    assert.equal(matched!.channel, 'email');
    assert.match(matched!.subject!, /A tester accepted your study/);

    // Accepting twice answers with a clear message and changes nothing.
    const twice = await press(9003, chatId, `offer:accept:${outreachId}`);
    assert.deepEqual(twice.body.data, { received: true, linked: false, offer: 'already_accepted' });
    await bot.waitForMessage(String(chatId), (text) => text.includes('already accepted'));
    const sessions = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select('id').where('study_id', '=', jobId).execute(),
    );
    assert.equal(sessions.length, 1);

    // Nothing recorded after reminderAfterHours (3): the inactivity reminder.
    const tokenHash = async () =>
      (
        await asSystem(testDatabase(), (tx) =>
          tx
            .selectFrom('sessions')
            .select('test_token_hash')
            .where('id', '=', row.session_id!)
            .executeTakeFirstOrThrow(),
        )
      ).test_token_hash;
    const firstHash = await tokenHash();
    await env.sleep(3 * HOUR_MS + 1_000);
    const idle = await bot.waitForMessage(String(chatId), (text) => text.includes('have not started yet'));
    assert.doesNotMatch(String(idle.params.text), /[0-9a-f]{48}/);
    assert.equal(await tokenHash(), firstHash);

    // 24 hours before the test is due: a reminder with a fresh token (the first one lapses now).
    await env.sleep(TEST_DUE_AFTER_MS - 24 * HOUR_MS - 3 * HOUR_MS);
    const dayBefore = await bot.waitForMessage(String(chatId), (text) => text.includes('due in 24 hours'));
    assert.match(String(dayBefore.params.text), /\n[0-9a-f]{48}\n/);
    assert.notEqual(await tokenHash(), firstHash);
    await env.sleep(22 * HOUR_MS);
    await bot.waitForMessage(String(chatId), (text) => text.includes('due in 2 hours'));
  });

  it('an email offer carries signed links; unanswered, it is reminded 2 hours before and expires, and matching proposes the next tester', async () => {
    // Two places (one tester plus the over-booking margin): the first's offer and a pending proposal.
    const first = await qualifiedTester('BE');
    const filler = await qualifiedTester('BE');
    const jobId = await activeStudy('BE', 1);
    // The offer goes out 3 hours in, so that its expiry (48 hours on) falls between two of
    // matching's 6-hourly rechecks: the time-skipping server strands a workflow task that cancels
    // a timer which fired while the task was with the worker (temporalio/sdk-java#3088), and the
    // expiry's signal waking the study just as its recheck fires would be that task.
    await env.sleep(3 * HOUR_MS);
    const outreachId = await approvedOffer('BE', first, jobId);
    await waitFor(async () => (await proposals(jobId)).some((p) => p.testerId === filler));
    await waitFor(async () => (await outboxRows('study_offer', outreachId))[0]?.status === 'sent');
    const [offer] = await outboxRows('study_offer', outreachId);
    assert.equal(offer!.channel, 'email');
    const secret = api.config.auth.jwtSecret;
    const acceptLink = offerAnswerLink(api.config.http.baseUrl, secret, outreachId, 'accept');
    // The outbox keeps placeholders; the mail sent carries the signed links.
    assert.ok(offer!.body.includes('Accept: {{offer-link:accept}}'), offer!.body);
    assert.doesNotMatch(offer!.body, /signature=/);
    const mails = await Promise.all(
      (await readdir(mailDir)).map((name) => readFile(join(mailDir, name), 'utf8')),
    );
    const sentOffer = mails.find((mail) => mail.includes('This offer is open until'));
    assert.ok(sentOffer, 'the offer was mailed');
    const unfolded = sentOffer.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    assert.ok(unfolded.includes(`Accept: ${acceptLink}`), unfolded);
    assert.ok(
      unfolded.includes(
        `Decline: ${offerAnswerLink(api.config.http.baseUrl, secret, outreachId, 'decline')}`,
      ),
    );

    // A forged signature is refused; the genuine link's page only asks to confirm.
    const path = acceptLink.slice(api.config.http.baseUrl.length);
    const forged = await api.request('GET', path.replace(/signature=.*/, 'signature=forged'));
    assert.equal(forged.status, 404);
    const page = await fetch(`${api.url}${path}`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<button type="submit">Accept the offer<\/button>/);
    assert.equal((await offerRow(outreachId)).offer_status, 'open');

    // A second tester joins the pool while the offer is open: every place is taken (the matching
    // rechecks in the meantime propose nobody) until the offer expires.
    const second = await qualifiedTester('BE');
    await env.sleep(OFFER_WINDOW_MS - OFFER_EXPIRY_REMINDER_MS + 1_000);
    await waitFor(async () => (await outboxRows('offer_expiry_reminder', outreachId)).length === 1);
    assert.equal((await offerRow(outreachId)).offer_status, 'open');
    assert.ok(!(await proposals(jobId)).some((p) => p.testerId === second));
    await env.sleep(OFFER_EXPIRY_REMINDER_MS);
    await waitFor(async () => (await offerRow(outreachId)).offer_status === 'expired');
    await waitFor(async () => (await proposals(jobId)).some((p) => p.testerId === second));
    // The expiry tried again after its first attempt committed still reports the place free.
    const expiredAt = (await offerRow(outreachId)).answered_at!.toISOString();
    assert.equal(await activities.expireOffer({ outreachId, at: expiredAt }), true);
    assert.equal(await activities.withdrawOffer({ outreachId, at: expiredAt }), false);

    // The link after expiry says so and creates nothing.
    const late = await fetch(`${api.url}${path}`, { method: 'POST' });
    assert.equal(late.status, 200);
    assert.match(await late.text(), /This offer has expired; nothing changed\./);
    const sessions = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select('id').where('study_id', '=', jobId).execute(),
    );
    assert.equal(sessions.length, 0);
  });

  it('a declined offer frees its place; a paused study holds approved offers; archiving withdraws open ones', async () => {
    const decliner = await qualifiedTester('DK');
    const held = await qualifiedTester('DK');
    // One tester plus the margin: two places, both taken by the two proposals.
    const jobId = await activeStudy('DK', 1);
    const declined = await approvedOffer('DK', decliner, jobId);
    await waitFor(async () => (await proposals(jobId)).some((p) => p.testerId === held));
    const next = await qualifiedTester('DK');
    const link = offerAnswerLink(api.config.http.baseUrl, api.config.auth.jwtSecret, declined, 'decline');
    await waitFor(async () => (await offerRow(declined)).offer_status === 'open');
    const answer = await fetch(`${api.url}${link.slice(api.config.http.baseUrl.length)}`, { method: 'POST' });
    assert.match(await answer.text(), /You declined the offer/);
    assert.equal((await offerRow(declined)).offer_status, 'declined');
    // The decline freed its place: matching proposes the tester who joined meanwhile.
    await waitFor(async () => (await proposals(jobId)).some((p) => p.testerId === next));
    // Its timer firing now finds the answer: nothing changes and no place is claimed freed twice.
    assert.equal(await activities.expireOffer({ outreachId: declined, at: new Date().toISOString() }), false);
    assert.equal((await offerRow(declined)).offer_status, 'declined');

    const paused = await api.request('PATCH', `/api/jobs/${jobId}`, {
      token: business,
      body: { status: 'paused' },
    });
    assert.equal(paused.status, 200, paused.text);
    const heldOffer = await approvedOffer('DK', held, jobId);
    await env.sleep(60_000);
    assert.equal((await offerRow(heldOffer)).offer_status, null);
    const resumed = await api.request('PATCH', `/api/jobs/${jobId}`, {
      token: business,
      body: { status: 'active' },
    });
    assert.equal(resumed.status, 200, resumed.text);
    await waitFor(async () => (await offerRow(heldOffer)).offer_status === 'open');

    const archived = await api.request('PATCH', `/api/jobs/${jobId}`, {
      token: business,
      body: { status: 'archived' },
    });
    assert.equal(archived.status, 200, archived.text);
    await waitFor(async () => (await offerRow(heldOffer)).offer_status === 'withdrawn');
  });

  it('an offer that finds its study paused is held, not withdrawn; approved messages the workflow never heard of go out once the study is active again', async () => {
    const tester = await qualifiedTester('CH');
    const jobId = await activeStudy('CH', 1);
    await waitFor(async () => (await proposals(jobId)).some((p) => p.testerId === tester));
    const proposal = (await proposals(jobId)).find((p) => p.testerId === tester)!;
    const accepted = await post(`/api/outreach/proposals/${proposal.proposalId}/approve`);
    assert.equal(accepted.status, 200, accepted.text);
    const { outreachId } = accepted.body.data as { outreachId: string };
    const patch = (status: string) =>
      api.request('PATCH', `/api/jobs/${jobId}`, { token: business, body: { status } });
    assert.equal((await patch('paused')).status, 200);
    // Approved behind the workflow's back (as before a restart of it), and its send tried while paused.
    const now = new Date();
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('outreach_messages')
        .set({ status: 'approved', approved_at: now, scheduled_send_at: now })
        .where('id', '=', outreachId)
        .execute(),
    );
    const held = await activities.sendOffer({
      outreachId,
      sentAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + OFFER_WINDOW_MS).toISOString(),
    });
    assert.deepEqual(held, { sent: false, held: true, notificationId: null });
    // Its offer workflow, running while the study is paused, holds it unsent and waits.
    const offer = await env.client.workflow.start(offerWorkflow, {
      taskQueue: `offers-${process.pid}`,
      workflowId: offerWorkflowId(outreachId),
      args: [{ outreachId, studyId: jobId, scheduledSendAt: now.toISOString() }],
    });
    await waitFor(async () => (await offer.query(offerQuery)).stage === 'held');
    assert.equal((await offerRow(outreachId)).offer_status, null);

    // Resumed, the study finds the approved message in the database, its offer running: `resume`.
    assert.equal((await patch('active')).status, 200);
    await waitFor(async () => (await offerRow(outreachId)).offer_status === 'open');
    // The workflow moves its stage once the send's record has landed, a moment after the row shows it.
    await waitFor(async () => (await offer.query(offerQuery)).stage === 'open');
    await waitFor(async () => (await outboxRows('study_offer', outreachId)).length === 1);
  });

  it('a tester suspended while holding an offer cannot accept it: the offer is withdrawn, no session', async () => {
    const chatId = 700_002;
    const tester = await qualifiedTester('FI', { messaging_chat_id: String(chatId) });
    const jobId = await activeStudy('FI', 1);
    const outreachId = await approvedOffer('FI', tester, jobId);
    await waitFor(async () => (await offerRow(outreachId)).offer_status === 'open');
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('users').set({ status: 'suspended' }).where('id', '=', tester).execute(),
    );
    const pressed = await press(9101, chatId, `offer:accept:${outreachId}`);
    assert.deepEqual(pressed.body.data, { received: true, linked: false, offer: 'withdrawn' });
    assert.equal((await offerRow(outreachId)).offer_status, 'withdrawn');
    await bot.waitForMessage(String(chatId), (text) => text.includes('This offer was withdrawn'));
    const sessions = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select('id').where('study_id', '=', jobId).execute(),
    );
    assert.equal(sessions.length, 0);
  });

  it('accepting after the study filled answers so and changes nothing: the offer is withdrawn, no second session', async () => {
    const [firstChat, secondChat] = [700_003, 700_004];
    const first = await qualifiedTester('NL', { messaging_chat_id: String(firstChat) });
    const second = await qualifiedTester('NL', { messaging_chat_id: String(secondChat) });
    // One tester plus the margin: both are proposed and offered.
    const jobId = await activeStudy('NL', 1);
    const firstOffer = await approvedOffer('NL', first, jobId);
    const secondOffer = await approvedOffer('NL', second, jobId);
    await waitFor(async () => (await offerRow(secondOffer)).offer_status === 'open');
    const accepted = await press(9201, firstChat, `offer:accept:${firstOffer}`);
    assert.deepEqual(accepted.body.data, { received: true, linked: false, offer: 'accepted' });
    const late = await press(9202, secondChat, `offer:accept:${secondOffer}`);
    assert.deepEqual(late.body.data, { received: true, linked: false, offer: 'filled' });
    assert.equal((await offerRow(secondOffer)).offer_status, 'withdrawn');
    await bot.waitForMessage(String(secondChat), (text) => text.includes('has all the testers it needs'));
    const sessions = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select('tester_id').where('study_id', '=', jobId).execute(),
    );
    assert.deepEqual(sessions, [{ tester_id: first }]);
  });
});
