import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { asUser, type Tx } from '../../db/doors.ts';
import { memberRoleOf } from '../../db/repositories/organizations.ts';
import {
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  lockEndpointRegistrations,
  listWebhookDeliveries,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from '../../db/repositories/webhooks.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { assertAuditableUrl, BlockedUrlError } from '../../lib/url-guard.ts';
import type { CommandContext } from '../context.ts';
import type { Principal } from '../principal.ts';
import type { createWebhookEndpointBody, updateWebhookEndpointBody } from './webhook-endpoint.schema.ts';

/** An organization's endpoints at most: enough for every integration, few enough to fan out to at once. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

export const webhookEndpointViewOf = (row: WebhookEndpointRow) => ({
  endpointId: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  status: row.status,
  disabledReason: row.disabled_reason,
  disabledAt: row.disabled_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export const webhookDeliveryViewOf = (row: WebhookDeliveryRow) => ({
  deliveryId: row.id,
  eventId: row.event_id,
  eventType: row.event_type,
  status: row.status,
  attempts: row.attempts,
  lastResponseCode: row.last_response_code,
  lastError: row.last_error,
  lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
  nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
  deliveredAt: row.delivered_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

/** Webhook management is for the organization's owners, as its API tokens are (row-level security says the same). */
async function ownedOrganization(tx: Tx, principal: Principal): Promise<string> {
  const organizationId = principal.organizationId;
  if (!organizationId || (await memberRoleOf(tx, organizationId, principal.claims.sub)) !== 'owner') {
    throw forbidden("Only the organization's owners manage its webhook endpoints");
  }
  return organizationId;
}

/** The same guard as audit URLs: no private or metadata addresses unless the operator allows them. */
async function checkEndpointUrl(deps: Pick<CommandContext, 'config'>, url: string): Promise<void> {
  try {
    await assertAuditableUrl(url, {
      allowPrivate: deps.config.audits.allowPrivateUrls,
      allowedHosts: deps.config.audits.allowedHosts,
    });
  } catch (error) {
    if (error instanceof BlockedUrlError) throw invalid(error.message);
    throw error;
  }
}

/** A signing secret: 32 random bytes, prefixed so that it is recognisable in a leaked file. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** Registers an endpoint; its signing secret is in the answer and never shown again. */
export async function createWebhookEndpoint(
  deps: Pick<CommandContext, 'db' | 'config'>,
  principal: Principal,
  body: z.output<typeof createWebhookEndpointBody>,
) {
  // Who asks is settled before the URL is looked up: a caller who may not register hears 403, not the URL's fate.
  await asUser(deps.db, principal.claims, (tx) => ownedOrganization(tx, principal));
  await checkEndpointUrl(deps, body.url);
  const secret = newSecret();
  const row = await asUser(deps.db, principal.claims, async (tx) => {
    const organizationId = await ownedOrganization(tx, principal);
    await lockEndpointRegistrations(tx, organizationId);
    const { total } = await listWebhookEndpoints(tx, organizationId, { limit: 1, offset: 0 });
    if (total >= MAX_WEBHOOK_ENDPOINTS) {
      throw conflict(
        `An organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`,
      );
    }
    return insertWebhookEndpoint(tx, {
      organizationId,
      createdBy: principal.claims.sub,
      url: body.url,
      description: body.description,
      events: body.events,
      secret,
    });
  });
  return { ...webhookEndpointViewOf(row), secret };
}

/** The organization's endpoints, newest first, without their secrets. */
export async function listOrganizationWebhookEndpoints(
  deps: Pick<CommandContext, 'db'>,
  principal: Principal,
  page: { readonly limit: number; readonly offset: number },
) {
  const { rows, total } = await asUser(deps.db, principal.claims, async (tx) =>
    listWebhookEndpoints(tx, await ownedOrganization(tx, principal), page),
  );
  return { endpoints: rows.map(webhookEndpointViewOf), total };
}

export async function getWebhookEndpoint(deps: Pick<CommandContext, 'db'>, principal: Principal, id: string) {
  const row = await asUser(deps.db, principal.claims, async (tx) =>
    findWebhookEndpoint(tx, id, await ownedOrganization(tx, principal)),
  );
  if (!row) throw notFound('Webhook endpoint');
  return webhookEndpointViewOf(row);
}

/**
 * Changes an endpoint. Deliveries already pending keep their schedule; those whose type it no
 * longer takes, or all of them when it is disabled, are cancelled at their next attempt.
 */
export async function updateWebhookEndpointOf(
  deps: Pick<CommandContext, 'db' | 'config' | 'now'>,
  principal: Principal,
  id: string,
  body: z.output<typeof updateWebhookEndpointBody>,
) {
  if (body.url !== undefined) {
    // The endpoint is found (or not) before its new URL is looked up, as for registration.
    const found = await asUser(deps.db, principal.claims, async (tx) =>
      findWebhookEndpoint(tx, id, await ownedOrganization(tx, principal)),
    );
    if (!found) throw notFound('Webhook endpoint');
    await checkEndpointUrl(deps, body.url);
  }
  const row = await asUser(deps.db, principal.claims, async (tx) =>
    updateWebhookEndpoint(tx, id, await ownedOrganization(tx, principal), body, deps.now()),
  );
  if (!row) throw notFound('Webhook endpoint');
  return webhookEndpointViewOf(row);
}

/** Deletes an endpoint and its delivery log; its pending deliveries end at their next attempt. */
export async function deleteWebhookEndpointOf(
  deps: Pick<CommandContext, 'db'>,
  principal: Principal,
  id: string,
) {
  const deleted = await asUser(deps.db, principal.claims, async (tx) =>
    deleteWebhookEndpoint(tx, id, await ownedOrganization(tx, principal)),
  );
  if (!deleted) throw notFound('Webhook endpoint');
  return { endpointId: id, deleted: true as const };
}

/** The endpoint's delivery log, newest first. */
export async function listEndpointDeliveries(
  deps: Pick<CommandContext, 'db'>,
  principal: Principal,
  id: string,
  page: { readonly limit: number; readonly offset: number },
) {
  const found = await asUser(deps.db, principal.claims, async (tx) => {
    const endpoint = await findWebhookEndpoint(tx, id, await ownedOrganization(tx, principal));
    return endpoint ? listWebhookDeliveries(tx, endpoint.id, page) : undefined;
  });
  if (!found) throw notFound('Webhook endpoint');
  return { deliveries: found.rows.map(webhookDeliveryViewOf), total: found.total };
}
