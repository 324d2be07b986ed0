import type { Tx } from '../../db/doors.ts';
import { studyContacts, testerDestination } from '../../db/repositories/contacts.ts';
import { queueNotificationOnce } from '../../db/repositories/notification-outbox.ts';

// Whom a queued message reaches: a tester in their linked chat (else by email), or the people a
// study's mail goes to. Each message is queued once per dedupe key; a workflow delivers it.

export interface PersonMessage {
  readonly kind: string;
  /** Unique per message and recipient; the study's contacts add their own id to it. */
  readonly dedupeKey: string;
  readonly body: string;
  /** Used when the message goes by email. */
  readonly subject: string;
  readonly payload?: Record<string, unknown>;
}

export interface TesterAddress {
  readonly id: string;
  readonly email: string;
  readonly chatId: string | null;
}

/** To the tester's linked chat, else by email with the subject. */
export function queueForTester(
  tx: Tx,
  tester: TesterAddress,
  message: PersonMessage,
  at: Date,
): Promise<string> {
  return queueNotificationOnce(
    tx,
    {
      ...testerDestination(tester.chatId, tester.email, message.subject),
      userId: tester.id,
      kind: message.kind,
      body: message.body,
      dedupeKey: message.dedupeKey,
      payload: message.payload ?? {},
    },
    at,
  );
}

/** By email to the study's creator, or its organization's owners when the creator is gone. */
export async function queueForStudyContacts(
  tx: Tx,
  studyId: string,
  message: PersonMessage,
  at: Date,
): Promise<string[]> {
  const ids = [];
  for (const contact of await studyContacts(tx, studyId)) {
    ids.push(
      await queueNotificationOnce(
        tx,
        {
          channel: 'email',
          recipient: contact.email,
          userId: contact.id,
          kind: message.kind,
          subject: message.subject,
          body: message.body,
          dedupeKey: `${message.dedupeKey}:${contact.id}`,
          payload: message.payload ?? {},
        },
        at,
      ),
    );
  }
  return ids;
}
