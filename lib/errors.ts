/** The error catalogue: every failure the API reports, and the status it maps to. */
export const ERROR_STATUS = {
  malformed_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  state_conflict: 409,
  payload_too_large: 413,
  validation_failed: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const malformed = (message: string) => new ApiError('malformed_request', message);
export const unauthenticated = (message = 'Authentication required') =>
  new ApiError('unauthenticated', message);
export const forbidden = (message = 'Insufficient permission') => new ApiError('forbidden', message);
export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);
export const conflict = (message: string) => new ApiError('state_conflict', message);
export const invalid = (message: string) => new ApiError('validation_failed', message);
