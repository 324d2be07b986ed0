import { offsetOf, pageMetadata, paginationQuery } from '../../lib/validation/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import {
  createApiToken,
  listOrganizationApiTokens,
  revokeOrganizationApiToken,
} from '../../commands/auth/api-token-commands.ts';
import {
  apiTokenIdParams,
  apiTokenView,
  createdApiTokenView,
  revokedApiTokenView,
} from './api-tokens.schema.ts';
import { createApiTokenBody } from '../../commands/auth/api-token.schema.ts';
import type { AuthDependencies } from './dependencies.ts';

const TAG = 'API tokens';

export function apiTokenRoutes(deps: AuthDependencies): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/auth/tokens',
      tag: TAG,
      summary: 'Issue an API token for the organization (owners only); the secret is shown once',
      auth: 'user',
      roles: ['business'],
      body: createApiTokenBody,
      response: createdApiTokenView,
      status: 201,
      handler: async ({ body, principal }) => ({ data: await createApiToken(deps, principal, body) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/auth/tokens',
      tag: TAG,
      summary: "List the organization's API tokens (owners only, newest first), without their secrets",
      auth: 'user',
      roles: ['business'],
      query: paginationQuery,
      response: apiTokenView.array(),
      paginated: true,
      handler: async ({ principal, query }) => {
        const { tokens, total } = await listOrganizationApiTokens(deps, principal, {
          limit: query.limit,
          offset: offsetOf(query),
        });
        return { data: tokens, metadata: pageMetadata(query, total) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/auth/tokens/:id',
      tag: TAG,
      summary: 'Revoke an API token (owners only); other instances stop accepting it within 60 seconds',
      auth: 'user',
      roles: ['business'],
      params: apiTokenIdParams,
      resource: 'API token',
      response: revokedApiTokenView,
      handler: async ({ params, principal }) => {
        const { tokenId, revokedAt, tokenHash } = await revokeOrganizationApiToken(
          deps,
          principal,
          params.id,
        );
        deps.apiTokens.forget(tokenHash);
        return { data: { tokenId, revokedAt } };
      },
    }),
  ];
}
