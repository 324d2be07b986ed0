import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmailMessage } from '../../clients/email.ts';
import { createMessagingSender } from '../../clients/messaging.ts';
import { TEST_TOKEN_KIND, testTokenMessageBody } from '../../lib/outbox-messages.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { asSystem } from '../../db/doors.ts';
import { queueNotification } from '../../db/repositories/notification-outbox.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { startBotApi, type BotApiServer } from '../support/bot-api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  activeStudy,
  newChatId,
  outboxRows,
  startWorker,
  storedTokenHash,
  testerWithChat,
  TOKEN_IN_TEXT,
  tokenOf,
  waitForOutboxStatus,
} from './delivery-fixtures.ts';
import { DAY, TestClock } from './helpers.ts';

const BOT_TOKEN = '123456:local-test-bot';

describe('POST /api/sessions/:id/test-token and delivery through the messaging channel (bot API)', () => {
  const clock = new TestClock();
  const taskQueue = `test-token-delivery-${process.pid}`;
  let bot: BotApiServer;
  let stopWorker: () => Promise<void>;
  let api: TestApi;
  let business: BusinessFixture;
  let businessJwt: string;
  const mails: EmailMessage[] = [];

  before(async function () {
    this.timeout(90_000);
    bot = await startBotApi();
    stopWorker = await startWorker(
      taskQueue,
      createMessagingSender({ botToken: BOT_TOKEN, apiRoot: bot.url, outboxDir: join(tmpdir(), 'unused') }),
      {
        destination: 'test mailbox',
        send: (message) => {
          mails.push(message);
          return Promise.resolve();
        },
        close: () => {},
      },
    );
    api = await startTestApi({ now: clock.now, worker: false, env: { TEMPORAL_TASK_QUEUE: taskQueue } });
    business = await createBusiness();
    businessJwt = await sessionToken(business.claims, clock.now());
  });
  after(async function () {
    this.timeout(60_000);
    await api.stop();
    await stopWorker();
    await bot.stop();
  });

  async function createSession(testerId: string): Promise<{ sessionId: string; text: string }> {
    const jobId = await activeStudy(business);
    const created = await api.request('POST', '/api/sessions', {
      token: businessJwt,
      body: { jobId, testerId },
    });
    assert.equal(created.status, 201, created.text);
    return { sessionId: (created.body.data as { sessionId: string }).sessionId, text: created.text };
  }

  const issue = (sessionId: string, token = businessJwt) =>
    api.request('POST', `/api/sessions/${sessionId}/test-token`, { token });

  const patchWithTestToken = (sessionId: string, testToken: string) =>
    api.request('PATCH', `/api/sessions/${sessionId}`, { headers: { 'X-Test-Token': testToken }, body: {} });

  it("POST /api/sessions sends the session's token to the tester's chat through the bot API, never in the answer", async () => {
    const chat = newChatId();
    const { sessionId, text } = await createSession(await testerWithChat(chat));
    const message = await bot.waitForMessage(chat, (body) => TOKEN_IN_TEXT.test(body));
    assert.equal(message.token, BOT_TOKEN);
    const token = tokenOf(String(message.params.text))!;
    assert.equal(await storedTokenHash(sessionId), sha256Hex(token), 'the delivered token is the session’s');
    assert.ok(!text.includes(token));
    assert.ok(
      String(message.params.text).includes(`/sessions/${sessionId}/start`),
      'the message links the session start page, whose button hands the session to the extension',
    );
    const row = await waitForOutboxStatus(sessionId, 'sent');
    assert.equal(row.recipient, chat);
    assert.equal(row.payload.secret, undefined, 'the outbox forgets the token once it is delivered');
    assert.equal(row.payload.deliveredVia, 'bot-api');
    assert.ok(!row.body.includes(token));
  });

  it('answers a fresh token once with its expiry; the previous stops working and the fresh one reaches the tester', async () => {
    const chat = newChatId();
    const { sessionId } = await createSession(await testerWithChat(chat));
    const first = tokenOf(
      String((await bot.waitForMessage(chat, (body) => TOKEN_IN_TEXT.test(body))).params.text),
    )!;

    const response = await issue(sessionId);
    assert.equal(response.status, 201, response.text);
    assert.equal(response.headers.get('Cache-Control'), 'no-store');
    const data = response.body.data as { testToken: string; expiresAt: string; messagingQueued: boolean };
    assert.match(data.testToken, /^[0-9a-f]{48}$/);
    assert.notEqual(data.testToken, first);
    assert.equal(data.expiresAt, new Date(clock.now().getTime() + DAY).toISOString());
    assert.equal(data.messagingQueued, true);

    await bot.waitForMessage(chat, (body) => body.includes(data.testToken));
    assert.equal((await patchWithTestToken(sessionId, first)).status, 401);
    assert.ok(![401, 403].includes((await patchWithTestToken(sessionId, data.testToken)).status));
    assert.equal(await storedTokenHash(sessionId), sha256Hex(data.testToken));
  });

  it('a token replaced before its message left the outbox is never sent: the old message is given up', async () => {
    const chat = newChatId();
    const testerId = await testerWithChat(chat);
    const studyId = await activeStudy(business);
    // A session whose first message is still waiting in the outbox (no workflow has taken it yet).
    const { sessionId, waiting } = await asSystem(testDatabase(), async (tx) => {
      const session = await tx
        .insertInto('sessions')
        .values({ study_id: studyId, organization_id: business.organizationId, tester_id: testerId })
        .returning('id')
        .executeTakeFirstOrThrow();
      const expiresAt = new Date(clock.now().getTime() + DAY);
      const message = {
        channel: 'messaging' as const,
        recipient: chat,
        userId: testerId,
        kind: TEST_TOKEN_KIND,
        body: testTokenMessageBody(expiresAt, 'http://service.example/sessions/x/start'),
        secret: 'f'.repeat(48),
        payload: { sessionId: session.id, expiresAt: expiresAt.toISOString() },
      };
      return { sessionId: session.id, waiting: await queueNotification(tx, message, clock.now()) };
    });
    const fresh = (await issue(sessionId)).body.data as { testToken: string };
    await bot.waitForMessage(chat, (body) => body.includes(fresh.testToken));
    const old = (await outboxRows(sessionId)).find((row) => row.id === waiting)!;
    assert.equal(old.status, 'failed');
    assert.match(old.last_error!, /superseded/);
    assert.equal(old.payload.secret, undefined);
  });

  it('a tester without a linked chat gets the token by email, through the outbox, which then forgets it', async () => {
    const testerId = await testerWithChat(null);
    const { email } = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('users').select('email').where('id', '=', testerId).executeTakeFirstOrThrow(),
    );
    const { sessionId } = await createSession(testerId);
    const first = await waitForOutboxStatus(sessionId, 'sent');
    assert.equal(first.channel, 'email');
    assert.equal(first.recipient, email);
    assert.equal(first.payload.secret, undefined, 'the outbox keeps no token once sent');
    const response = await issue(sessionId);
    assert.equal(response.status, 201);
    const data = response.body.data as { testToken: string; messagingQueued: boolean; emailQueued: boolean };
    assert.deepEqual([data.messagingQueued, data.emailQueued], [false, true]);
    for (let waited = 0; !mails.some((mail) => mail.text.includes(data.testToken)); waited += 100) {
      assert.ok(waited < 20_000, 'the mail with the fresh token did not arrive');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const mail = mails.find((sent) => sent.text.includes(data.testToken))!;
    assert.equal(mail.to, email);
    assert.equal(mail.subject, 'Your usability test session is ready');
    assert.match(mail.text, new RegExp(`/sessions/${sessionId}/start\\?start=1`), 'it links the start page');
  });

  it('a chat that refuses the bot (403) gives the message up at once and drops the token from the outbox', async () => {
    const chat = newChatId();
    bot.blockedChats.add(chat);
    const { sessionId } = await createSession(await testerWithChat(chat));
    const row = await waitForOutboxStatus(sessionId, 'failed');
    assert.match(row.last_error!, /blocked/);
    assert.equal(row.payload.secret, undefined);
    assert.equal(row.attempts, 1, 'a permanent refusal is not retried');
  });

  it('the owning business or an admin may issue: testers get 403, another organization 404', async () => {
    const { sessionId } = await createSession(await testerWithChat(null));
    const session = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select('tester_id').where('id', '=', sessionId).executeTakeFirstOrThrow(),
    );
    const ownTester = await sessionToken(
      { sub: session.tester_id, role: 'tester', organization_id: null },
      clock.now(),
    );
    const otherBusiness = await sessionToken((await createBusiness()).claims, clock.now());
    const admin = await sessionToken(
      { sub: randomUUID(), role: 'admin', organization_id: null },
      clock.now(),
    );
    assert.equal((await issue(sessionId, ownTester)).status, 403);
    assert.equal((await issue(sessionId, otherBusiness)).status, 404);
    assert.equal((await issue(sessionId, admin)).status, 201);
    assert.equal((await api.request('POST', `/api/sessions/${sessionId}/test-token`)).status, 401);
  });

  it('answers 409 for a session that is no longer active or paused', async () => {
    const { sessionId } = await createSession(await testerWithChat(null));
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('sessions')
        .set({ status: 'completed', completed_at: clock.now() })
        .where('id', '=', sessionId)
        .execute(),
    );
    const response = await issue(sessionId);
    assert.equal(response.status, 409);
    assert.match(response.body.error!, /active or paused/);
  });
});
