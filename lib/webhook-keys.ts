// Dedupe keys of webhook events that are recorded in one place and started from another.

/** A payout's paid event: a payment paid again by a new payout after a return is a new event. */
export const payoutPaidKey = (payoutId: string): string => `payout.paid:${payoutId}`;
