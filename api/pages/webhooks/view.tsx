import type {
  webhookDeliveryViewOf,
  webhookEndpointViewOf,
} from '../../../commands/webhooks/endpoint-commands.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../lib/domain.ts';
import { webhookDeletePath, webhookPath, webhookStatusPath, WEBHOOKS_PATH } from '../paths.ts';
import { CheckboxGroup, ErrorSummary, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, day, Layout, type Viewer } from '../shared/layout.tsx';

export type EndpointView = ReturnType<typeof webhookEndpointViewOf>;
export type DeliveryView = ReturnType<typeof webhookDeliveryViewOf>;

export const WEBHOOK_LABELS = {
  url: 'Endpoint URL',
  description: 'What it is for',
  events: 'Events to send',
};

const EVENT_TEXT: Readonly<Record<WebhookEventType, string>> = {
  'study.activated': 'study.activated: a study is paid for and starts recruiting',
  'study.completed': 'study.completed: a study has all its confirmed sessions',
  'session.completed': 'session.completed: a tester finishes a session',
  'session.confirmed': 'session.confirmed: a tester confirms the findings',
  'report.ready': "report.ready: a session's tester report is written",
  'study_report.ready': 'study_report.ready: the study report is written',
  'audit.completed': 'audit.completed: a full audit has emailed its report',
  'payout.paid': "payout.paid: a tester's payout is paid",
};
const EVENT_CHOICES = WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: EVENT_TEXT[type] }));

const statusText = (endpoint: EndpointView) =>
  endpoint.status === 'enabled'
    ? 'On'
    : endpoint.disabledReason === 'failing'
      ? 'Off: it failed every delivery for three days'
      : 'Off';

