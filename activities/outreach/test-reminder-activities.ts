import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { testerContact } from '../../db/repositories/contacts.ts';
import {
  notificationIdByDedupeKey,
  supersedeNotifications,
} from '../../db/repositories/notification-outbox.ts';
import { lockRemindedSession } from '../../db/repositories/offers.ts';
import { setTestToken } from '../../db/repositories/test-tokens.ts';
import { testReminder, type TestReminderKind } from '../../lib/offer-messages.ts';
import { TEST_TOKEN_KIND } from '../../lib/outbox-messages.ts';
import { mintTestToken } from '../../lib/test-token.ts';
import { queueForTester } from '../notify/queue-for-people.ts';

const STILL_TO_RUN: readonly string[] = ['active', 'paused'];

/** The reminders an accepted offer's tester gets before the test (the offer workflow's timers). */
export function createTestReminderActivities({ db }: { db: Db }) {
  return {
    /**
     * Queues one reminder, once, while the session is still to run: the inactivity reminder only
     * when nothing was recorded yet. A preparation reminder carries a fresh test token when the
     * session has recorded nothing and its token would lapse before the session's time limit
     * (tokens live 24 hours; the test may be due later), replacing the old one. Null when there is
     * nothing to send.
     */
    async remindTester(input: {
      sessionId: string;
      kind: TestReminderKind;
      at: string;
    }): Promise<string | null> {
      const at = new Date(input.at);
      const dedupeKey = `test-reminder:${input.sessionId}:${input.kind}`;
      return asSystem(db, async (tx) => {
        const session = await lockRemindedSession(tx, input.sessionId);
        if (!session?.due_at || !STILL_TO_RUN.includes(session.status)) return null;
        // A retry after the commit: the reminder (and any token it carries) is queued already.
        const queued = await notificationIdByDedupeKey(tx, dedupeKey);
        if (queued) return queued;
        if (input.kind === 'inactivity' && session.recorded_anything) return null;
        const limit = session.due_at.getTime() + session.max_duration_minutes * 60_000;
        const lapses = (session.test_token_expires_at?.getTime() ?? 0) < limit;
        const token =
          input.kind !== 'inactivity' && !session.recorded_anything && lapses ? mintTestToken(at) : undefined;
        if (token) {
          await setTestToken(tx, session.id, token.hash, token.expiresAt);
          await supersedeNotifications(tx, TEST_TOKEN_KIND, session.id);
        }
        const contact = await testerContact(tx, session.tester_id);
        const tester = { id: session.tester_id, email: contact.email, chatId: contact.messaging_chat_id };
        return queueForTester(
          tx,
          tester,
          {
            kind: token ? TEST_TOKEN_KIND : 'test_reminder',
            dedupeKey,
            body: testReminder(input.kind, { title: session.study_title, dueAt: session.due_at }, token),
            subject: `Your test of "${session.study_title}"`,
            payload: {
              sessionId: session.id,
              reminder: input.kind,
              ...(token ? { secret: token.token, expiresAt: token.expiresAt.toISOString() } : {}),
            },
          },
          at,
        );
      });
    },
  };
}

export type TestReminderActivities = ReturnType<typeof createTestReminderActivities>;
