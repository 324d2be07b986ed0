import type { PaymentsConfig } from '../../config/payments.ts';
import { createLocalProvider, type LocalProviderOptions } from './local-provider.ts';
import type { PaymentProvider } from './provider.ts';
import { createStripeClient, createStripeProvider } from './stripe-provider.ts';

/**
 * The provider the configuration names: the SDK client, or the local stand-in, whose payouts
 * settle through workflows: only the worker passes `emitLater` (the API never pays out). Disabled
 * payments get the local provider too; the API refuses billing before it is ever asked.
 */
export function paymentProviderFor(
  config: PaymentsConfig,
  baseUrl: string,
  emitLater?: LocalProviderOptions['emitLater'],
): PaymentProvider {
  if (config.mode === 'stripe') return createStripeProvider(createStripeClient(config));
  return createLocalProvider({
    baseUrl,
    secret: config.webhookSecret ?? '',
    ...(emitLater ? { emitLater } : {}),
  });
}