function EndpointTable({ endpoints }: { endpoints: readonly EndpointView[] }) {
  if (!endpoints.length) return <p>Your organization has no webhook endpoints.</p>;
  return (
    <table>
      <caption class="visually-hidden">Your organization's webhook endpoints, newest first</caption>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">What it is for</th>
          <th scope="col">Events</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
        </tr>
      </thead>
      <tbody>
        {endpoints.map((endpoint) => (
          <tr key={endpoint.endpointId}>
            <th scope="row">
              <a href={webhookPath(endpoint.endpointId)}>{endpoint.url}</a>
            </th>
            <td>{endpoint.description || 'Not given'}</td>
            <td>{endpoint.events.join(', ')}</td>
            <td>{statusText(endpoint)}</td>
            <td>{day(new Date(endpoint.createdAt))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface WebhooksPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  /** Undefined when the viewer may not manage endpoints (not an owner): `refusal` says why. */
  readonly endpoints?: readonly EndpointView[] | undefined;
  readonly refusal?: string | undefined;
  /** An endpoint just registered, whose secret is shown this once. */
  readonly registered?: { readonly url: string; readonly secret: string } | undefined;
  readonly values?: {
    readonly url?: string;
    readonly description?: string;
    readonly events?: readonly string[];
  };
  readonly errors?: FieldErrors;
  readonly notice?: string | undefined;
}

/** `/dashboard/webhooks`: the organization's webhook endpoints, for its owners: register, list. */
export function WebhooksPage(props: WebhooksPageProps) {
  const { csrf, viewer, endpoints, refusal, registered, values = {}, errors = {}, notice } = props;
  return (
    <Layout title="Webhooks" viewer={viewer} csrf={csrf} notice={notice}>
      <ErrorSummary errors={errors} labels={WEBHOOK_LABELS} />
      <p>
        Your systems hear about your studies as they happen: each event is POSTed to your endpoint as JSON
        with its id in <code>Webhook-Id</code> (the same on every attempt) and tried again for three days
        until it answers 2xx.
      </p>
      <p>
        <code>Webhook-Signature</code> is <code>t=</code> a Unix time, then <code>v1=</code> the hex
        HMAC-SHA256, under the endpoint's secret, of that time, a dot and the raw body: the payment provider's
        scheme. Check it before you read the body, and refuse a time more than five minutes off.
      </p>
      {refusal ? <p>{refusal}</p> : null}
      {registered ? (
        <section class="panel" aria-labelledby="registered-title">
          <h2 id="registered-title">{`The signing secret of ${registered.url}`}</h2>
          <p>Copy it now: it is shown only this once.</p>
          <label for="registered-secret">The secret</label>
          <input id="registered-secret" type="text" readOnly value={registered.secret} />
        </section>
      ) : null}
      {endpoints ? (
        <>
          <h2>Endpoints</h2>
          <EndpointTable endpoints={endpoints} />
          <h2>Register an endpoint</h2>
          <form method="post" action={WEBHOOKS_PATH} novalidate>
            <CsrfField token={csrf} />
            <TextField
              name="url"
              label={WEBHOOK_LABELS.url}
              value={values.url}
              error={errors.url}
              hint="An https address of your system that is reachable from the internet."
              type="url"
              maxLength={2048}
            />
            <TextField
              name="description"
              label={WEBHOOK_LABELS.description}
              value={values.description}
              error={errors.description}
              hint="Optional, as in Order system."
              maxLength={200}
            />
            <CheckboxGroup
              name="events"
              legend={WEBHOOK_LABELS.events}
              choices={EVENT_CHOICES}
              values={values.events ?? []}
              error={errors.events}
            />
            <button type="submit">Register the endpoint</button>
          </form>
        </>
      ) : null}
    </Layout>
  );
}

const DELIVERY_STATUS_TEXT: Readonly<Record<DeliveryView['status'], string>> = {
  pending: 'Being tried',
  delivered: 'Delivered',
  failed: 'Failed for three days',
  cancelled: 'Cancelled',
};

function DeliveryTable({ deliveries }: { deliveries: readonly DeliveryView[] }) {
  if (!deliveries.length) return <p>Nothing has been sent to this endpoint yet.</p>;
  return (
    <table>
      <caption class="visually-hidden">Deliveries to this endpoint, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last answer</th>
          <th scope="col">Next attempt</th>
          <th scope="col">Recorded</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.deliveryId}>
            <th scope="row">
              {delivery.eventType} <code>{delivery.eventId}</code>
            </th>
            <td>{DELIVERY_STATUS_TEXT[delivery.status]}</td>
            <td>{String(delivery.attempts)}</td>
            <td>{delivery.lastResponseCode ?? delivery.lastError ?? 'None yet'}</td>
            <td>{delivery.nextAttemptAt ? new Date(delivery.nextAttemptAt).toISOString() : 'None'}</td>
            <td>{new Date(delivery.createdAt).toISOString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface WebhookPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly endpoint: EndpointView;
  readonly deliveries: readonly DeliveryView[];
  readonly notice?: string | undefined;
}

/** `/dashboard/webhooks/:id`: one endpoint, its delivery log, and turning it off, on or away. */
export function WebhookPage({ csrf, viewer, endpoint, deliveries, notice }: WebhookPageProps) {
  const on = endpoint.status === 'enabled';
  return (
    <Layout title={`Webhook endpoint ${endpoint.url}`} viewer={viewer} csrf={csrf} notice={notice}>
      <p>
        <a href={WEBHOOKS_PATH}>All webhook endpoints</a>
      </p>
      <dl>
        <dt>What it is for</dt>
        <dd>{endpoint.description || 'Not given'}</dd>
        <dt>Events</dt>
        <dd>{endpoint.events.join(', ')}</dd>
        <dt>Status</dt>
        <dd>{statusText(endpoint)}</dd>
        <dt>Created</dt>
        <dd>{day(new Date(endpoint.createdAt))}</dd>
      </dl>
      <form method="post" action={webhookStatusPath(endpoint.endpointId)}>
        <CsrfField token={csrf} />
        <input type="hidden" name="enabled" value={on ? 'false' : 'true'} />
        <button type="submit" class={on ? 'secondary' : undefined}>
          {on ? 'Turn it off' : 'Turn it on again'}
        </button>
      </form>
      <h2>Delivery log</h2>
      <p>The 100 newest deliveries; the API's delivery log pages through all of them.</p>
      <DeliveryTable deliveries={deliveries} />
      <h2>Delete the endpoint</h2>
      <p>Its delivery log goes with it, and deliveries still being tried stop.</p>
      <form method="post" action={webhookDeletePath(endpoint.endpointId)}>
        <CsrfField token={csrf} />
        <button type="submit" class="secondary">
          Delete this endpoint
        </button>
      </form>
    </Layout>
  );
}
