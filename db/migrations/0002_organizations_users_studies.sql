create table if not exists organizations (
  id uuid primary key default gen_random_uuid(),
  name varchar(200) not null,
  plan text not null default 'free' check (plan in ('free', 'pro')),
  created_at timestamptz not null default now()
);

create table if not exists users (
  id uuid primary key default gen_random_uuid(),
  email varchar(320) not null check (email = lower(email) and position('@' in email) > 1),
  role text not null check (role in ('business', 'tester', 'admin')),
  display_name varchar(200),
  password_hash text,
  created_at timestamptz not null default now()
);
create unique index if not exists users_email_key on users (email);

create table if not exists organization_memberships (
  organization_id uuid not null references organizations (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  member_role text not null default 'member' check (member_role in ('owner', 'member')),
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id)
);
create index if not exists organization_memberships_user_idx on organization_memberships (user_id);

create table if not exists studies (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id) on delete restrict,
  created_by uuid references users (id) on delete set null,
  title varchar(200) not null check (length(btrim(title)) > 0),
  description varchar(5000) not null,
  prototype_url varchar(2048) not null,
  prototype_type text not null check (prototype_type in ('design_tool_1', 'design_tool_2', 'design_tool_3', 'url')),
  target_countries char(2)[] not null check (cardinality(target_countries) > 0),
  target_age_min integer check (target_age_min between 13 and 120),
  target_age_max integer check (target_age_max between 13 and 120),
  target_devices text[] not null check (cardinality(target_devices) > 0 and target_devices <@ array['desktop', 'mobile', 'tablet']),
  target_languages text[] not null default array['en'] check (cardinality(target_languages) > 0),
  tester_count integer not null check (tester_count > 0),
  ab_test_enabled boolean not null default false,
  compensation_currency char(3) not null check (compensation_currency ~ '^[A-Z]{3}$'),
  compensation_amount numeric(12, 2) not null check (compensation_amount >= 0),
  compensation_type text not null default 'flat' check (compensation_type = 'flat'),
  require_think_aloud boolean not null default false,
  record_screen boolean not null default false,
  record_facial boolean not null default false,
  record_voice boolean not null default false,
  max_duration_minutes integer not null default 60 check (max_duration_minutes between 1 and 1440),
  reminder_after_hours integer check (reminder_after_hours between 1 and 720),
  tone_profile text not null default 'moderate' check (tone_profile in ('standard', 'supportive', 'moderate', 'restorative')),
  notes_confirmed boolean not null default false,
  status text not null default 'draft' check (status in ('draft', 'active', 'paused', 'completed', 'archived')),
  estimated_launch_date timestamptz not null,
  idempotency_key varchar(255),
  request_hash char(64),
  paid_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (target_age_min is null or target_age_max is null or target_age_min <= target_age_max),
  check ((idempotency_key is null) = (request_hash is null))
);
create index if not exists studies_organization_created_idx on studies (organization_id, created_at desc, id);
create index if not exists studies_status_idx on studies (status);
create unique index if not exists studies_idempotency_key on studies (organization_id, idempotency_key)
  where idempotency_key is not null;

create table if not exists study_tasks (
  id uuid primary key default gen_random_uuid(),
  study_id uuid not null references studies (id) on delete cascade,
  position integer not null check (position >= 1),
  title varchar(200) not null,
  description varchar(5000) not null,
  success_criteria varchar(5000),
  unique (study_id, position)
);

create table if not exists study_variants (
  id uuid primary key default gen_random_uuid(),
  study_id uuid not null references studies (id) on delete cascade,
  label varchar(50) not null,
  description varchar(5000) not null,
  split_ratio numeric(7, 6) not null check (split_ratio > 0 and split_ratio <= 1),
  unique (study_id, label)
);
