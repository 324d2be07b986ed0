-- Outgoing webhooks (issue 34, point 5): an organization's endpoints, the events that happened to
-- it, and one delivery of each event to each endpoint subscribed to its type. An event and its
-- deliveries are written in the transaction of the change they announce (nothing announced that
-- did not happen, nothing that happened left unannounced); `webhook-delivery:<deliveryId>`
-- workflows send them (docs/decisions/webhooks.md).
create table if not exists webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id) on delete cascade,
  url text not null check (length(url) between 1 and 2048),
  description text not null default '' check (length(description) <= 200),
  events text[] not null check (cardinality(events) between 1 and 32),
  -- The signing secret: shown once at creation, read afterwards only by the system door.
  secret text not null check (length(secret) >= 32),
  status text not null default 'enabled' check (status in ('enabled', 'disabled')),
  disabled_reason text check (disabled_reason in ('owner', 'failing')),
  disabled_at timestamptz,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((status = 'disabled') = (disabled_reason is not null)),
  check ((status = 'disabled') = (disabled_at is not null))
);
create index if not exists webhook_endpoints_organization_idx on webhook_endpoints (organization_id);

create table if not exists webhook_events (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id) on delete cascade,
  type text not null check (length(type) between 1 and 64),
  -- What the event's body carries under `data.object`, as it was when the event happened.
  object jsonb not null check (jsonb_typeof(object) = 'object'),
  -- What the event announces, once: a retried activity or a repeated provider event finds its key taken.
  dedupe_key text not null unique check (length(dedupe_key) between 1 and 200),
  created_at timestamptz not null default now()
);
create index if not exists webhook_events_organization_idx on webhook_events (organization_id, created_at desc);

create table if not exists webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  event_id uuid not null references webhook_events (id) on delete cascade,
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  organization_id uuid not null references organizations (id) on delete cascade,
  -- pending: being tried; delivered: a 2xx came back; failed: its schedule ran out;
  -- cancelled: its endpoint was disabled or changed its events before it got through.
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'cancelled')),
  attempts integer not null default 0 check (attempts >= 0),
  last_response_code integer check (last_response_code between 100 and 599),
  last_error text check (length(last_error) <= 500),
  last_attempt_at timestamptz,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  unique (event_id, endpoint_id),
  check ((status = 'delivered') = (delivered_at is not null))
);
create index if not exists webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc);
create index if not exists webhook_deliveries_pending_idx on webhook_deliveries (created_at) where status = 'pending';

do $$
declare
  t text;
begin
  foreach t in array array['webhook_endpoints', 'webhook_events', 'webhook_deliveries'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('grant select, insert, update, delete on table %I to usability_system', t);
    execute format('drop policy if exists %I on %I', t || '_select', t);
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format('drop policy if exists %I on %I', t || '_update', t);
    execute format('drop policy if exists %I on %I', t || '_delete', t);
    -- The organization's owners read them (as they manage its API tokens); never another organization.
    execute format('create policy %I on %I for select using (app.is_admin() or app.is_owner_of(organization_id))', t || '_select', t);
  end loop;
end
$$;

-- On a caller's behalf the secret is written once and never read back: no column grant covers it.
revoke all on table webhook_endpoints from usability_app;
grant select (id, organization_id, url, description, events, status, disabled_reason, disabled_at,
              created_by, created_at, updated_at) on table webhook_endpoints to usability_app;
grant insert (organization_id, url, description, events, secret, created_by) on table webhook_endpoints to usability_app;
grant update (url, description, events, status, disabled_reason, disabled_at, updated_at)
  on table webhook_endpoints to usability_app;
grant delete on table webhook_endpoints to usability_app;
create policy webhook_endpoints_insert on webhook_endpoints for insert
  with check (app.is_admin() or (app.is_owner_of(organization_id) and created_by = app.user_id()));
create policy webhook_endpoints_update on webhook_endpoints for update
  using (app.is_admin() or app.is_owner_of(organization_id))
  with check (app.is_admin() or app.is_owner_of(organization_id));
create policy webhook_endpoints_delete on webhook_endpoints for delete
  using (app.is_admin() or app.is_owner_of(organization_id));

-- Events and deliveries are written by the system door (and admins) alone; owners only read them.
grant select, insert, update, delete on table webhook_events, webhook_deliveries to usability_app;
create policy webhook_events_insert on webhook_events for insert with check (app.is_admin());
create policy webhook_events_update on webhook_events for update using (app.is_admin()) with check (app.is_admin());
create policy webhook_events_delete on webhook_events for delete using (app.is_admin());
create policy webhook_deliveries_insert on webhook_deliveries for insert with check (app.is_admin());
create policy webhook_deliveries_update on webhook_deliveries for update using (app.is_admin()) with check (app.is_admin());
create policy webhook_deliveries_delete on webhook_deliveries for delete using (app.is_admin());
