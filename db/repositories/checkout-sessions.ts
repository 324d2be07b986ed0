import type { Insertable, Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { CheckoutSessionsTable } from '../schema-payments.ts';
import type { StudyRow } from './studies.ts';

// Checkout sessions of studies (0019). Written through the system door; the organization reads them.

export type CheckoutSessionRow = Selectable<CheckoutSessionsTable>;

/**
 * Stores a session; the same provider id twice (a concurrent retry with the same key) is one row.
 * An id already stored for another study is refused rather than handed out.
 */
export async function insertCheckoutSession(
  tx: Tx,
  session: Insertable<CheckoutSessionsTable>,
): Promise<CheckoutSessionRow> {
  await tx
    .insertInto('checkout_sessions')
    .values(session)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return tx
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('id', '=', session.id)
    .where('study_id', '=', session.study_id)
    .executeTakeFirstOrThrow(() => new Error(`Checkout session ${session.id} belongs to another study`));
}

/** An open session of the study that has not expired: a second checkout returns it. */
export function openCheckoutOf(tx: Tx, studyId: string, now: Date): Promise<CheckoutSessionRow | undefined> {
  return tx
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('study_id', '=', studyId)
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function checkoutCountOf(tx: Tx, studyId: string): Promise<number> {
  const row = await tx
    .selectFrom('checkout_sessions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('study_id', '=', studyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findCheckoutSession(tx: Tx, id: string): Promise<CheckoutSessionRow | undefined> {
  return tx.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks the session complete; undefined when it already was. */
export function completeCheckoutSession(
  tx: Tx,
  id: string,
  at: Date,
): Promise<CheckoutSessionRow | undefined> {
  return tx
    .updateTable('checkout_sessions')
    .set({ status: 'complete', completed_at: at })
    .where('id', '=', id)
    .where('status', '<>', 'complete')
    .returningAll()
    .executeTakeFirst();
}

/** What a checkout charges for: the study's status, payment and compensation, as the caller may see it. */
export function studyForCheckout(
  tx: Tx,
  studyId: string,
): Promise<
  | Pick<
      StudyRow,
      | 'id'
      | 'organization_id'
      | 'title'
      | 'status'
      | 'paid_at'
      | 'tester_count'
      | 'compensation_amount'
      | 'compensation_currency'
    >
  | undefined
> {
  return tx
    .selectFrom('studies')
    .select([
      'id',
      'organization_id',
      'title',
      'status',
      'paid_at',
      'tester_count',
      'compensation_amount',
      'compensation_currency',
    ])
    .where('id', '=', studyId)
    .executeTakeFirst();
}

/** The study is paid from the provider's word on; the first confirmation's time is kept. */
export async function markStudyPaid(tx: Tx, studyId: string, at: Date): Promise<void> {
  await tx
    .updateTable('studies')
    .set({ paid_at: at, updated_at: at })
    .where('id', '=', studyId)
    .where('paid_at', 'is', null)
    .execute();
}

/** Completed checkouts of the billing period, oldest first, for invoices. */
export function completedCheckoutsBetween(tx: Tx, from: Date, to: Date) {
  return tx
    .selectFrom('checkout_sessions')
    .innerJoin('studies', 'studies.id', 'checkout_sessions.study_id')
    .select([
      'checkout_sessions.id',
      'checkout_sessions.organization_id',
      'checkout_sessions.study_id',
      'checkout_sessions.amount_total',
      'checkout_sessions.currency',
      'checkout_sessions.completed_at',
      'studies.title',
      'studies.tester_count',
    ])
    .where('checkout_sessions.status', '=', 'complete')
    .where('checkout_sessions.completed_at', '>=', from)
    .where('checkout_sessions.completed_at', '<', to)
    .orderBy('checkout_sessions.completed_at')
    .execute();
}
