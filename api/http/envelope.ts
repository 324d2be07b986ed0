/** The spec's response envelope, used by every JSON response of the API. */
import type { PageMetadata } from '../../lib/validation/pagination.ts';

export type { PageMetadata };

export interface Envelope<T> {
  readonly success: boolean;
  readonly data: T | null;
  readonly error: string | null;
  readonly metadata: PageMetadata | null;
}

export function success<T>(data: T, metadata: PageMetadata | null = null): Envelope<T> {
  return { success: true, data, error: null, metadata };
}

export function failure(message: string): Envelope<never> {
  return { success: false, data: null, error: message, metadata: null };
}
