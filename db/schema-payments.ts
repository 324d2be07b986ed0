import type { ColumnType, Generated } from 'kysely';
import type {
  BookingStatus,
  CheckoutProvider,
  CheckoutStatus,
  EventProvider,
  PaymentStatus,
} from '../lib/domain.ts';
import type { Defaulted, GeneratedTimestamp, JsonObject, Numeric, Timestamp } from './schema.ts';

// Kysely types of db/migrations/0008_payments.sql and 0019_payments.sql; listed in `Database` in db/schema.ts.

export interface PaymentsTable {
  id: Generated<string>;
  organization_id: string;
  study_id: string;
  session_id: string;
  tester_id: string;
  amount: Numeric;
  currency: string;
  status: Defaulted<PaymentStatus>;
  provider_payout_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  attempts: Defaulted<number>;
  queued_at: GeneratedTimestamp;
  paid_at: Timestamp | null;
  failed_at: Timestamp | null;
  updated_at: GeneratedTimestamp;
  /** The platform's transfer to the connected account; made once per payment (0019). */
  provider_transfer_id: string | null;
  /** When a failed payout is tried again; null when no retry is queued (0019). */
  next_attempt_at: Timestamp | null;
}

export interface ProviderEventsTable {
  /** The provider's event id. */
  id: string;
  provider: EventProvider;
  type: string;
  payload: JsonObject;
  provider_created_at: Timestamp | null;
  received_at: GeneratedTimestamp;
  processed_at: Timestamp | null;
  processing_error: string | null;
}

export interface ReviewCallBookingsTable {
  id: Generated<string>;
  organization_id: string | null;
  study_id: string | null;
  provider_booking_id: string;
  provider_event_id: string | null;
  /** Always `scheduling`: names the provider half of the event's key (0019). */
  provider_event_source: Defaulted<'scheduling'>;
  invitee_email: string;
  invitee_name: string | null;
  consultant_name: string | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  status: Defaulted<BookingStatus>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface CheckoutSessionsTable {
  /** The provider's checkout session id. */
  id: string;
  provider: CheckoutProvider;
  organization_id: string;
  study_id: string;
  created_by: string | null;
  /** Minor units of `currency`; pg returns bigint as a string. */
  amount_total: ColumnType<string, number | string, number | string>;
  currency: string;
  url: string;
  status: Defaulted<CheckoutStatus>;
  expires_at: Timestamp;
  completed_at: Timestamp | null;
  created_at: GeneratedTimestamp;
}
