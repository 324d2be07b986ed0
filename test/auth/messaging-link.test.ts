import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { asSystem, type Claims } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { MINUTE, TestClock, testerWithProfile } from './helpers.ts';

const SECRET = 'messaging-webhook-secret-0123';

const chatOf = (userId: string) =>
  asSystem(testDatabase(), async (tx) => {
    const row = await tx
      .selectFrom('tester_profiles')
      .select('messaging_chat_id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return row.messaging_chat_id;
  });

const recorded = (updateId: number) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('provider_events')
      .selectAll()
      .where('provider', '=', 'messaging')
      .where('id', '=', String(updateId))
      .executeTakeFirst(),
  );

/** A text message update as the bot API sends it (grammy's Update). */
function textUpdate(text: string, chatId: number, chatType = 'private') {
  const updateId = randomInt(1, 2 ** 31);
  return {
    updateId,
    body: {
      update_id: updateId,
      message: {
        message_id: randomInt(1, 1_000_000),
        date: 1_893_456_000,
        from: { id: chatId, is_bot: false, first_name: 'Tess' },
        chat:
          chatType === 'private'
            ? { id: chatId, type: 'private', first_name: 'Tess' }
            : { id: chatId, type: chatType, title: 'A group' },
        text,
      },
    },
  };
}

