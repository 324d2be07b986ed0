import type { PaymentsConfig } from '../../config/payments.ts';
import type { Db } from '../../db/connection.ts';
import type { EmailSender } from '../../clients/email.ts';
import { createInvoiceActivities } from './invoice-activities.ts';
import { createLocalProviderActivities, emitFromActivity } from './local-provider-activities.ts';
import { createNoticeActivities } from './notice-activities.ts';
import { createPayoutActivities } from './payout-activities.ts';
import type { PaymentProvider } from '../../clients/payments/provider.ts';
import { paymentProviderFor } from '../../clients/payments/configured.ts';

export interface PaymentActivityDependencies {
  readonly db: Db;
  readonly provider: PaymentProvider;
  readonly email: EmailSender;
  readonly baseUrl: string;
  /** Where the local provider posts its events, and what it signs them with. */
  readonly webhookUrl: string;
  readonly webhookSecret: string | undefined;
}

/** Every activity of payouts, payment events, local provider events and invoices. */
export function createPaymentActivities(deps: PaymentActivityDependencies) {
  return {
    ...createPayoutActivities(deps),
    ...createNoticeActivities(deps),
    ...createInvoiceActivities(deps),
    ...createLocalProviderActivities(deps),
  };
}

export type PaymentActivities = ReturnType<typeof createPaymentActivities>;

/** The dependencies of the payment activities from the configuration (the worker's entry point). */
export function paymentActivityDependencies(
  config: { payments: PaymentsConfig; http: { baseUrl: string } },
  db: Db,
  email: EmailSender,
): PaymentActivityDependencies {
  return {
    db,
    email,
    provider: paymentProviderFor(config.payments, config.http.baseUrl, emitFromActivity),
    baseUrl: config.http.baseUrl,
    webhookUrl: config.payments.localWebhookUrl,
    webhookSecret: config.payments.webhookSecret,
  };
}
