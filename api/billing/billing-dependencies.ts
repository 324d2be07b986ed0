import type { Client } from '@temporalio/client';
import {
  PaymentProviderRefused,
  PaymentProviderUnavailable,
  type PaymentProvider,
} from '../../clients/payments/provider.ts';
import type { PaymentsConfig } from '../../config/payments.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError, invalid } from '../http/errors.ts';

export interface BillingDependencies {
  readonly db: Db;
  readonly temporal: Client;
  readonly taskQueue: string;
  readonly payments: PaymentsConfig;
  readonly provider: PaymentProvider;
  /** The service's origin: checkout return pages and the allowed onboarding return URLs. */
  readonly baseUrl: string;
  /** Development: localhost return URLs are allowed too (as for CORS). */
  readonly allowLocalhost: boolean;
  readonly now: () => Date;
}

/** Production without payment credentials answers 503 rather than pretending to take money. */
export function requirePayments({ payments }: Pick<BillingDependencies, 'payments'>): void {
  if (payments.mode === 'disabled') {
    throw new ApiError('unavailable', 'Payments are not configured (STRIPE_SECRET_KEY is unset)');
  }
}

/** A provider call: unreachable is 503; a refusal names what it refused (422). */
export async function askProvider<T>(field: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PaymentProviderUnavailable) throw new ApiError('unavailable', error.message);
    if (error instanceof PaymentProviderRefused) throw invalid(`${field}: ${error.message}`);
    throw error;
  }
}
