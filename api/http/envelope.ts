/** The spec's response envelope, used by every JSON response of the API. */
export interface PageMetadata {
  readonly page: number;
  readonly limit: number;
  readonly total: number;
}

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
