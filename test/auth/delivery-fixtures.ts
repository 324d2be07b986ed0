import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from '@temporalio/worker';
import { sql } from 'kysely';
import type { MessagingSender } from '../../activities/notify/messaging.ts';
import { TEST_TOKEN_KIND } from '../../activities/notify/outbox-messages.ts';
import { asSystem } from '../../db/doors.ts';
import type { NotificationRow } from '../../db/repositories/notification-outbox.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createTester, type BusinessFixture } from '../support/factories.ts';
import { temporalEnvironment, workflowBundle } from '../support/temporal.ts';
import { insertStudy } from './helpers.ts';

/** A test token inside a message text. */
export const TOKEN_IN_TEXT = /\b([0-9a-f]{48})\b/;
export const tokenOf = (text: string) => TOKEN_IN_TEXT.exec(text)?.[1];

/** A chat id no other test uses. */
export const newChatId = () => String(100_000 + Math.floor(Math.random() * 1_000_000_000));

/** A service worker on a task queue of its own, with the messaging channel the test chooses. */
export async function startWorker(
  taskQueue: string,
  messaging: MessagingSender,
): Promise<() => Promise<void>> {
  const env = await temporalEnvironment();
  const worker: Worker = await createServiceWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(),
    db: serviceDatabase(),
    messaging,
  });
  const running = worker.run();
  return async () => {
    worker.shutdown();
    await running;
  };
}

/** An eligible tester; `chatId` is where the messaging channel reaches them (null: not linked). */
export async function testerWithChat(chatId: string | null): Promise<string> {
  const tester = await createTester();
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('tester_profiles')
      .values({
        user_id: tester.sub,
        country: 'GB',
        devices: ['desktop'],
        status: 'active',
        messaging_chat_id: chatId,
      })
      .execute(),
  );
  return tester.sub;
}

export async function activeStudy(business: BusinessFixture): Promise<string> {
  const studyId = await insertStudy(business.organizationId);
  await asSystem(testDatabase(), (tx) =>
    tx.updateTable('studies').set({ status: 'active' }).where('id', '=', studyId).execute(),
  );
  return studyId;
}

export async function storedTokenHash(sessionId: string): Promise<string | null> {
  const row = await asSystem(testDatabase(), (tx) =>
    tx.selectFrom('sessions').select('test_token_hash').where('id', '=', sessionId).executeTakeFirstOrThrow(),
  );
  return row.test_token_hash;
}

/** The test-token messages of a session in the outbox, oldest first. */
export function outboxRows(sessionId: string): Promise<NotificationRow[]> {
  return asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('notification_outbox')
      .selectAll()
      .where('kind', '=', TEST_TOKEN_KIND)
      .where(sql<boolean>`payload ->> 'sessionId' = ${sessionId}`)
      .orderBy('created_at')
      .execute(),
  );
}

/** Polls until the session's latest message reaches `status` (the workflow records its outcome there). */
export async function waitForOutboxStatus(sessionId: string, status: string): Promise<NotificationRow> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const row = (await outboxRows(sessionId)).at(-1);
    if (row?.status === status) return row;
    await sleep(50);
  }
  assert.fail(`the outbox message of session ${sessionId} never became ${status}`);
}
