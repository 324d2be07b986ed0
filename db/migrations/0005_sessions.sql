-- Sessions and their feedback; studies become readable by testers with a non-cancelled session.
-- A session carries its study's organization (kept consistent by a composite foreign key) so that
-- its policies never read `studies`, which in turn reads `sessions`: no recursion between them.

create unique index if not exists studies_id_organization_key on studies (id, organization_id);

create table if not exists sessions (
  id uuid primary key default gen_random_uuid(),
  study_id uuid not null,
  organization_id uuid not null,
  tester_id uuid not null references users (id) on delete restrict,
  -- The study variant's label; null when the study runs a single variant.
  variant varchar(50),
  -- `cancelled` is ours: a withdrawn or revoked session, which no longer opens the study to its tester.
  status text not null default 'active' check (status in (
    'active', 'paused', 'completed', 'analyzing', 'analyzed', 'confirmed', 'cancelled')),
  -- SHA-256 of the 48-hex-character test token; the token itself is never stored.
  test_token_hash char(64) unique check (test_token_hash ~ '^[0-9a-f]{64}$'),
  test_token_expires_at timestamptz,
  notes_confirmed boolean not null default false,
  notes_confirmed_at timestamptz,
  rating smallint check (rating between 1 and 5),
  rating_comment varchar(5000),
  started_at timestamptz not null default now(),
  completed_at timestamptz,
  duration_seconds integer check (duration_seconds >= 0),
  analyzed_at timestamptz,
  confirmed_at timestamptz,
  cancelled_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (study_id, organization_id) references studies (id, organization_id) on delete restrict,
  foreign key (study_id, variant) references study_variants (study_id, label) on delete restrict,
  unique (id, organization_id),
  check ((test_token_hash is null) = (test_token_expires_at is null)),
  check (completed_at is null or completed_at >= started_at),
  check (not notes_confirmed or status = 'confirmed'),
  check ((status = 'confirmed') = (confirmed_at is not null)),
  check ((status = 'cancelled') = (cancelled_at is not null))
);
-- One live session per tester per study (and so one report per tester per study).
create unique index if not exists sessions_study_tester_live_key on sessions (study_id, tester_id)
  where status <> 'cancelled';
create index if not exists sessions_study_status_idx on sessions (study_id, status);
create index if not exists sessions_tester_created_idx on sessions (tester_id, created_at desc);
create index if not exists sessions_organization_created_idx on sessions (organization_id, created_at desc);

