import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessagingSender } from '../../clients/messaging.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  activeStudy,
  newChatId,
  startWorker,
  storedTokenHash,
  testerWithChat,
  tokenOf,
  waitForOutboxStatus,
} from './delivery-fixtures.ts';

describe('test-token delivery without a bot token (local outbox)', () => {
  const taskQueue = `test-token-outbox-${process.pid}`;
  let outboxDir: string;
  let stopWorker: () => Promise<void>;
  let api: TestApi;

  before(async function () {
    this.timeout(90_000);
    outboxDir = await mkdtemp(join(tmpdir(), 'messaging-outbox-'));
    stopWorker = await startWorker(
      taskQueue,
      createMessagingSender({ botToken: undefined, apiRoot: undefined, outboxDir }),
    );
    api = await startTestApi({ worker: false, env: { TEMPORAL_TASK_QUEUE: taskQueue } });
  });
  after(async function () {
    this.timeout(60_000);
    await api.stop();
    await stopWorker();
    await rm(outboxDir, { recursive: true, force: true });
  });

  it('writes the sendMessage call to the outbox folder and records the delivery as local', async () => {
    const business = await createBusiness();
    const chat = newChatId();
    const testerId = await testerWithChat(chat);
    const jobId = await activeStudy(business);
    const created = await api.request('POST', '/api/sessions', {
      token: await sessionToken(business.claims),
      body: { jobId, testerId },
    });
    assert.equal(created.status, 201, created.text);
    const sessionId = (created.body.data as { sessionId: string }).sessionId;
    const row = await waitForOutboxStatus(sessionId, 'sent');
    assert.equal(row.payload.deliveredVia, `local-outbox:${outboxDir}`);
    const files = (await readdir(outboxDir)).filter((name) => name.endsWith('.messaging.json'));
    assert.equal(files.length, 1);
    const call = JSON.parse(await readFile(join(outboxDir, files[0]!), 'utf8')) as {
      method: string;
      chat_id: string;
      text: string;
    };
    assert.equal(call.method, 'sendMessage');
    assert.equal(call.chat_id, chat);
    assert.equal(await storedTokenHash(sessionId), sha256Hex(tokenOf(call.text)!));
  });
});