describe("linking a tester's chat: POST /api/auth/messaging-link and POST /api/webhooks/messaging", () => {
  const clock = new TestClock();
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ now: clock.now, worker: false, env: { MESSAGING_WEBHOOK_SECRET: SECRET } });
  });
  after(() => api.stop());

  const deliver = (body: unknown, headers: Record<string, string> = { 'x-webhook-secret': SECRET }) =>
    api.request('POST', '/api/webhooks/messaging', { body, headers });

  async function linkCode(tester: Claims): Promise<string> {
    const response = await api.request('POST', '/api/auth/messaging-link', {
      token: await sessionToken(tester, clock.now()),
    });
    assert.equal(response.status, 201, response.text);
    const data = response.body.data as { code: string; startCommand: string; expiresAt: string };
    assert.match(data.code, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(data.startCommand, `/start ${data.code}`);
    assert.equal(data.expiresAt, new Date(clock.now().getTime() + 15 * MINUTE).toISOString());
    assert.equal(response.headers.get('Cache-Control'), 'no-store');
    return data.code;
  }

  it('without x-webhook-secret, or with a wrong one: 401 in the envelope, and nothing is recorded', async () => {
    const { updateId, body } = textUpdate('hello', 4242);
    const attempts: Record<string, string>[] = [{}, { 'x-webhook-secret': `${SECRET}-wrong` }];
    for (const headers of attempts) {
      const response = await deliver(body, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, {
        success: false,
        data: null,
        error: 'Webhook secret missing or invalid',
        metadata: null,
      });
    }
    assert.equal(await recorded(updateId), undefined);
  });

  it('/start <code> in a private chat links that chat to the tester who asked for the code', async () => {
    const tester = await testerWithProfile();
    const code = await linkCode(tester);
    const chatId = randomInt(1, 2 ** 40);
    const { updateId, body } = textUpdate(`/start ${code}`, chatId);
    const response = await deliver(body);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.data, { received: true, linked: true });
    assert.equal(await chatOf(tester.sub), String(chatId));
    const event = await recorded(updateId);
    assert.ok(event?.processed_at);
    assert.equal(event.processing_error, null);
    assert.equal(event.type, 'message');
    // The record keeps the command, not the code.
    assert.ok(!JSON.stringify(event.payload).includes(code));
  });

  it("the bot API's own secret header (X-Telegram-Bot-Api-Secret-Token) is accepted as well", async () => {
    const tester = await testerWithProfile();
    const code = await linkCode(tester);
    const chatId = randomInt(1, 2 ** 40);
    const response = await deliver(textUpdate(`/start ${code}`, chatId).body, {
      'X-Telegram-Bot-Api-Secret-Token': SECRET,
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(await chatOf(tester.sub), String(chatId));
  });

  it('a code links once; a newer code replaces an older one; codes expire after 15 minutes', async () => {
    const tester = await testerWithProfile();
    const first = await linkCode(tester);
    const second = await linkCode(tester);
    const older = await deliver(textUpdate(`/start ${first}`, 111).body);
    assert.deepEqual(older.body.data, { received: true, linked: false });
    assert.equal(await chatOf(tester.sub), null);

    assert.deepEqual((await deliver(textUpdate(`/start ${second}`, 222).body)).body.data, {
      received: true,
      linked: true,
    });
    const reused = textUpdate(`/start ${second}`, 333);
    assert.deepEqual((await deliver(reused.body)).body.data, { received: true, linked: false });
    assert.equal(await chatOf(tester.sub), '222');
    assert.equal((await recorded(reused.updateId))?.processing_error, 'unknown, expired or used link code');

    const late = await linkCode(tester);
    clock.advance(15 * MINUTE + 1000);
    assert.deepEqual((await deliver(textUpdate(`/start ${late}`, 444).body)).body.data, {
      received: true,
      linked: false,
    });
    assert.equal(await chatOf(tester.sub), '222');
  });

  it("a code sent in a group chat links nothing: the chat must be the tester's own", async () => {
    const tester = await testerWithProfile();
    const code = await linkCode(tester);
    const response = await deliver(textUpdate(`/start ${code}`, -100_555, 'group').body);
    assert.deepEqual(response.body.data, { received: true, linked: false });
    assert.equal(await chatOf(tester.sub), null);
  });

  it('linking a chat moves it from any tester it was linked to before', async () => {
    const before = await testerWithProfile();
    const now = await testerWithProfile();
    const chatId = randomInt(1, 2 ** 40);
    await deliver(textUpdate(`/start ${await linkCode(before)}`, chatId).body);
    await deliver(textUpdate(`/start ${await linkCode(now)}`, chatId).body);
    assert.equal(await chatOf(before.sub), null);
    assert.equal(await chatOf(now.sub), String(chatId));
  });

  it('other updates are recorded and answered 200; a repeated update changes nothing', async () => {
    const { updateId, body } = textUpdate('hello there', 999);
    assert.equal((await deliver(body)).status, 200);
    const first = await recorded(updateId);
    assert.equal(first?.type, 'message');
    assert.equal((first?.payload as { message: { text: string } }).message.text, 'hello there');
    const callback = { update_id: randomInt(1, 2 ** 31), callback_query: { id: 'q1', chat_instance: 'c' } };
    assert.equal((await deliver(callback)).status, 200);
    assert.equal((await recorded(callback.update_id))?.type, 'callback_query');

    // The bot API delivers again when it did not see our answer: one record, acted on once.
    const tester = await testerWithProfile();
    const link = textUpdate(`/start ${await linkCode(tester)}`, 777);
    assert.deepEqual((await deliver(link.body)).body.data, { received: true, linked: true });
    assert.deepEqual((await deliver(link.body)).body.data, { received: true, linked: false });
    assert.equal(await chatOf(tester.sub), '777');
  });

  it('a body that is not JSON is 400; an update without update_id is 422 naming it', async () => {
    const notJson = await api.request('POST', '/api/webhooks/messaging', {
      rawBody: '{"update_id": ',
      headers: { 'x-webhook-secret': SECRET },
    });
    assert.equal(notJson.status, 400);
    const invalid = await deliver({ message: { text: 'hi' } });
    assert.equal(invalid.status, 422);
    assert.match(invalid.body.error ?? '', /^update_id: /);
  });

  it('codes are for testers with a profile: a business gets 403, a tester without a profile 409', async () => {
    const business = await createBusiness();
    const asBusiness = await api.request('POST', '/api/auth/messaging-link', {
      token: await sessionToken(business.claims, clock.now()),
    });
    assert.equal(asBusiness.status, 403);
    const withoutProfile = await api.request('POST', '/api/auth/messaging-link', {
      token: await sessionToken(await createTester(), clock.now()),
    });
    assert.equal(withoutProfile.status, 409);
    assert.equal((await api.request('POST', '/api/auth/messaging-link')).status, 401);
  });

  it("counts a verified update against the webhook route's 1,000 a minute, a refused one against the sender's 30", async () => {
    const verified = await deliver(textUpdate('hello', 5150).body);
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.headers.get('RateLimit-Limit'), '1000');
    const next = await deliver(textUpdate('hello again', 5150).body);
    assert.equal(
      Number(next.headers.get('RateLimit-Remaining')),
      Number(verified.headers.get('RateLimit-Remaining')) - 1,
    );
    const refused = await deliver(textUpdate('hello', 5150).body, { 'x-webhook-secret': `${SECRET}-wrong` });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('RateLimit-Limit'), '30');
  });

  it('an update over 1 MB is 413 and is not recorded', async () => {
    const { updateId, body } = textUpdate(`/start ${'x'.repeat(1024 * 1024)}`, 6160);
    const response = await deliver(body);
    assert.equal(response.status, 413, response.text);
    assert.equal(response.body.error, `Body larger than ${1024 * 1024} bytes`);
    assert.equal(await recorded(updateId), undefined);
  });

  it('is off (503 naming the variable) while MESSAGING_WEBHOOK_SECRET is unset', async () => {
    const unconfigured = await startTestApi({ now: clock.now, worker: false });
    try {
      const response = await unconfigured.request('POST', '/api/webhooks/messaging', {
        body: textUpdate('hello', 1).body,
        headers: { 'x-webhook-secret': SECRET },
      });
      assert.equal(response.status, 503);
      assert.equal(response.body.error, 'This endpoint is off: MESSAGING_WEBHOOK_SECRET is not configured');
    } finally {
      await unconfigured.stop();
    }
  });
});
