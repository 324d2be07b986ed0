import type { ColumnType, Generated } from 'kysely';
import type {
  WebhookDeliveryStatus,
  WebhookDisabledReason,
  WebhookEndpointStatus,
  WebhookEventType,
} from '../lib/domain.ts';
import type { JsonObject } from './schema.ts';

// Kysely types of the outgoing webhook tables (db/migrations/0044_webhooks.sql); merged into `Database` in db/schema.ts.

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface WebhookEndpointsTable {
  id: Generated<string>;
  organization_id: string;
  url: string;
  description: Generated<string>;
  events: WebhookEventType[];
  secret: string;
  status: Generated<WebhookEndpointStatus>;
  disabled_reason: WebhookDisabledReason | null;
  disabled_at: NullableTimestamp;
  created_by: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface WebhookEventsTable {
  id: Generated<string>;
  organization_id: string;
  type: WebhookEventType;
  object: JsonObject;
  dedupe_key: string;
  created_at: DefaultTimestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  endpoint_id: string;
  organization_id: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  last_response_code: number | null;
  last_error: string | null;
  last_attempt_at: NullableTimestamp;
  next_attempt_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  created_at: DefaultTimestamp;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
