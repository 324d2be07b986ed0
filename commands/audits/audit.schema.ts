import { emailAddress } from '../../lib/validation/email.ts';
import { z } from 'zod';
import { AUDIT_CATEGORIES } from '../../lib/audits.ts';
import type { AuditCredentials } from '../../lib/audit-credentials.ts';
import { httpUrl } from '../../lib/validation/http-url.ts';
import { int4, storableString } from '../../lib/validation/storable.ts';

export const MAX_PAGES_LIMIT = 50;

export const MAX_RECIPIENTS = 20;

const auditUrl = httpUrl();

const viewport = z
  .object({
    width: int4().min(320, 'Must be at least 320').max(3840, 'Must be at most 3840'),
    height: int4().min(240, 'Must be at least 240').max(2160, 'Must be at most 2160'),
  })
  .default({ width: 1280, height: 800 });

// RFC 9110's token: what a header or cookie name may be made of.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Headers the browser or the connection owns; cookies have a field of their own.
const OWNED_HEADERS = new Set([
  'connection',
  'content-length',
  'cookie',
  'expect',
  'host',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const OWNED_PREFIXES = ['proxy-', 'sec-'];
export const MAX_CREDENTIAL_HEADERS = 20;
export const MAX_CREDENTIAL_COOKIES = 50;

/** `host` as a pattern any letter case matches: `[Hh][Oo][Ss][Tt]` (JSON Schema patterns take no flags). */
const anyCase = (word: string) =>
  [...word].map((c) => (/[a-z]/.test(c) ? `[${c.toUpperCase()}${c}]` : c)).join('');
// The names the browser or the connection owns, refused (in the document too, as a pattern).
const NOT_OWNED = new RegExp(
  `^(?!(?:${[...OWNED_HEADERS].map(anyCase).join('|')})$)(?!(?:${OWNED_PREFIXES.map(anyCase).join('|')}))`,
);

const headerName = z
  .string()
  .max(100, 'A header name must be at most 100 characters')
  .regex(TOKEN, "A header name must be an HTTP token (letters, digits and !#$%&'*+.^_`|~-)")
  .regex(NOT_OWNED, 'This header is set by the browser (cookies go in cookies)');

const credentialHeaders = z
  .record(
    headerName,
    z
      .string()
      .max(8192, 'A header value must be at most 8192 characters')
      .regex(
        /^[\t\x20-\x7e\x80-\xff]*$/,
        'A header value must not contain line breaks or control characters',
      ),
    // A name refused says why, not zod's "Invalid key in record".
    { error: (issue) => (issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined) },
  )
  .refine((headers) => Object.keys(headers).length <= MAX_CREDENTIAL_HEADERS, {
    message: `At most ${MAX_CREDENTIAL_HEADERS} headers`,
  })
  .meta({ maxProperties: MAX_CREDENTIAL_HEADERS })
  .optional()
  .describe(
    "Headers sent with every request to the audited URL's origin (scheme, host and port), never to another; used for this audit only, never stored",
  );

const credentialCookies = z
  .array(
    z.object({
      name: z
        .string()
        .min(1, 'Must not be empty')
        .max(256, 'Must be at most 256 characters')
        .regex(TOKEN, 'Must be a cookie name (an HTTP token)'),
      // RFC 6265's cookie-octets: no whitespace, double quote, comma, semicolon or backslash.
      value: z
        .string()
        .max(4096, 'Must be at most 4096 characters')
        .regex(
          /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/,
          'Must be a cookie value (no spaces, quotes, commas, semicolons or backslashes)',
        ),
    }),
  )
  .max(MAX_CREDENTIAL_COOKIES, `At most ${MAX_CREDENTIAL_COOKIES} cookies`)
  .optional()
  .describe(
    "Cookies sent with every request to the audited URL's origin, never to another; used for this audit only, never stored",
  );

export const instantAuditBody = z.object({
  url: auditUrl,
  viewport,
  checkCategories: z
    .array(z.enum(AUDIT_CATEGORIES))
    .min(1, 'At least one category is required')
    .default([...AUDIT_CATEGORIES])
    .transform((list) => [...new Set(list)]),
  headers: credentialHeaders,
  cookies: credentialCookies,
});

export type InstantAuditRequest = z.output<typeof instantAuditBody>;

export const fullAuditBody = z.object({
  url: auditUrl,
  crawl: z.boolean().default(false),
  maxPages: int4()
    .min(1, 'Must be at least 1')
    .max(MAX_PAGES_LIMIT, `Must be at most ${MAX_PAGES_LIMIT}`)
    .default(5),
  viewport,
  reportTitle: storableString()
    .max(200, 'Must be at most 200 characters')
    .trim()
    .min(1, 'Must not be empty')
    .optional(),
  recipientEmails: z
    .array(emailAddress().transform((email) => email.toLowerCase()))
    .max(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} recipients`)
    .default([]),
  headers: credentialHeaders,
  cookies: credentialCookies,
});

export type FullAuditRequest = z.output<typeof fullAuditBody>;

/** The credentials of a request for its URL's origin, or none when it gives neither headers nor cookies. */
export function credentialsOf(
  request: Pick<InstantAuditRequest, 'url' | 'headers' | 'cookies'>,
): AuditCredentials | undefined {
  const headers = request.headers ?? {};
  const cookies = request.cookies ?? [];
  if (!Object.keys(headers).length && !cookies.length) return undefined;
  return { origin: new URL(request.url).origin, headers, cookies };
}
