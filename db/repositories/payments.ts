import { sql, type Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { PaymentsTable } from '../schema-payments.ts';

// Session payments (0008, 0019). Written only through the system door: webhooks and payouts.

export type PaymentRow = Selectable<PaymentsTable>;

export function findPayment(tx: Tx, id: string): Promise<PaymentRow | undefined> {
  return tx.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The study's confirmed sessions that have no payment row yet get one (queued at the study's
 * compensation, as the session workflow queues it), then every payment not yet paid is returned.
 */
export async function unpaidPaymentsOfStudy(tx: Tx, studyId: string): Promise<PaymentRow[]> {
  await sql`
    insert into payments (organization_id, study_id, session_id, tester_id, amount, currency)
    select s.organization_id, s.study_id, s.id, s.tester_id, st.compensation_amount, st.compensation_currency
    from sessions s join studies st on st.id = s.study_id
    where s.study_id = ${studyId} and s.status = 'confirmed' and st.compensation_amount > 0
    on conflict (session_id) do nothing`.execute(tx);
  return tx
    .selectFrom('payments')
    .selectAll()
    .where('study_id', '=', studyId)
    .where('status', '<>', 'paid')
    .orderBy('queued_at')
    .execute();
}

export async function recordTransfer(tx: Tx, id: string, transferId: string): Promise<void> {
  await tx
    .updateTable('payments')
    .set({ provider_transfer_id: transferId, updated_at: new Date() })
    .where('id', '=', id)
    .where('provider_transfer_id', 'is', null)
    .execute();
}

/**
 * The payout is with the provider. A payment already settled as paid is left alone, and so is a
 * failure of this very payout that its `payout.failed` recorded before this call (the event can
 * beat the activity's own write): only the attempt count is brought up to date then.
 */
export async function recordPayoutSent(
  tx: Tx,
  id: string,
  sent: { payoutId: string; attempt: number },
): Promise<void> {
  const failedAlready = sql<boolean>`status = 'failed' and provider_payout_id = ${sent.payoutId}`;
  await tx
    .updateTable('payments')
    .set({
      status: sql`case when ${failedAlready} then status else 'processing' end`,
      provider_payout_id: sent.payoutId,
      attempts: sent.attempt,
      next_attempt_at: sql`case when ${failedAlready} then next_attempt_at else null end`,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '<>', 'paid')
    .execute();
}

export interface PayoutFailure {
  /** The attempt that failed; the recorded count never goes down. */
  readonly attempt?: number;
  /** The payout that failed, when a provider event names it (the payment's current payout or a newer one). */
  readonly payoutId?: string;
  readonly code: string | null;
  readonly message: string | null;
  readonly at: Date;
}

/**
 * A refused or failed payout; returns the row, or undefined when nothing changed. A paid payment
 * fails again only by a failure of the payout that paid it (the bank returned it after the
 * provider reported it paid).
 */
export function recordPayoutFailed(
  tx: Tx,
  id: string,
  failure: PayoutFailure,
): Promise<PaymentRow | undefined> {
  return tx
    .updateTable('payments')
    .set({
      status: 'failed',
      paid_at: null,
      failed_at: failure.at,
      failure_code: failure.code?.slice(0, 100) ?? null,
      failure_message: failure.message?.slice(0, 2000) ?? null,
      ...(failure.attempt === undefined
        ? {}
        : { attempts: sql<number>`greatest(attempts, ${failure.attempt})` }),
      ...(failure.payoutId === undefined ? {} : { provider_payout_id: failure.payoutId }),
      updated_at: failure.at,
    })
    .where('id', '=', id)
    .where((eb) =>
      failure.payoutId === undefined
        ? eb('status', '<>', 'paid')
        : eb.or([eb('status', '<>', 'paid'), eb('provider_payout_id', '=', failure.payoutId)]),
    )
    .returningAll()
    .executeTakeFirst();
}

/**
 * When the next attempt runs: `delayMs` after the recorded failure (null: no retry is queued).
 * Returns the time recorded, which the admins' alert names.
 */
export async function recordRetryQueued(tx: Tx, id: string, delayMs: number | null): Promise<Date | null> {
  const row = await tx
    .updateTable('payments')
    .set({
      next_attempt_at:
        delayMs === null
          ? null
          : sql<Date>`coalesce(failed_at, now()) + make_interval(secs => ${delayMs / 1000})`,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returning('next_attempt_at')
    .executeTakeFirst();
  return row?.next_attempt_at ?? null;
}

/**
 * The payout settled as paid. A payment whose current payout the provider already reported
 * failed stays failed: a failed payout never becomes paid, so such a `payout.paid` arrived late.
 */
export function markPaymentPaid(
  tx: Tx,
  id: string,
  settled: { payoutId: string; paidAt: Date },
): Promise<PaymentRow | undefined> {
  return tx
    .updateTable('payments')
    .set({
      status: 'paid',
      paid_at: settled.paidAt,
      provider_payout_id: settled.payoutId,
      next_attempt_at: null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '<>', 'paid')
    .where((eb) =>
      eb.not(eb.and([eb('status', '=', 'failed'), eb('provider_payout_id', '=', settled.payoutId)])),
    )
    .returningAll()
    .executeTakeFirst();
}

/** What a payout carries in its metadata (clients/payments/provider.ts, MoneyMovement). */
export interface PayoutMetadata {
  readonly paymentId?: string | undefined;
  readonly attempt?: number | undefined;
}

/**
 * The payment a payout event is about: the payment that recorded this payout, or the one the
 * payout's metadata names while that payout is newer than the payment's recorded one (an event
 * can arrive before the activity that made the payout records it). An event about an older
 * attempt's payout settles nothing: its attempt is not above the payment's recorded attempts (or,
 * for payouts without an attempt in their metadata, the payment has recorded a payout since).
 */
export function paymentOfPayout(
  tx: Tx,
  payoutId: string,
  metadata: PayoutMetadata,
): Promise<PaymentRow | undefined> {
  const { paymentId, attempt } = metadata;
  const named = paymentId && /^[0-9a-f-]{36}$/i.test(paymentId) ? paymentId : undefined;
  return (
    tx
      .selectFrom('payments')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('provider_payout_id', '=', payoutId),
          ...(named
            ? [
                eb.and([
                  eb('id', '=', named),
                  attempt === undefined ? eb('provider_payout_id', 'is', null) : eb('attempts', '<', attempt),
                ]),
              ]
            : []),
        ]),
      )
      // The payment that recorded this payout comes first, should another payment name it too.
      .orderBy(sql`provider_payout_id is not distinct from ${payoutId}`, 'desc')
      .executeTakeFirst()
  );
}

/** Payments of a tester that wait for a payout account able to receive them. */
export async function waitingPaymentIdsOfTester(tx: Tx, testerId: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('payments')
    .select('id')
    .where('tester_id', '=', testerId)
    .where('status', 'in', ['queued', 'failed'])
    .execute();
  return rows.map((row) => row.id);
}
