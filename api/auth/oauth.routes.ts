import type { Context } from 'koa';
import type { OAuthProviderConfig } from '../../config/index.ts';
import { asSystem } from '../../db/doors.ts';
import { malformed, notFound } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition, type RouteResult } from '../http/route.ts';
import { clearCookie, OAUTH_STATE_COOKIE, REFRESH_COOKIE_PATH, setCookie } from './cookies.ts';
import type { AuthDependencies } from './dependencies.ts';
import { oauthCallbackQuery, oauthStartParams, oauthStartQuery, redirectResponse } from './oauth.schema.ts';
import { upsertOAuthAccount } from './oauth-accounts.ts';
import { authorizationUrl, exchangeCode, fetchProfile } from './oauth-client.ts';
import { consumeOAuthState, createOAuthState, OAUTH_STATE_LIFETIME_MS } from './oauth-states.ts';
import { constantTimeEqual } from '../../lib/secrets.ts';
import { openSession } from './session-issuer.ts';

const TAG = 'Authentication';

function redirect(ctx: Context, location: string): RouteResult {
  ctx.set('Location', location);
  return { status: 302, data: { redirectTo: location } };
}

export function oauthRoutes(deps: AuthDependencies): RouteDefinition[] {
  const { config } = deps;
  const redirectUri = `${config.http.baseUrl}/api/auth/callback`;
  const providers = new Map<string, OAuthProviderConfig>(config.auth.oauthProviders.map((p) => [p.id, p]));
  const cookieOptions = {
    path: REFRESH_COOKIE_PATH,
    // Lax, not Strict: the cookie must come back on the provider's top-level redirect.
    sameSite: 'Lax' as const,
    secure: config.env !== 'development',
  };

  return [
    defineRoute({
      method: 'GET',
      path: '/api/auth/oauth/:provider',
      tag: TAG,
      summary:
        "Start the OAuth authorization-code flow (state + PKCE): redirects to the provider's sign-in page",
      auth: 'public',
      params: oauthStartParams,
      query: oauthStartQuery,
      resource: 'Identity provider',
      response: redirectResponse,
      status: 302,
      handler: async ({ params, query, ctx }) => {
        const provider = providers.get(params.provider);
        if (!provider) throw notFound('Identity provider');
        const { state, codeVerifier } = await asSystem(deps.db, (tx) =>
          createOAuthState(tx, provider.id, query.role, deps.now()),
        );
        // The state is also bound to this browser, so a callback started elsewhere (login CSRF) fails.
        setCookie(ctx, OAUTH_STATE_COOKIE, state, {
          ...cookieOptions,
          maxAgeSeconds: OAUTH_STATE_LIFETIME_MS / 1000,
        });
        return redirect(ctx, authorizationUrl(provider, { state, codeVerifier, redirectUri }));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/auth/callback',
      tag: TAG,
      summary:
        'Complete the OAuth flow: 302 to /dashboard with the session cookie; 302 to /login?error= when the provider sent an error; 400 bad state; 401 code rejected; 403 suspended account',
      auth: 'public',
      query: oauthCallbackQuery,
      response: redirectResponse,
      status: 302,
      errors: [503],
      handler: async ({ query, ctx }) => {
        const browserState = ctx.cookies.get(OAUTH_STATE_COOKIE);
        clearCookie(ctx, OAUTH_STATE_COOKIE, cookieOptions);
        const now = deps.now();
        if (query.error !== undefined) {
          // The flow is over either way: its state must not be usable afterwards.
          if (query.state) await asSystem(deps.db, (tx) => consumeOAuthState(tx, query.state!, now));
          return redirect(ctx, `${config.http.baseUrl}/login?error=${encodeURIComponent(query.error)}`);
        }
        if (!query.state) throw malformed('Missing OAuth state');
        if (!browserState || !constantTimeEqual(browserState, query.state))
          throw malformed('Invalid OAuth state');
        const started = await asSystem(deps.db, (tx) => consumeOAuthState(tx, query.state!, now));
        const provider = started && providers.get(started.provider);
        if (!started || !provider) throw malformed('Invalid or expired OAuth state');
        if (!query.code) throw malformed('Missing authorization code');
        const accessToken = await exchangeCode(
          provider,
          { code: query.code, codeVerifier: started.code_verifier, redirectUri },
          deps.fetch,
        );
        const profile = await fetchProfile(provider, accessToken, deps.fetch);
        const account = await asSystem(deps.db, (tx) =>
          upsertOAuthAccount(tx, provider.id, profile, started.signup_role, now),
        );
        await openSession(deps, ctx, account);
        return redirect(ctx, `${config.http.baseUrl}/dashboard`);
      },
    }),
  ];
}
