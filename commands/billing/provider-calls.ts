import { PaymentProviderRefused, PaymentProviderUnavailable } from '../../clients/payments/provider.ts';
import { ApiError, invalid } from '../../lib/errors.ts';

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
