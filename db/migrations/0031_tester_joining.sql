-- Joining as a tester (api/testers/): every tester account has a profile from registration on,
-- `pending` and empty until the tester fills it in, and the quiz attempts it took.

-- A profile starts empty: no country and no device yet (matching reads only active, qualified
-- profiles, and the quiz asks for a filled-in profile first).
alter table tester_profiles alter column country drop not null;
alter table tester_profiles alter column devices set default '{}';
alter table tester_profiles drop constraint if exists tester_profiles_devices_check;
alter table tester_profiles add constraint tester_profiles_devices_check
  check (devices <@ array['desktop', 'mobile', 'tablet']);

-- Tester accounts made before profiles came with registration get their empty profile.
insert into tester_profiles (user_id, status)
select u.id, case when u.status = 'suspended' then 'suspended' else 'pending' end
from users u
where u.role = 'tester' and not exists (select 1 from tester_profiles p where p.user_id = u.id);

-- Each submitted attempt, with the quiz version it answered and the answers given (for audit).
create table if not exists quiz_attempts (
  id uuid primary key default gen_random_uuid(),
  tester_id uuid not null references users (id) on delete cascade,
  quiz_id uuid references quizzes (id) on delete set null,
  quiz_version integer not null check (quiz_version >= 1),
  -- [{questionId, optionId}, ...]
  answers jsonb not null check (jsonb_typeof(answers) = 'array'),
  score integer not null check (score between 0 and 100),
  passed boolean not null,
  created_at timestamptz not null default now()
);
create index if not exists quiz_attempts_tester_created_idx on quiz_attempts (tester_id, created_at desc);

alter table quiz_attempts enable row level security;
alter table quiz_attempts force row level security;
grant select, insert, update, delete on table quiz_attempts to usability_app, usability_system;
drop policy if exists quiz_attempts_select on quiz_attempts;
drop policy if exists quiz_attempts_insert on quiz_attempts;
drop policy if exists quiz_attempts_update on quiz_attempts;
drop policy if exists quiz_attempts_delete on quiz_attempts;
-- Scored through the system door (the quiz's answers are admin-only); the tester reads their own.
create policy quiz_attempts_select on quiz_attempts for select using (app.is_admin() or tester_id = app.user_id());
create policy quiz_attempts_insert on quiz_attempts for insert with check (app.is_admin());
create policy quiz_attempts_update on quiz_attempts for update using (app.is_admin()) with check (app.is_admin());
create policy quiz_attempts_delete on quiz_attempts for delete using (app.is_admin());
