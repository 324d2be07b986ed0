-- Authentication: refresh tokens, API tokens, one-time tokens (magic link, password reset),
-- OAuth states, external identities and login-failure counters. Secrets are stored only as
-- SHA-256 hashes of high-entropy random values. These tables are system-only: their policies
-- pass admins (and, for API tokens and identities, their owners); the API reaches them through
-- the system door.

-- Suspension (a suspended user cannot log in by any method). Another migration may have added
-- the column already; the first definition wins.
alter table users add column if not exists status text not null default 'active'
  check (status in ('active', 'suspended', 'pending'));

create table if not exists refresh_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  -- Every token descended from one login shares a family; reuse of a rotated one revokes it all.
  family_id uuid not null,
  token_hash char(64) not null unique,
  created_at timestamptz not null,
  -- Sliding: 7 days after this token was issued, never beyond family_expires_at.
  expires_at timestamptz not null,
  -- Absolute: 30 days after the login that started the family.
  family_expires_at timestamptz not null,
  rotated_at timestamptz,
  revoked_at timestamptz,
  check (expires_at <= family_expires_at)
);
create index if not exists refresh_tokens_family_idx on refresh_tokens (family_id);
create index if not exists refresh_tokens_user_idx on refresh_tokens (user_id);

create table if not exists api_tokens (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id) on delete cascade,
  created_by uuid not null references users (id) on delete cascade,
  name varchar(100) not null,
  scope text not null check (scope in ('read', 'read_write', 'admin')),
  token_hash char(64) not null unique,
  -- The first characters of the token, so owners can tell tokens apart without the secret.
  token_prefix varchar(16) not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index if not exists api_tokens_organization_idx on api_tokens (organization_id, created_at desc);

create table if not exists one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('magic_link', 'password_reset')),
  token_hash char(64) not null unique,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  check (expires_at > created_at)
);
create index if not exists one_time_tokens_user_idx on one_time_tokens (user_id, purpose);

create table if not exists oauth_states (
  state_hash char(64) primary key,
  provider varchar(50) not null,
  code_verifier varchar(128) not null,
  -- The role an account created by this flow gets.
  signup_role text not null default 'tester' check (signup_role in ('business', 'tester')),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create table if not exists user_identities (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  provider varchar(50) not null,
  subject varchar(255) not null,
  email varchar(320),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider, subject)
);
create index if not exists user_identities_user_idx on user_identities (user_id);

-- Keyed by the submitted email whether or not an account exists, so lockout reveals nothing.
create table if not exists login_failures (
  email varchar(320) primary key,
  failure_count integer not null default 0 check (failure_count >= 0),
  last_failure_at timestamptz not null,
  locked_until timestamptz
);

create or replace function app.is_owner_of(org uuid) returns boolean
  language sql stable
  as $$ select app.is_business_of(org) and exists (
    select 1 from organization_memberships m
    where m.organization_id = org and m.user_id = app.user_id() and m.member_role = 'owner') $$;

do $$
declare
  t text;
begin
  foreach t in array array['refresh_tokens', 'api_tokens', 'one_time_tokens', 'oauth_states',
                            'user_identities', 'login_failures'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('drop policy if exists %I on %I', t || '_select', t);
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format('drop policy if exists %I on %I', t || '_update', t);
    execute format('drop policy if exists %I on %I', t || '_delete', t);
  end loop;
end
$$;

-- Secrets and counters: admins only (the API works on them through the system door).
create policy refresh_tokens_select on refresh_tokens for select using (app.is_admin());
create policy refresh_tokens_insert on refresh_tokens for insert with check (app.is_admin());
create policy refresh_tokens_update on refresh_tokens for update using (app.is_admin()) with check (app.is_admin());
create policy refresh_tokens_delete on refresh_tokens for delete using (app.is_admin());

create policy one_time_tokens_select on one_time_tokens for select using (app.is_admin());
create policy one_time_tokens_insert on one_time_tokens for insert with check (app.is_admin());
create policy one_time_tokens_update on one_time_tokens for update using (app.is_admin()) with check (app.is_admin());
create policy one_time_tokens_delete on one_time_tokens for delete using (app.is_admin());

create policy oauth_states_select on oauth_states for select using (app.is_admin());
create policy oauth_states_insert on oauth_states for insert with check (app.is_admin());
create policy oauth_states_update on oauth_states for update using (app.is_admin()) with check (app.is_admin());
create policy oauth_states_delete on oauth_states for delete using (app.is_admin());

create policy login_failures_select on login_failures for select using (app.is_admin());
create policy login_failures_insert on login_failures for insert with check (app.is_admin());
create policy login_failures_update on login_failures for update using (app.is_admin()) with check (app.is_admin());
create policy login_failures_delete on login_failures for delete using (app.is_admin());

-- API tokens: the organization's owners see and manage their own (hashes only, never secrets).
create policy api_tokens_select on api_tokens for select using (app.is_admin() or app.is_owner_of(organization_id));
create policy api_tokens_insert on api_tokens for insert
  with check (app.is_admin() or (app.is_owner_of(organization_id) and created_by = app.user_id()));
create policy api_tokens_update on api_tokens for update
  using (app.is_admin() or app.is_owner_of(organization_id))
  with check (app.is_admin() or app.is_owner_of(organization_id));
create policy api_tokens_delete on api_tokens for delete using (app.is_admin());

-- Identities: a user sees the providers linked to their account; only the system links them.
create policy user_identities_select on user_identities for select using (app.is_admin() or user_id = app.user_id());
create policy user_identities_insert on user_identities for insert with check (app.is_admin());
create policy user_identities_update on user_identities for update using (app.is_admin()) with check (app.is_admin());
create policy user_identities_delete on user_identities for delete using (app.is_admin() or user_id = app.user_id());
