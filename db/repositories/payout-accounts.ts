import type { Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { PayoutAccountsTable } from '../schema-testers.ts';

// Testers' connected payout accounts (0004): mirrored from the provider, written by the system.

export type PayoutAccountRow = Selectable<PayoutAccountsTable>;

export function payoutAccountOfTester(tx: Tx, testerId: string): Promise<PayoutAccountRow | undefined> {
  return tx.selectFrom('payout_accounts').selectAll().where('tester_id', '=', testerId).executeTakeFirst();
}

/** The account the provider's id names (its events and hosted pages name accounts by it). */
export function payoutAccountByProviderId(
  tx: Tx,
  providerAccountId: string,
): Promise<PayoutAccountRow | undefined> {
  return tx
    .selectFrom('payout_accounts')
    .selectAll()
    .where('provider_account_id', '=', providerAccountId)
    .executeTakeFirst();
}

/** One account per tester: a concurrent second insert keeps the first and returns it. */
export async function insertPayoutAccount(
  tx: Tx,
  testerId: string,
  providerAccountId: string,
): Promise<PayoutAccountRow> {
  await tx
    .insertInto('payout_accounts')
    .values({ tester_id: testerId, provider_account_id: providerAccountId })
    .onConflict((oc) => oc.column('tester_id').doNothing())
    .execute();
  return (await payoutAccountOfTester(tx, testerId))!;
}

export interface AccountState {
  readonly chargesEnabled: boolean;
  readonly payoutsEnabled: boolean;
  readonly detailsSubmitted: boolean;
  readonly currentlyDue: readonly string[];
  readonly eventuallyDue: readonly string[];
}

export type AccountStateOutcome = 'applied' | 'stale' | 'unknown';

/**
 * Mirrors the provider's `account.updated`: verified once payouts are enabled with nothing due,
 * restricted when something is due now, onboarding otherwise. Deliveries arrive in any order, so
 * an event older (by the provider's `created`) than the last one applied changes nothing.
 */
export async function applyAccountState(
  tx: Tx,
  providerAccountId: string,
  state: AccountState,
  eventCreatedAt: Date,
): Promise<{ outcome: AccountStateOutcome; account: PayoutAccountRow | undefined }> {
  const status =
    state.payoutsEnabled && state.currentlyDue.length === 0
      ? 'verified'
      : state.currentlyDue.length > 0 && state.detailsSubmitted
        ? 'restricted'
        : 'onboarding';
  const applied = await tx
    .updateTable('payout_accounts')
    .set({
      status,
      charges_enabled: state.chargesEnabled,
      payouts_enabled: state.payoutsEnabled,
      details_submitted: state.detailsSubmitted,
      requirements_currently_due: [...state.currentlyDue],
      requirements_eventually_due: [...state.eventuallyDue],
      last_event_created_at: eventCreatedAt,
      updated_at: new Date(),
    })
    .where('provider_account_id', '=', providerAccountId)
    .where((eb) =>
      eb.or([eb('last_event_created_at', 'is', null), eb('last_event_created_at', '<=', eventCreatedAt)]),
    )
    .returningAll()
    .executeTakeFirst();
  if (applied) return { outcome: 'applied', account: applied };
  const account = await payoutAccountByProviderId(tx, providerAccountId);
  return { outcome: account ? 'stale' : 'unknown', account };
}
