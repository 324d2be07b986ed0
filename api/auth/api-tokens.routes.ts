import { asUser, type Tx } from '../../db/doors.ts';
import { listApiTokens, revokeApiToken, type ApiTokenRow } from '../../db/repositories/api-tokens.ts';
import { memberRoleOf } from '../../db/repositories/organizations.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { offsetOf, pageMetadata, paginationQuery } from '../http/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { issueApiToken } from './api-tokens.ts';
import {
  apiTokenIdParams,
  apiTokenView,
  createApiTokenBody,
  createdApiTokenView,
  revokedApiTokenView,
} from './api-tokens.schema.ts';
import type { AuthDependencies } from './dependencies.ts';
import type { Principal } from './principal.ts';

const TAG = 'API tokens';

const toView = (row: ApiTokenRow) => ({
  tokenId: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.token_prefix,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

/** Token management is for the organization's owners (row-level security says the same). */
async function ownedOrganization(tx: Tx, principal: Principal): Promise<string> {
  const organizationId = principal.organizationId;
  if (!organizationId || (await memberRoleOf(tx, organizationId, principal.claims.sub)) !== 'owner') {
    throw forbidden("Only the organization's owners manage its API tokens");
  }
  return organizationId;
}

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
      handler: async ({ body, principal }) => {
        const { row, secret } = await asUser(deps.db, principal.claims, async (tx) =>
          issueApiToken(
            tx,
            {
              organizationId: await ownedOrganization(tx, principal),
              createdBy: principal.claims.sub,
              name: body.name,
              scope: body.scope,
            },
            deps.now(),
          ),
        );
        return { data: { ...toView(row), token: secret } };
      },
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
        const { rows, total } = await asUser(deps.db, principal.claims, async (tx) =>
          listApiTokens(tx, await ownedOrganization(tx, principal), {
            limit: query.limit,
            offset: offsetOf(query),
          }),
        );
        return { data: rows.map(toView), metadata: pageMetadata(query, total) };
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
        const row = await asUser(deps.db, principal.claims, async (tx) =>
          revokeApiToken(tx, params.id, await ownedOrganization(tx, principal), deps.now()),
        );
        if (!row) throw notFound('API token');
        deps.apiTokens.forget(row.token_hash);
        return { data: { tokenId: row.id, revokedAt: row.revoked_at!.toISOString() } };
      },
    }),
  ];
}
