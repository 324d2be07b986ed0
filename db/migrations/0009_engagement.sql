-- Gamification (point ledger, badges), community statistics snapshots and the notification
-- outbox; and the migration runner's own table kept away from the application roles.

create table if not exists badges (
  id uuid primary key default gen_random_uuid(),
  code varchar(50) not null unique check (code ~ '^[a-z0-9_]+$'),
  name varchar(100) not null,
  description varchar(1000) not null,
  icon_url varchar(2048) not null,
  -- Awarded when the tester's cumulative points cross this threshold.
  threshold_points integer not null unique check (threshold_points > 0),
  created_at timestamptz not null default now()
);

create table if not exists awarded_badges (
  tester_id uuid not null references users (id) on delete cascade,
  badge_id uuid not null references badges (id) on delete restrict,
  -- The evaluated session that crossed the threshold.
  session_id uuid references sessions (id) on delete set null,
  awarded_at timestamptz not null default now(),
  primary key (tester_id, badge_id)
);
create index if not exists awarded_badges_session_idx on awarded_badges (session_id);

create table if not exists point_ledger (
  id bigint generated always as identity primary key,
  tester_id uuid not null references users (id) on delete cascade,
  session_id uuid references sessions (id) on delete set null,
  signal text not null check (signal in (
    'session_completed', 'business_rating', 'think_aloud', 'on_time', 'streak_bonus', 'adjustment')),
  points integer not null,
  note varchar(1000),
  created_at timestamptz not null default now(),
  -- Each signal pays at most its maximum from the spec's table; adjustments are admin corrections.
  check (case signal
    when 'session_completed' then points between 0 and 50
    when 'business_rating' then points between 0 and 30
    when 'think_aloud' then points between 0 and 20
    when 'on_time' then points between 0 and 10
    when 'streak_bonus' then points between 0 and 20
    else true end),
  -- A session is evaluated once: a second evaluation cannot pay the same signal again.
  unique (session_id, signal)
);
create index if not exists point_ledger_tester_idx on point_ledger (tester_id, id);

create table if not exists community_stats_snapshots (
  id bigint generated always as identity primary key,
  total_testers integer not null check (total_testers >= 0),
  active_testers integer not null check (active_testers between 0 and total_testers),
  total_studies_completed integer not null check (total_studies_completed >= 0),
  total_sessions_completed integer not null check (total_sessions_completed >= 0),
  avg_session_rating numeric(3, 2) check (avg_session_rating between 1 and 5),
  top_countries jsonb not null default '[]' check (jsonb_typeof(top_countries) = 'array'),
  device_breakdown jsonb not null default '{}' check (jsonb_typeof(device_breakdown) = 'object'),
  avg_compensation_currency char(3) check (avg_compensation_currency ~ '^[A-Z]{3}$'),
  avg_compensation_amount numeric(12, 2) check (avg_compensation_amount >= 0),
  cached_at timestamptz not null default now(),
  next_refresh_at timestamptz not null,
  check (next_refresh_at > cached_at),
  check ((avg_compensation_currency is null) = (avg_compensation_amount is null))
);
create index if not exists community_stats_snapshots_cached_idx on community_stats_snapshots (cached_at desc);

create table if not exists notification_outbox (
  id uuid primary key default gen_random_uuid(),
  channel text not null check (channel in ('email', 'messaging')),
  recipient varchar(320) not null,
  user_id uuid references users (id) on delete set null,
  kind varchar(100) not null,
  subject varchar(500),
  body text not null,
  payload jsonb not null default '{}' check (jsonb_typeof(payload) = 'object'),
  -- Makes enqueueing idempotent (for example `offer-reminder:<proposalId>`).
  dedupe_key varchar(255) unique,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  available_at timestamptz not null default now(),
  sent_at timestamptz,
  last_error varchar(5000),
  created_at timestamptz not null default now(),
  check ((status = 'sent') = (sent_at is not null))
);
create index if not exists notification_outbox_status_idx on notification_outbox (status, available_at);

do $$
declare
  t text;
begin
  foreach t in array array['badges', 'awarded_badges', 'point_ledger', 'community_stats_snapshots', 'notification_outbox'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('grant select, insert, update, delete on table %I to usability_app, usability_system', t);
    execute format('drop policy if exists %I on %I', t || '_select', t);
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format('drop policy if exists %I on %I', t || '_update', t);
    execute format('drop policy if exists %I on %I', t || '_delete', t);
    -- Points, badges, statistics and notifications are written by the system and admins.
    execute format('create policy %I on %I for insert with check (app.is_admin())', t || '_insert', t);
    execute format('create policy %I on %I for update using (app.is_admin()) with check (app.is_admin())', t || '_update', t);
    execute format('create policy %I on %I for delete using (app.is_admin())', t || '_delete', t);
  end loop;
end
$$;

-- The badge catalogue and the community statistics are public.
create policy badges_select on badges for select using (true);
create policy community_stats_snapshots_select on community_stats_snapshots for select using (true);
-- A tester sees only their own points and badges.
create policy awarded_badges_select on awarded_badges for select using (app.is_admin() or tester_id = app.user_id());
create policy point_ledger_select on point_ledger for select using (app.is_admin() or tester_id = app.user_id());
create policy notification_outbox_select on notification_outbox for select using (app.is_admin());

-- 0001's default privileges also reached the runner's bookkeeping table; only the migration role
-- needs it. It is the one table outside row-level security (db/check-rls.ts names it).
do $$
begin
  if to_regclass('public.schema_migrations') is not null then
    revoke all on table public.schema_migrations from usability_app, usability_system;
  end if;
end
$$;
