-- Payments (issue 7): provider events keyed per provider, checkout sessions of studies, and the
-- bookkeeping a payout needs to be retried without paying twice.

-- Two providers (payments, scheduling) may use the same event id: an event is its provider's id
-- within that provider. Bookings come only from the scheduling provider; the constant column lets
-- their foreign key name the pair.
alter table review_call_bookings drop constraint if exists review_call_bookings_provider_event_id_fkey;
alter table provider_events drop constraint if exists provider_events_pkey;
alter table provider_events add primary key (provider, id);
alter table review_call_bookings add column if not exists provider_event_source text not null default 'scheduling'
  check (provider_event_source = 'scheduling');
alter table review_call_bookings add constraint review_call_bookings_provider_event_fkey
  foreign key (provider_event_source, provider_event_id) references provider_events (provider, id)
  on delete set null (provider_event_id);

-- The platform's transfer to the tester's connected account happens once per payment; a failed
-- payout is retried from the connected account's balance, so the transfer id is kept.
alter table payments add column if not exists provider_transfer_id varchar(255) unique;
-- When a failed payout will be tried again (null when no retry is queued).
alter table payments add column if not exists next_attempt_at timestamptz;
create index if not exists payments_provider_payout_idx on payments (provider_payout_id);

-- One row per checkout session created for a study (a business may start several; one completes).
create table if not exists checkout_sessions (
  -- The provider's own id (`cs_...`), or `cs_local_...` from the local provider.
  id varchar(255) primary key,
  provider text not null check (provider in ('stripe', 'local')),
  organization_id uuid not null,
  study_id uuid not null,
  created_by uuid references users (id) on delete set null,
  -- Minor units of `currency` (cents; yen for JPY): tester count x compensation.
  amount_total bigint not null check (amount_total > 0),
  currency char(3) not null check (currency ~ '^[A-Z]{3}$'),
  url varchar(2048) not null,
  status text not null default 'open' check (status in ('open', 'complete', 'expired')),
  expires_at timestamptz not null,
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  foreign key (study_id, organization_id) references studies (id, organization_id) on delete restrict,
  check ((status = 'complete') = (completed_at is not null))
);
create index if not exists checkout_sessions_study_idx on checkout_sessions (study_id, created_at desc);
create index if not exists checkout_sessions_completed_idx on checkout_sessions (completed_at) where status = 'complete';

alter table checkout_sessions enable row level security;
alter table checkout_sessions force row level security;
grant select, insert, update, delete on table checkout_sessions to usability_app, usability_system;
drop policy if exists checkout_sessions_select on checkout_sessions;
drop policy if exists checkout_sessions_insert on checkout_sessions;
drop policy if exists checkout_sessions_update on checkout_sessions;
drop policy if exists checkout_sessions_delete on checkout_sessions;
-- The organization sees what it was asked to pay; only the system (checkout, webhooks) writes.
create policy checkout_sessions_select on checkout_sessions for select
  using (app.is_admin() or app.is_business_of(organization_id));
create policy checkout_sessions_insert on checkout_sessions for insert with check (app.is_admin());
create policy checkout_sessions_update on checkout_sessions for update using (app.is_admin()) with check (app.is_admin());
create policy checkout_sessions_delete on checkout_sessions for delete using (app.is_admin());

-- studies_update lets the organization write its studies; whether a study is paid is the payment
-- provider's word alone (the webhook, through the system door) or an admin's.
create or replace function app.guard_study_payment() returns trigger
  language plpgsql
  as $$
begin
  if app.user_id() is not null and not app.is_admin() and new.paid_at is distinct from old.paid_at then
    raise exception 'only the payment provider''s confirmation marks a study paid'
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;
drop trigger if exists studies_payment_guard on studies;
create trigger studies_payment_guard before update of paid_at on studies
  for each row execute function app.guard_study_payment();
