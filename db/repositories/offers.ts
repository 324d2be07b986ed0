import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { OutreachMessagesTable } from '../schema-reports.ts';
import type { OfferStatus } from '../../lib/domain.ts';

// Offers: approved outreach messages once sent (db/migrations/0029). Read and changed through
// the system door by the offer activities; the tester's chat and standing come along.

/** An offer with what sending and answering it needs: its study and its tester. */
export interface OfferRecord extends Selectable<OutreachMessagesTable> {
  readonly study_title: string;
  readonly study_status: string;
  readonly tester_count: number;
  readonly max_duration_minutes: number;
  readonly reminder_after_hours: number | null;
  readonly tester_chat_id: string | null;
  readonly tester_user_status: string;
  readonly tester_profile_status: string | null;
}

/** The offer, locked for the rest of the transaction (the message row only). */
export async function lockOffer(tx: Tx, outreachId: string): Promise<OfferRecord | undefined> {
  const { rows } = await sql<OfferRecord>`
    select m.*, s.title as study_title, s.status as study_status, s.tester_count,
      s.max_duration_minutes, s.reminder_after_hours, p.messaging_chat_id as tester_chat_id, u.status as tester_user_status,
      p.status as tester_profile_status
    from outreach_messages m
    join studies s on s.id = m.study_id
    join users u on u.id = m.tester_id
    left join tester_profiles p on p.user_id = m.tester_id
    where m.id = ${outreachId}
    for update of m`.execute(tx);
  return rows[0];
}

export interface OfferChange {
  readonly status?: 'approved';
  readonly approved_by?: RawBuilder<string | null>;
  readonly approved_at?: Date;
  readonly scheduled_send_at?: Date;
  readonly offer_status?: OfferStatus;
  readonly sent_at?: Date;
  readonly offer_expires_at?: Date;
  readonly answered_at?: Date;
  readonly session_id?: string;
}

export async function changeOffer(tx: Tx, outreachId: string, change: OfferChange, at: Date): Promise<void> {
  await tx
    .updateTable('outreach_messages')
    .set({ ...change, updated_at: at })
    .where('id', '=', outreachId)
    .execute();
}

/**
 * Ends an offer not yet answered as expired or withdrawn; false when its record holds another end
 * (an answer came first). Already so (a retry after its commit) counts as done: the place is free.
 */
export async function closeOffer(
  tx: Tx,
  outreachId: string,
  status: 'expired' | 'withdrawn',
  at: Date,
): Promise<boolean> {
  const offer = await lockOffer(tx, outreachId);
  if (!offer || offer.status !== 'approved') return false;
  if (offer.offer_status === status) return true;
  return endUnanswered(tx, offer, status, at);
}

/** Ends an offer only if it is still unanswered (open, or not yet sent); true when this call did. */
export async function closeOpenOffer(
  tx: Tx,
  outreachId: string,
  status: 'expired' | 'withdrawn',
  at: Date,
): Promise<boolean> {
  const offer = await lockOffer(tx, outreachId);
  return offer?.status === 'approved' && endUnanswered(tx, offer, status, at);
}

async function endUnanswered(
  tx: Tx,
  offer: OfferRecord,
  status: 'expired' | 'withdrawn',
  at: Date,
): Promise<boolean> {
  if (offer.offer_status !== null && offer.offer_status !== 'open') return false;
  await changeOffer(
    tx,
    offer.id,
    { offer_status: status, ...(status === 'expired' ? { answered_at: at } : {}) },
    at,
  );
  return true;
}

/** An open offer as the lifecycle reconciler looks at it. */
export interface OpenOffer {
  readonly id: string;
  readonly study_id: string;
  readonly offer_expires_at: Date | null;
}

/**
 * Open offers sent before `sentBefore`, those looked at longest ago (or never) first, stamped as
 * looked at now: each run of the reconciler takes the next ones in turn.
 */
export async function openOffersToCheck(
  tx: Tx,
  sentBefore: Date,
  limit: number,
  at: Date,
): Promise<OpenOffer[]> {
  const { rows } = await sql<OpenOffer>`
    update outreach_messages set workflow_checked_at = ${at}
    where id in (
      select id from outreach_messages
      where offer_status = 'open' and sent_at < ${sentBefore}
      order by coalesce(workflow_checked_at, sent_at)
      limit ${limit}
      for update skip locked)
    returning id, study_id, offer_expires_at`.execute(tx);
  return rows;
}

/** The study's approved messages not yet sent as offers, in approval order. */
export function unsentOffers(
  tx: Tx,
  studyId: string,
): Promise<{ id: string; scheduled_send_at: Date | null }[]> {
  return tx
    .selectFrom('outreach_messages')
    .select(['id', 'scheduled_send_at'])
    .where('study_id', '=', studyId)
    .where('status', '=', 'approved')
    .where('offer_status', 'is', null)
    .orderBy('approved_at')
    .orderBy('id')
    .execute();
}

/** Withdraws the study's approved messages not yet sent (it stopped recruiting); how many. */
export async function withdrawUnsentOffers(tx: Tx, studyId: string, at: Date): Promise<number> {
  const rows = await tx
    .updateTable('outreach_messages')
    .set({ offer_status: 'withdrawn', updated_at: at })
    .where('study_id', '=', studyId)
    .where('status', '=', 'approved')
    .where('offer_status', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

/** The offer's recorded state, without a lock. */
export function findOffer(
  tx: Tx,
  outreachId: string,
): Promise<
  Pick<Selectable<OutreachMessagesTable>, 'id' | 'tester_id' | 'status' | 'offer_status'> | undefined
> {
  return tx
    .selectFrom('outreach_messages')
    .select(['id', 'tester_id', 'status', 'offer_status'])
    .where('id', '=', outreachId)
    .executeTakeFirst();
}

/** An accepted offer's session as its reminders read it, locked: whether it started and its token. */
export interface RemindedSession {
  readonly id: string;
  readonly status: string;
  readonly tester_id: string;
  readonly due_at: Date | null;
  readonly test_token_expires_at: Date | null;
  readonly max_duration_minutes: number;
  readonly study_title: string;
  readonly recorded_anything: boolean;
}

export async function lockRemindedSession(tx: Tx, sessionId: string): Promise<RemindedSession | undefined> {
  const { rows } = await sql<RemindedSession>`
    select s.id, s.status, s.tester_id, s.due_at, s.test_token_expires_at, st.max_duration_minutes,
      st.title as study_title,
      exists (select 1 from session_events e where e.session_id = s.id) as recorded_anything
    from sessions s join studies st on st.id = s.study_id
    where s.id = ${sessionId}
    for update of s`.execute(tx);
  return rows[0];
}

/**
 * The offers sent to a tester, newest first, through the tester's own door: row-level security
 * shows a tester an outreach message once it went out as an offer (0036), and nothing else of it
 * (a message withdrawn before it was sent was never theirs to read).
 */
export function offersOfTester(tx: Tx, testerId: string, limit: number) {
  return tx
    .selectFrom('outreach_messages')
    .select([
      'id',
      'channel',
      'subject',
      'body',
      'offer_status',
      'sent_at',
      'offer_expires_at',
      'answered_at',
      'session_id',
    ])
    .where('tester_id', '=', testerId)
    .where('sent_at', 'is not', null)
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export type TesterOffer = Awaited<ReturnType<typeof offersOfTester>>[number];

/** Whether the offer is one sent to this tester, as the tester's door sees it. */
export async function isOfferTo(tx: Tx, offerId: string, testerId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('outreach_messages')
    .select('id')
    .where('id', '=', offerId)
    .where('tester_id', '=', testerId)
    .where('sent_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}
