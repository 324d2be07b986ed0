import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { OAuthProviderConfig } from '../../config/index.ts';
import { ApiError, forbidden, unauthenticated } from '../../lib/errors.ts';

export interface ProviderProfile {
  readonly subject: string;
  readonly email: string | null;
  readonly emailVerified: boolean;
  readonly name: string | null;
}

/** PKCE S256: the challenge sent with the authorization request. */
export const codeChallengeOf = (verifier: string) =>
  createHash('sha256').update(verifier).digest('base64url');

export function authorizationUrl(
  provider: OAuthProviderConfig,
  options: { state: string; codeVerifier: string; redirectUri: string },
): string {
  const url = new URL(provider.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: provider.clientId,
    redirect_uri: options.redirectUri,
    scope: provider.scope,
    state: options.state,
    code_challenge: codeChallengeOf(options.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

const tokenResponse = z.object({ access_token: z.string().min(1), token_type: z.string().optional() });
const userinfoResponse = z.object({
  sub: z.union([z.string().min(1), z.number()]).transform(String),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  suspended: z.boolean().optional(),
});

async function call(fetcher: typeof fetch, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetcher(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new ApiError('unavailable', 'The identity provider could not be reached');
  }
}

/** The authorization-code exchange (RFC 6749 4.1.3 with the PKCE verifier); a refusal is 401. */
export async function exchangeCode(
  provider: OAuthProviderConfig,
  options: { code: string; codeVerifier: string; redirectUri: string },
  fetcher: typeof fetch = fetch,
): Promise<string> {
  const response = await call(fetcher, provider.tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: options.code,
      redirect_uri: options.redirectUri,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
      code_verifier: options.codeVerifier,
    }),
  });
  const parsed = response.ok ? tokenResponse.safeParse(await response.json().catch(() => null)) : undefined;
  if (!parsed?.success) throw unauthenticated('The identity provider rejected the authorization code');
  return parsed.data.access_token;
}

/** The provider's account behind the access token; a provider that refuses the account (403) is 403 here. */
export async function fetchProfile(
  provider: OAuthProviderConfig,
  accessToken: string,
  fetcher: typeof fetch = fetch,
): Promise<ProviderProfile> {
  const response = await call(fetcher, provider.userinfoUrl, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
  });
  if (response.status === 403) throw forbidden('The identity provider account is suspended');
  const parsed = response.ok
    ? userinfoResponse.safeParse(await response.json().catch(() => null))
    : undefined;
  if (!parsed?.success) throw unauthenticated('The identity provider did not accept its own access token');
  if (parsed.data.suspended) throw forbidden('The identity provider account is suspended');
  return {
    subject: parsed.data.sub,
    email: parsed.data.email?.toLowerCase() ?? null,
    emailVerified: parsed.data.email_verified ?? false,
    name: parsed.data.name ?? null,
  };
}
