const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface OriginPolicy {
  /** The service's own origin (its public base URL). */
  readonly baseUrl: string;
  /** Development: localhost on any port is allowed too. */
  readonly allowLocalhost: boolean;
}

/** The spec's rule: the service's own origin, its sub-domains, and localhost on any port in development. */
export function isAllowedOrigin(origin: string, { baseUrl, allowLocalhost }: OriginPolicy): boolean {
  let candidate: URL;
  try {
    candidate = new URL(origin);
  } catch {
    return false;
  }
  if (candidate.origin !== origin) return false;
  const own = new URL(baseUrl);
  if (candidate.origin === own.origin) return true;
  if (allowLocalhost && LOCAL_HOSTS.has(candidate.hostname) && /^https?:$/.test(candidate.protocol))
    return true;
  return (
    candidate.protocol === own.protocol &&
    candidate.port === own.port &&
    candidate.hostname.endsWith(`.${own.hostname}`)
  );
}
