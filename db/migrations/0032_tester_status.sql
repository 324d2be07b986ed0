-- Admins approve, suspend and reinstate testers (api/admin/tester-status.ts), each change kept
-- with its reason for audit. An admin's approval qualifies a pending tester as a passed quiz does.
alter table tester_profiles
  add column if not exists approved_by uuid references users (id) on delete set null,
  add column if not exists approved_at timestamptz;

create table if not exists tester_status_changes (
  id uuid primary key default gen_random_uuid(),
  tester_id uuid not null references users (id) on delete cascade,
  from_status text not null check (from_status in ('active', 'suspended', 'pending')),
  to_status text not null check (to_status in ('active', 'suspended', 'pending')),
  reason varchar(2000) not null check (length(btrim(reason)) > 0),
  changed_by uuid references users (id) on delete set null,
  changed_at timestamptz not null default now()
);
create index if not exists tester_status_changes_tester_idx on tester_status_changes (tester_id, changed_at);

alter table tester_status_changes enable row level security;
alter table tester_status_changes force row level security;
grant select, insert, update, delete on table tester_status_changes to usability_app, usability_system;
drop policy if exists tester_status_changes_select on tester_status_changes;
drop policy if exists tester_status_changes_insert on tester_status_changes;
drop policy if exists tester_status_changes_update on tester_status_changes;
drop policy if exists tester_status_changes_delete on tester_status_changes;
-- An audit trail of admins' decisions: admins alone read and write it.
create policy tester_status_changes_select on tester_status_changes for select using (app.is_admin());
create policy tester_status_changes_insert on tester_status_changes for insert with check (app.is_admin());
create policy tester_status_changes_update on tester_status_changes for update
  using (app.is_admin()) with check (app.is_admin());
create policy tester_status_changes_delete on tester_status_changes for delete using (app.is_admin());

-- Qualified: a passed quiz or an admin's approval. Lifting a suspension returns a qualified
-- profile to active, any other to pending (0015's rule, with approvals).
create or replace function app.sync_suspension_from_user() returns trigger
  language plpgsql
  as $$
begin
  if new.status = 'suspended' and old.status <> 'suspended' then
    update public.tester_profiles set status = 'suspended', updated_at = now()
    where user_id = new.id and status <> 'suspended';
  elsif old.status = 'suspended' and new.status <> 'suspended' then
    update public.tester_profiles
    set status = case when qualified then 'active' else 'pending' end,
        updated_at = now()
    where user_id = new.id and status = 'suspended';
  end if;
  return null;
end
$$;

-- The approval is the admin's alone, as status and quiz result are (0004's guard).
create or replace function app.guard_tester_profile() returns trigger
  language plpgsql
  as $$
begin
  if app.user_id() is not null and not app.is_admin() and (
    new.status is distinct from old.status or new.quiz_id is distinct from old.quiz_id
    or new.quiz_score is distinct from old.quiz_score or new.quiz_passed is distinct from old.quiz_passed
    or new.quiz_completed_at is distinct from old.quiz_completed_at or new.user_id is distinct from old.user_id
    or new.approved_by is distinct from old.approved_by or new.approved_at is distinct from old.approved_at
  ) then
    raise exception 'only an admin may change a tester''s status, quiz result or approval'
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;

-- A tester creates their profile pending, without a quiz result and without an approval.
drop policy if exists tester_profiles_insert on tester_profiles;
create policy tester_profiles_insert on tester_profiles for insert with check (
  app.is_admin()
  or (app.is_tester() and user_id = app.user_id() and status = 'pending' and quiz_score is null
      and approved_at is null and approved_by is null));

-- Matching reads qualified, active profiles: one stored column says qualified, so the partial
-- index's predicate stays a plain conjunction the planner matches.
alter table tester_profiles add column if not exists qualified boolean
  generated always as (coalesce(quiz_passed, false) or approved_at is not null) stored;
drop index if exists tester_profiles_matching_idx;
create index if not exists tester_profiles_qualified_idx on tester_profiles (country, birth_year)
  where status = 'active' and qualified;
