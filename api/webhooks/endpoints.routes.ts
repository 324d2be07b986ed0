import type { CommandContext } from '../../commands/context.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpointOf,
  getWebhookEndpoint,
  listEndpointDeliveries,
  listOrganizationWebhookEndpoints,
  updateWebhookEndpointOf,
} from '../../commands/webhooks/endpoint-commands.ts';
import {
  createWebhookEndpointBody,
  updateWebhookEndpointBody,
} from '../../commands/webhooks/webhook-endpoint.schema.ts';
import { offsetOf, pageMetadata, paginationQuery } from '../../lib/validation/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import {
  createdWebhookEndpointView,
  deletedWebhookEndpointView,
  webhookDeliveryView,
  webhookEndpointIdParams,
  webhookEndpointView,
} from './endpoints.schema.ts';

const TAG = 'Webhook endpoints';
const OWNERS = { auth: 'user', roles: ['business'] } as const;

/** An organization's outgoing webhooks (docs/decisions/webhooks.md); API tokens need the admin scope. */
export function webhookEndpointRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/webhook-endpoints',
      tag: TAG,
      summary: 'Register an endpoint for some event types (owners only); its signing secret is shown once',
      ...OWNERS,
      body: createWebhookEndpointBody,
      response: createdWebhookEndpointView,
      status: 201,
      errors: [409],
      handler: async ({ body, principal }) => ({ data: await createWebhookEndpoint(deps, principal, body) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/webhook-endpoints',
      tag: TAG,
      summary: "List the organization's webhook endpoints (owners only, newest first), without their secrets",
      ...OWNERS,
      query: paginationQuery,
      response: webhookEndpointView.array(),
      paginated: true,
      handler: async ({ principal, query }) => {
        const { endpoints, total } = await listOrganizationWebhookEndpoints(deps, principal, {
          limit: query.limit,
          offset: offsetOf(query),
        });
        return { data: endpoints, metadata: pageMetadata(query, total) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/webhook-endpoints/:id',
      tag: TAG,
      summary: 'Read a webhook endpoint (owners only), without its secret',
      ...OWNERS,
      params: webhookEndpointIdParams,
      resource: 'Webhook endpoint',
      response: webhookEndpointView,
      handler: async ({ params, principal }) => ({
        data: await getWebhookEndpoint(deps, principal, params.id),
      }),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/webhook-endpoints/:id',
      tag: TAG,
      summary: 'Change the URL, events or description of an endpoint, or turn it off and on (owners only)',
      ...OWNERS,
      params: webhookEndpointIdParams,
      resource: 'Webhook endpoint',
      body: updateWebhookEndpointBody,
      response: webhookEndpointView,
      handler: async ({ params, body, principal }) => ({
        data: await updateWebhookEndpointOf(deps, principal, params.id, body),
      }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/webhook-endpoints/:id',
      tag: TAG,
      summary: 'Delete an endpoint and its delivery log (owners only); pending deliveries stop',
      ...OWNERS,
      params: webhookEndpointIdParams,
      resource: 'Webhook endpoint',
      response: deletedWebhookEndpointView,
      handler: async ({ params, principal }) => ({
        data: await deleteWebhookEndpointOf(deps, principal, params.id),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/webhook-endpoints/:id/deliveries',
      tag: TAG,
      summary:
        "An endpoint's delivery log, newest first: status, attempts, the last response code (owners only)",
      ...OWNERS,
      params: webhookEndpointIdParams,
      resource: 'Webhook endpoint',
      query: paginationQuery,
      response: webhookDeliveryView.array(),
      paginated: true,
      handler: async ({ params, principal, query }) => {
        const { deliveries, total } = await listEndpointDeliveries(deps, principal, params.id, {
          limit: query.limit,
          offset: offsetOf(query),
        });
        return { data: deliveries, metadata: pageMetadata(query, total) };
      },
    }),
  ];
}
