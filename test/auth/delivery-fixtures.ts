import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { EmailSender } from '../../clients/email.ts';
import type { MessagingSender } from '../../clients/messaging.ts';
import { TEST_TOKEN_KIND } from '../../lib/outbox-messages.ts';
import { asSystem } from '../../db/doors.ts';
import type { NotificationRow } from '../../db/repositories/notification-outbox.ts';
import { testDatabase } from '../support/database.ts';
import type { BusinessFixture } from '../support/factories.ts';
import { createTestServiceWorker } from '../support/temporal.ts';
import { insertStudy, testerWithProfile } from './helpers.ts';

/** A test token inside a message text. */
export const TOKEN_IN_TEXT = /\b([0-9a-f]{48})\b/;
export const tokenOf = (text: string) => TOKEN_IN_TEXT.exec(text)?.[1];

/** A chat id no other test uses. */
export const newChatId = () => String(100_000 + Math.floor(Math.random() * 1_000_000_000));

/** A service worker on a task queue of its own, with the messaging channel (and mail) the test chooses. */
export async function startWorker(
  taskQueue: string,
  messaging: MessagingSender,
  email?: EmailSender,
): Promise<() => Promise<void>> {
  const worker = await createTestServiceWorker(taskQueue, { messaging, ...(email ? { email } : {}) });
  const running = worker.run();
  return async () => {
    worker.shutdown();
    await running;
  };
}

/** The id of an eligible tester; `chatId` is where the messaging channel reaches them (null: not linked). */
export const testerWithChat = async (chatId: string | null): Promise<string> =>
  (await testerWithProfile(chatId)).sub;

export const activeStudy = (business: BusinessFixture): Promise<string> =>
  insertStudy(business.organizationId, { status: 'active' });

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