-- The state machine of spec "States and transitions" (plus DESIGN's pause and our cancel), kept by
-- the database so that no caller, however buggy, can skip the human-in-the-loop gate.
-- It also keeps a session on its study, organization and tester (a moved session would open another
-- study to its tester), and keeps the tester away from their own test token and variant.
create or replace function app.check_session_update() returns trigger
  language plpgsql
  as $$
begin
  if (new.study_id, new.organization_id, new.tester_id) is distinct from (old.study_id, old.organization_id, old.tester_id) then
    raise exception 'a session cannot change study, organization or tester' using errcode = 'check_violation';
  end if;
  if app.is_tester() and (new.test_token_hash, new.test_token_expires_at, new.variant, new.started_at)
      is distinct from (old.test_token_hash, old.test_token_expires_at, old.variant, old.started_at) then
    raise exception 'a tester cannot change the test token, variant or start of a session'
      using errcode = 'insufficient_privilege';
  end if;
  if new.status = old.status then
    return new;
  end if;
  if not (old.status, new.status) in (
    ('active', 'paused'), ('paused', 'active'), ('active', 'completed'), ('paused', 'completed'),
    ('completed', 'analyzing'), ('analyzing', 'analyzed'), ('analyzing', 'completed'),
    ('analyzed', 'analyzing'), ('analyzed', 'confirmed'),
    ('active', 'cancelled'), ('paused', 'cancelled'), ('completed', 'cancelled'),
    ('analyzing', 'cancelled'), ('analyzed', 'cancelled')
  ) then
    raise exception 'session % cannot go from % to %', old.id, old.status, new.status
      using errcode = 'check_violation';
  end if;
  return new;
end
$$;
drop trigger if exists sessions_guard on sessions;
create trigger sessions_guard before update on sessions
  for each row execute function app.check_session_update();

create table if not exists session_feedback (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null unique references sessions (id) on delete cascade,
  tester_id uuid not null references users (id) on delete cascade,
  clarity smallint not null check (clarity between 1 and 5),
  difficulty smallint not null check (difficulty between 1 and 5),
  technical_issues boolean not null,
  comment varchar(5000),
  submitted_at timestamptz not null default now()
);

-- SECURITY DEFINER so that `studies_select` can ask about sessions without evaluating the
-- sessions policies inside the studies policy.
create or replace function app.has_session_on(study uuid) returns boolean
  language sql stable security definer
  set search_path = pg_catalog, pg_temp
  as $$ select exists (
    select 1 from public.sessions s
    where s.study_id = study and s.tester_id = app.user_id() and s.status <> 'cancelled') $$;
revoke all on function app.has_session_on(uuid) from public;
grant execute on function app.has_session_on(uuid) to usability_app, usability_system;

-- Invoker helpers: they read `sessions` through its own policies.
create or replace function app.can_see_session(session uuid) returns boolean
  language sql stable
  as $$ select exists (select 1 from public.sessions s where s.id = session) $$;

create or replace function app.is_tester_of_session(session uuid) returns boolean
  language sql stable
  as $$ select exists (select 1 from public.sessions s where s.id = session and s.tester_id = app.user_id()) $$;

-- Signals may be recorded only while the tester's session runs.
create or replace function app.can_record_on(session uuid) returns boolean
  language sql stable
  as $$ select exists (
    select 1 from public.sessions s
    where s.id = session and s.tester_id = app.user_id() and s.status in ('active', 'paused')) $$;

drop policy if exists studies_select on studies;
create policy studies_select on studies for select using (
  app.is_admin() or organization_id = app.organization_id() or app.has_session_on(id));
-- study_tasks and study_variants already follow the visibility of their study (0003).

do $$
declare
  t text;
begin
  foreach t in array array['sessions', 'session_feedback'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('grant select, insert, update, delete on table %I to usability_app, usability_system', t);
    execute format('drop policy if exists %I on %I', t || '_select', t);
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format('drop policy if exists %I on %I', t || '_update', t);
    execute format('drop policy if exists %I on %I', t || '_delete', t);
  end loop;
end
$$;

-- Sessions: their tester and the owning organization see them. The business (or an admin) creates
-- them; accepting an offer creates them through the system door. The tester moves their own
-- session (pause, complete, confirm) within the state machine above. Only admins delete.
create policy sessions_select on sessions for select
  using (app.is_admin() or tester_id = app.user_id() or app.is_business_of(organization_id));
create policy sessions_insert on sessions for insert
  with check (app.is_admin() or app.is_business_of(organization_id));
create policy sessions_update on sessions for update
  using (app.is_admin() or tester_id = app.user_id() or app.is_business_of(organization_id))
  with check (app.is_admin() or tester_id = app.user_id() or app.is_business_of(organization_id));
create policy sessions_delete on sessions for delete using (app.is_admin());

-- Feedback is the tester's, once per session; the organization reads it.
create policy session_feedback_select on session_feedback for select
  using (app.is_admin() or tester_id = app.user_id() or app.can_see_session(session_id));
create policy session_feedback_insert on session_feedback for insert
  with check (app.is_admin() or (tester_id = app.user_id() and app.is_tester_of_session(session_id)));
create policy session_feedback_update on session_feedback for update using (app.is_admin()) with check (app.is_admin());
create policy session_feedback_delete on session_feedback for delete using (app.is_admin());
