import { z } from 'zod';
import {
  createApiToken,
  listOrganizationApiTokens,
  revokeOrganizationApiToken,
} from '../../../commands/auth/api-token-commands.ts';
import { createApiTokenBody } from '../../../commands/auth/api-token.schema.ts';
import type { AuthDependencies } from '../../auth/dependencies.ts';
import { ApiError, notFound } from '../../../lib/errors.ts';
import { tokenRevokePath, TOKENS_PATH } from '../paths.ts';
import { commandErrors, parseForm, withoutBlanks } from '../shared/form-input.ts';
import { requireRole, type PageRouter, type SignedInRequest } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { TOKEN_LABELS, TokensPage, type TokensPageProps } from './view.tsx';

/** One page shows this many tokens; the API pages through more. */
const TOKEN_LIST_LIMIT = 100;
const tokenParams = z.object({ id: z.uuid() });

/**
 * The organization's API tokens for its owners (`/dashboard/tokens`), through the commands of
 * `/api/auth/tokens`. A business member who is not an owner is told so (403), as the API says.
 */
export function mountTokenPages(pages: PageRouter, deps: AuthDependencies): void {
  const show = async (
    request: SignedInRequest,
    shown: Pick<TokensPageProps, 'issued' | 'values' | 'errors' | 'notice'> = {},
    status = 200,
  ) => {
    try {
      const { tokens } = await listOrganizationApiTokens(deps, request.principal, {
        limit: TOKEN_LIST_LIMIT,
        offset: 0,
      });
      renderPage(
        request.ctx,
        <TokensPage csrf={request.csrf} viewer={request.viewer} tokens={tokens} {...shown} />,
        status,
      );
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 403) throw error;
      renderPage(
        request.ctx,
        <TokensPage csrf={request.csrf} viewer={request.viewer} refusal={error.message} />,
        403,
      );
    }
  };

  pages.signedIn('GET', TOKENS_PATH, async (request) => {
    requireRole(request, 'business');
    const notice =
      request.ctx.query.done === 'revoked' ? 'Token revoked: it stops working within 60 seconds.' : undefined;
    await show(request, { notice });
  });

  pages.signedIn('POST', TOKENS_PATH, async (request) => {
    requireRole(request, 'business');
    const values = { name: request.form.name ?? '', scope: request.form.scope ?? '' };
    const parsed = parseForm(createApiTokenBody, withoutBlanks(values));
    if ('errors' in parsed) return show(request, { values, errors: parsed.errors }, 422);
    try {
      const issued = await createApiToken(deps, request.principal, parsed.data);
      // The secret is on this answer only (no-store): a redirect would have to carry it.
      await show(request, { issued: { name: issued.name, token: issued.token }, notice: 'Token issued.' });
    } catch (error) {
      const refused = commandErrors(error, Object.keys(TOKEN_LABELS));
      await show(request, { values, errors: refused.errors }, refused.status);
    }
  });

  pages.signedIn(
    'POST',
    tokenRevokePath(':id'),
    async (request) => {
      requireRole(request, 'business');
      const params = tokenParams.safeParse(request.ctx.params);
      if (!params.success) throw notFound('API token');
      try {
        const { tokenHash } = await revokeOrganizationApiToken(deps, request.principal, params.data.id);
        deps.apiTokens.forget(tokenHash);
      } catch (error) {
        // A token of another organization, or none: the 404 page, as for any item one may not see.
        if (error instanceof ApiError && error.status === 404) throw error;
        const refused = commandErrors(error, []);
        return show(request, { errors: refused.errors }, refused.status);
      }
      seeOther(request.ctx, `${TOKENS_PATH}?done=revoked`);
    },
    () => TOKENS_PATH,
  );
}
