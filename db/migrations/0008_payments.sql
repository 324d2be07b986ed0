-- Money and incoming provider events: session payments, the raw provider events (stored by their
-- id first, for idempotency) and review-call bookings from the scheduling provider.

create table if not exists payments (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  study_id uuid not null,
  -- One payment per confirmed session.
  session_id uuid not null unique,
  tester_id uuid not null references users (id) on delete restrict,
  amount numeric(12, 2) not null check (amount > 0),
  currency char(3) not null check (currency ~ '^[A-Z]{3}$'),
  status text not null default 'queued' check (status in ('queued', 'processing', 'paid', 'failed')),
  provider_payout_id varchar(255) unique,
  failure_code varchar(100),
  failure_message varchar(2000),
  attempts integer not null default 0 check (attempts >= 0),
  queued_at timestamptz not null default now(),
  paid_at timestamptz,
  failed_at timestamptz,
  updated_at timestamptz not null default now(),
  foreign key (study_id, organization_id) references studies (id, organization_id) on delete restrict,
  foreign key (session_id, organization_id) references sessions (id, organization_id) on delete restrict,
  check ((status = 'paid') = (paid_at is not null)),
  check (status <> 'failed' or failed_at is not null)
);
create index if not exists payments_status_idx on payments (status, queued_at);
create index if not exists payments_tester_idx on payments (tester_id, queued_at desc);
create index if not exists payments_study_idx on payments (study_id);

create table if not exists provider_events (
  -- The provider's own event id: a repeated delivery collides here and changes nothing.
  id varchar(255) primary key,
  provider text not null check (provider in ('payments', 'scheduling', 'messaging')),
  type varchar(100) not null,
  payload jsonb not null check (jsonb_typeof(payload) = 'object'),
  provider_created_at timestamptz,
  received_at timestamptz not null default now(),
  processed_at timestamptz,
  processing_error varchar(5000)
);
create index if not exists provider_events_unprocessed_idx on provider_events (received_at) where processed_at is null;

create table if not exists review_call_bookings (
  id uuid primary key default gen_random_uuid(),
  -- Null when the booking's email matches no organization.
  organization_id uuid references organizations (id) on delete set null,
  study_id uuid references studies (id) on delete set null,
  provider_booking_id varchar(255) not null unique,
  provider_event_id varchar(255) references provider_events (id) on delete set null,
  invitee_email varchar(320) not null,
  invitee_name varchar(200),
  consultant_name varchar(200),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  status text not null default 'booked' check (status in ('booked', 'cancelled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (ends_at > starts_at)
);
create index if not exists review_call_bookings_organization_idx on review_call_bookings (organization_id, starts_at desc);

do $$
declare
  t text;
begin
  foreach t in array array['payments', 'provider_events', 'review_call_bookings'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('grant select, insert, update, delete on table %I to usability_app, usability_system', t);
    execute format('drop policy if exists %I on %I', t || '_select', t);
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format('drop policy if exists %I on %I', t || '_update', t);
    execute format('drop policy if exists %I on %I', t || '_delete', t);
    -- Every write comes from webhooks, payouts and admins.
    execute format('create policy %I on %I for insert with check (app.is_admin())', t || '_insert', t);
    execute format('create policy %I on %I for update using (app.is_admin()) with check (app.is_admin())', t || '_update', t);
    execute format('create policy %I on %I for delete using (app.is_admin())', t || '_delete', t);
  end loop;
end
$$;

-- A tester sees their own payments; the organization sees what it pays for its studies.
create policy payments_select on payments for select
  using (app.is_admin() or tester_id = app.user_id() or app.is_business_of(organization_id));
create policy provider_events_select on provider_events for select using (app.is_admin());
create policy review_call_bookings_select on review_call_bookings for select
  using (app.is_admin() or (organization_id is not null and app.is_business_of(organization_id)));
