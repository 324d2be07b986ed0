import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Headers and cookies a request gives for its audited origin (a page behind a login): sent with
 * that origin's requests only, never stored, logged or written into workflow history in clear
 * (docs/decisions/audits.md, "Audits behind a login").
 */
export interface AuditCredentials {
  /** The audited URL's origin (scheme, host and port): the only one they are sent to. */
  readonly origin: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly cookies: readonly { readonly name: string; readonly value: string }[];
}

/** Sealed credentials that can no longer be opened: expired, or sealed under another secret. */
export class UnusableCredentialsError extends Error {
  override readonly name = 'UnusableCredentialsError';
}

const VERSION = 'v1';
// AES-256-GCM under a key of its own, derived from the service's secret (JWT_SECRET): a sealed
// value is no token, and the secret's other uses never see this key.
const SALT = 'usability-audit-credentials';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keyOf = (secret: string) => Buffer.from(hkdfSync('sha256', secret, SALT, VERSION, 32));

/**
 * The credentials encrypted and authenticated with their expiry, as one string for a workflow's
 * input: the history holds only this, which only a process with the secret opens, until `expiresAt`.
 */
export function sealCredentials(credentials: AuditCredentials, secret: string, expiresAt: Date): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const plain = JSON.stringify({ ...credentials, expiresAt: expiresAt.getTime() });
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

/** Opens what `sealCredentials` sealed; refuses a value past its expiry, altered, or sealed under another secret. */
export function unsealCredentials(sealed: string, secret: string, now: Date = new Date()): AuditCredentials {
  const [version, iv, body] = sealed.split('.');
  if (version !== VERSION || !iv || !body) throw new UnusableCredentialsError('Not sealed credentials');
  const bytes = Buffer.from(body, 'base64url');
  let opened: AuditCredentials & { expiresAt: number };
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    opened = JSON.parse(plain.toString('utf8')) as AuditCredentials & { expiresAt: number };
  } catch {
    throw new UnusableCredentialsError('The credentials cannot be opened (sealed under another secret?)');
  }
  if (opened.expiresAt <= now.getTime()) {
    throw new UnusableCredentialsError('The credentials for the audited origin expired before the audit ran');
  }
  return { origin: opened.origin, headers: opened.headers, cookies: opened.cookies };
}
