import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../lib/domain.ts';
import { httpUrl } from '../../lib/validation/http-url.ts';
import { storableString } from '../../lib/validation/storable.ts';

const endpointUrl = httpUrl().describe(
  'Where events are POSTed; it must resolve to a public address (as audit URLs must)',
);

// Repeats are dropped before counting: every type once is always allowed.
const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .max(256, 'Must list at most 256 entries')
  .min(1, 'At least one event type is required')
  .transform((types) => [...new Set(types)])
  .describe('The event types sent to this endpoint (each once; repeats are dropped)');

const description = storableString()
  .max(200, 'Must be at most 200 characters')
  .trim()
  .describe('What the endpoint is for, for its owners');

export const createWebhookEndpointBody = z.object({
  url: endpointUrl,
  events,
  description: description.default(''),
});

export const updateWebhookEndpointBody = z
  .object({
    url: endpointUrl.optional(),
    events: events.optional(),
    description: description.optional(),
    enabled: z
      .boolean()
      .optional()
      .describe(
        'false turns the endpoint off; true turns it on again (after the service disabled a failing one too)',
      ),
  })
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    'At least one field is required',
  );
