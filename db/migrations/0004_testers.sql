-- Testers: the qualification quiz, tester profiles and payout accounts.
-- Quizzes hold the correct answers, so they are admin-only; testers take the quiz through the
-- system door, which strips the answers.

create or replace function app.is_tester() returns boolean
  language sql stable
  as $$ select coalesce(app.role() = 'tester', false) $$;

create table if not exists quizzes (
  id uuid primary key default gen_random_uuid(),
  version integer not null unique check (version >= 1),
  passing_score integer not null check (passing_score between 0 and 100),
  published_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table if not exists quiz_questions (
  id uuid primary key default gen_random_uuid(),
  quiz_id uuid not null references quizzes (id) on delete cascade,
  position integer not null check (position >= 1),
  text varchar(2000) not null check (length(btrim(text)) > 0),
  type text not null default 'multiple_choice' check (type in ('multiple_choice')),
  -- [{id, text}, ...]; the correct option must be one of them.
  options jsonb not null check (jsonb_typeof(options) = 'array' and jsonb_array_length(options) >= 2),
  correct_option_id varchar(100) not null,
  points integer not null default 1 check (points between 1 and 100),
  unique (quiz_id, position),
  check (options @> jsonb_build_array(jsonb_build_object('id', correct_option_id)))
);

create table if not exists tester_profiles (
  user_id uuid primary key references users (id) on delete cascade,
  country char(2) not null check (country ~ '^[A-Z]{2}$'),
  birth_year integer check (birth_year between 1900 and 2100),
  devices text[] not null check (cardinality(devices) > 0 and devices <@ array['desktop', 'mobile', 'tablet']),
  languages text[] not null default array['en'] check (cardinality(languages) > 0),
  assistive_technologies text[] not null default '{}' check (assistive_technologies <@ array[
    'screen_reader', 'screen_magnifier', 'voice_control', 'switch_access', 'braille_display',
    'eye_tracking', 'captions', 'other']),
  access_needs text[] not null default '{}' check (access_needs <@ array[
    'keyboard_only', 'low_vision', 'blind', 'color_vision_deficiency', 'deaf_or_hard_of_hearing',
    'motor', 'cognitive', 'photosensitivity', 'other']),
  status text not null default 'pending' check (status in ('active', 'suspended', 'pending')),
  quiz_id uuid references quizzes (id) on delete set null,
  quiz_score integer check (quiz_score between 0 and 100),
  quiz_passed boolean,
  quiz_completed_at timestamptz,
  -- Where the messaging channel reaches the tester (offers, reminders, test tokens).
  messaging_chat_id varchar(100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((quiz_score is null) = (quiz_passed is null) and (quiz_score is null) = (quiz_completed_at is null))
);
create index if not exists tester_profiles_status_country_idx on tester_profiles (status, country);

create table if not exists payout_accounts (
  id uuid primary key default gen_random_uuid(),
  tester_id uuid not null unique references users (id) on delete cascade,
  provider_account_id varchar(255) not null unique,
  status text not null default 'onboarding' check (status in ('onboarding', 'verified', 'restricted')),
  charges_enabled boolean not null default false,
  payouts_enabled boolean not null default false,
  details_submitted boolean not null default false,
  requirements_currently_due text[] not null default '{}',
  requirements_eventually_due text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A tester edits their own profile but never their own status or quiz result: only an admin or
-- the system door (no claims) may change those.
create or replace function app.guard_tester_profile() returns trigger
  language plpgsql
  as $$
begin
  if app.user_id() is not null and not app.is_admin() and (
    new.status is distinct from old.status or new.quiz_id is distinct from old.quiz_id
    or new.quiz_score is distinct from old.quiz_score or new.quiz_passed is distinct from old.quiz_passed
    or new.quiz_completed_at is distinct from old.quiz_completed_at or new.user_id is distinct from old.user_id
  ) then
    raise exception 'only an admin may change a tester''s status or quiz result'
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;
drop trigger if exists tester_profiles_guard on tester_profiles;
create trigger tester_profiles_guard before update on tester_profiles
  for each row execute function app.guard_tester_profile();

do $$
declare
  t text;
begin
  foreach t in array array['quizzes', 'quiz_questions', 'tester_profiles', 'payout_accounts'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('grant select, insert, update, delete on table %I to usability_app, usability_system', t);
    execute format('drop policy if exists %I on %I', t || '_select', t);
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format('drop policy if exists %I on %I', t || '_update', t);
    execute format('drop policy if exists %I on %I', t || '_delete', t);
  end loop;
  -- Admin-only: quizzes carry the correct answers.
  foreach t in array array['quizzes', 'quiz_questions'] loop
    execute format('create policy %I on %I for select using (app.is_admin())', t || '_select', t);
    execute format('create policy %I on %I for insert with check (app.is_admin())', t || '_insert', t);
    execute format('create policy %I on %I for update using (app.is_admin()) with check (app.is_admin())', t || '_update', t);
    execute format('create policy %I on %I for delete using (app.is_admin())', t || '_delete', t);
  end loop;
end
$$;

-- A tester sees and edits only their own profile; they create it as pending, without a quiz result.
create policy tester_profiles_select on tester_profiles for select using (app.is_admin() or user_id = app.user_id());
create policy tester_profiles_insert on tester_profiles for insert with check (
  app.is_admin()
  or (app.is_tester() and user_id = app.user_id() and status = 'pending' and quiz_score is null));
create policy tester_profiles_update on tester_profiles for update
  using (app.is_admin() or user_id = app.user_id())
  with check (app.is_admin() or user_id = app.user_id());
create policy tester_profiles_delete on tester_profiles for delete using (app.is_admin());

-- Payout accounts mirror the payment provider (webhooks, onboarding): the tester may only read theirs.
create policy payout_accounts_select on payout_accounts for select using (app.is_admin() or tester_id = app.user_id());
create policy payout_accounts_insert on payout_accounts for insert with check (app.is_admin());
create policy payout_accounts_update on payout_accounts for update using (app.is_admin()) with check (app.is_admin());
create policy payout_accounts_delete on payout_accounts for delete using (app.is_admin());
