import { z } from 'zod';
import type { CommandContext } from '../../../commands/context.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpointOf,
  getWebhookEndpoint,
  listEndpointDeliveries,
  listOrganizationWebhookEndpoints,
  updateWebhookEndpointOf,
} from '../../../commands/webhooks/endpoint-commands.ts';
import { createWebhookEndpointBody } from '../../../commands/webhooks/webhook-endpoint.schema.ts';
import { ApiError, notFound } from '../../../lib/errors.ts';
import { webhookDeletePath, webhookPath, webhookStatusPath, WEBHOOKS_PATH } from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, formList, parseForm } from '../shared/form-input.ts';
import { requireRole, type PageRouter, type SignedInRequest } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { WEBHOOK_LABELS, WebhookPage, WebhooksPage, type WebhooksPageProps } from './view.tsx';

/** One page shows this many deliveries; the API pages through more. */
const DELIVERY_LIST_LIMIT = 100;
const endpointParams = z.object({ id: z.uuid() });

/** A field's problem under its field: `events[2]` is the events group's. */
const fieldErrors = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(Object.entries(errors).map(([name, message]) => [name.replace(/[[.].*$/, ''), message]));

/**
 * The organization's webhook endpoints for its owners (`/dashboard/webhooks`, one endpoint's
 * delivery log at `/dashboard/webhooks/:id`), through the commands of `/api/webhook-endpoints`. A
 * business member who is not an owner is told so (403), as the API says.
 */
export function mountWebhookPages(pages: PageRouter, deps: CommandContext): void {
  const show = async (
    request: SignedInRequest,
    shown: Pick<WebhooksPageProps, 'registered' | 'values' | 'errors' | 'notice'> = {},
    status = 200,
  ) => {
    try {
      const { endpoints } = await listOrganizationWebhookEndpoints(deps, request.principal, {
        limit: 16,
        offset: 0,
      });
      renderPage(
        request.ctx,
        <WebhooksPage csrf={request.csrf} viewer={request.viewer} endpoints={endpoints} {...shown} />,
        status,
      );
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 403) throw error;
      renderPage(
        request.ctx,
        <WebhooksPage csrf={request.csrf} viewer={request.viewer} refusal={error.message} />,
        403,
      );
    }
  };
  const endpointId = (request: SignedInRequest) => {
    const params = endpointParams.safeParse(request.ctx.params);
    if (!params.success) throw notFound('Webhook endpoint');
    return params.data.id;
  };

  pages.signedIn('GET', WEBHOOKS_PATH, async (request) => {
    requireRole(request, 'business');
    const notice = request.ctx.query.done === 'deleted' ? 'Endpoint deleted.' : undefined;
    await show(request, { notice });
  });

  pages.signedIn('POST', WEBHOOKS_PATH, async (request) => {
    requireRole(request, 'business');
    const values = {
      url: request.form.url ?? '',
      description: request.form.description ?? '',
      events: formList(request.ctx, 'events'),
    };
    const parsed = parseForm(createWebhookEndpointBody, values);
    if ('errors' in parsed) return show(request, { values, errors: fieldErrors(parsed.errors) }, 422);
    try {
      const created = await createWebhookEndpoint(deps, request.principal, parsed.data);
      // The secret is on this answer only (no-store): a redirect would have to carry it.
      await show(request, {
        registered: { url: created.url, secret: created.secret },
        notice: 'Endpoint registered.',
      });
    } catch (error) {
      const refused = commandErrors(error, Object.keys(WEBHOOK_LABELS));
      await show(request, { values, errors: refused.errors }, refused.status);
    }
  });

  pages.signedIn('GET', webhookPath(':id'), async (request) => {
    requireRole(request, 'business');
    const id = endpointId(request);
    const endpoint = await getWebhookEndpoint(deps, request.principal, id);
    const { deliveries } = await listEndpointDeliveries(deps, request.principal, id, {
      limit: DELIVERY_LIST_LIMIT,
      offset: 0,
    });
    const done = request.ctx.query.done;
    const notice =
      done === 'on' ? 'Turned on.' : done === 'off' ? 'Turned off: nothing is sent to it.' : undefined;
    renderPage(
      request.ctx,
      <WebhookPage
        csrf={request.csrf}
        viewer={request.viewer}
        endpoint={endpoint}
        deliveries={deliveries}
        notice={notice}
      />,
    );
  });

  pages.signedIn(
    'POST',
    webhookStatusPath(':id'),
    async (request) => {
      requireRole(request, 'business');
      const id = endpointId(request);
      const enabled = request.form.enabled === 'true';
      await updateWebhookEndpointOf(deps, request.principal, id, { enabled });
      seeOther(request.ctx, `${webhookPath(id)}?done=${enabled ? 'on' : 'off'}`);
    },
    () => WEBHOOKS_PATH,
  );

  pages.signedIn(
    'POST',
    webhookDeletePath(':id'),
    async (request) => {
      requireRole(request, 'business');
      await deleteWebhookEndpointOf(deps, request.principal, endpointId(request));
      seeOther(request.ctx, `${WEBHOOKS_PATH}?done=deleted`);
    },
    () => WEBHOOKS_PATH,
  );
}
