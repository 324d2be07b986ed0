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

/** The payout is with the provider; a payment already settled as paid is left alone. */
export async function recordPayoutSent(
  tx: Tx,
  id: string,
  sent: { payoutId: string; attempt: number },
): Promise<void> {
  await tx
    .updateTable('payments')
    .set({
      status: 'processing',
      provider_payout_id: sent.payoutId,
      attempts: sent.attempt,
      next_attempt_at: null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('status', '<>', 'paid')
    .execute();
}

export interface PayoutFailure {
  readonly attempt?: number;
  readonly code: string | null;
  readonly message: string | null;
  readonly at: Date;
}

/** A refused or failed payout; returns the row, or undefined when it was already paid. */
export function recordPayoutFailed(
  tx: Tx,
  id: string,
  failure: PayoutFailure,
): Promise<PaymentRow | undefined> {
  return tx
    .updateTable('payments')
    .set({
      status: 'failed',
      failed_at: failure.at,
      failure_code: failure.code?.slice(0, 100) ?? null,
      failure_message: failure.message?.slice(0, 2000) ?? null,
      ...(failure.attempt === undefined ? {} : { attempts: failure.attempt }),
      updated_at: failure.at,
    })
    .where('id', '=', id)
    .where('status', '<>', 'paid')
    .returningAll()
    .executeTakeFirst();
}

export async function recordRetryQueued(tx: Tx, id: string, at: Date | null): Promise<void> {
  await tx
    .updateTable('payments')
    .set({ next_attempt_at: at, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

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
    .returningAll()
    .executeTakeFirst();
}

/**
 * The payment a payout event is about: by the payout id recorded on it, or by the payment id the
 * payout carries in its metadata while that payment has not recorded another payout since (an
 * event about an older attempt's payout must not settle the current one).
 */
export function paymentOfPayout(
  tx: Tx,
  payoutId: string,
  paymentIdFromMetadata: string | undefined,
): Promise<PaymentRow | undefined> {
  return tx
    .selectFrom('payments')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('provider_payout_id', '=', payoutId),
        ...(paymentIdFromMetadata && /^[0-9a-f-]{36}$/i.test(paymentIdFromMetadata)
          ? [eb.and([eb('id', '=', paymentIdFromMetadata), eb('provider_payout_id', 'is', null)])]
          : []),
      ]),
    )
    .executeTakeFirst();
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
