-- Hardening of the data model: column-level limits on what a user may change through the user door,
-- one rule for a tester's two status fields, and bounds the API validates that the database now
-- holds as well. Row policies decide which rows a caller may update; the guards below decide which
-- columns of those rows. The system door (no claims) and admins pass every guard.

-- The columns whose value differs between two versions of a row (updated_at, a bookkeeping
-- column every writer sets, excepted).
create or replace function app.changed_columns(before jsonb, after jsonb) returns text[]
  language sql immutable
  as $$ select coalesce(array_agg(a.key order by a.key), '{}') from jsonb_each(after) a
        where a.key <> 'updated_at' and a.value is distinct from before -> a.key $$;

-- Users: a user edits only their display name. Role, e-mail, password hash and status (suspension
-- blocks login) change through the system door (authentication, recovery) or by an admin.
create or replace function app.guard_user_update() returns trigger
  language plpgsql
  as $$
declare
  refused text[];
begin
  if app.user_id() is null or app.is_admin() then
    return new;
  end if;
  refused := array(select unnest(app.changed_columns(to_jsonb(old), to_jsonb(new))) except select 'display_name');
  if cardinality(refused) > 0 then
    raise exception 'a user may change only their display name, not %', array_to_string(refused, ', ')
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;
drop trigger if exists users_columns_guard on users;
create trigger users_columns_guard before update on users
  for each row execute function app.guard_user_update();

-- Notes: the session's tester decides (decision, annotation, confirmed, decided_at) on every note of
-- their session; the human author of a note edits its wording. Nobody but admins and the system
-- changes an agent finding's content, severity, WCAG mapping, authorship or session.
create or replace function app.guard_session_note_update() returns trigger
  language plpgsql
  as $$
declare
  allowed text[] := '{}';
  refused text[];
begin
  if app.user_id() is null or app.is_admin() then
    return new;
  end if;
  if app.is_tester_of_session(old.session_id) then
    allowed := allowed || array['decision', 'annotation', 'confirmed', 'decided_at'];
  end if;
  if old.author_kind = 'human' and old.author_id = app.user_id() then
    allowed := allowed || array['content', 'noted_at', 'wcag_criterion', 'wcag_level', 'severity'];
  end if;
  refused := array(select unnest(app.changed_columns(to_jsonb(old), to_jsonb(new))) except select unnest(allowed));
  if cardinality(refused) > 0 then
    raise exception 'this caller may not change % of note %', array_to_string(refused, ', '), old.id
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;
drop trigger if exists session_notes_columns_guard on session_notes;
create trigger session_notes_columns_guard before update on session_notes
  for each row execute function app.guard_session_note_update();

-- Sessions: the rating is the tester's verdict; the organization (which sessions_update lets write
-- its sessions) cannot overwrite it. A trigger of its own, so later versions of
-- app.check_session_update (the state machine) cannot drop it by accident.
create or replace function app.guard_session_rating() returns trigger
  language plpgsql
  as $$
begin
  if app.user_id() is not null and not app.is_admin() and app.user_id() is distinct from old.tester_id
      and (new.rating, new.rating_comment) is distinct from (old.rating, old.rating_comment) then
    raise exception 'only the session''s tester rates session %', old.id using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;
drop trigger if exists sessions_rating_guard on sessions;
create trigger sessions_rating_guard before update on sessions
  for each row execute function app.guard_session_rating();

-- One rule for a tester's two status fields: suspended in one means suspended in the other.
-- users.status blocks login; tester_profiles.status is the qualification matching reads. Whichever
-- an admin (or the system) changes, the other follows: suspending either suspends both, and lifting
-- a suspension lifts both (the profile returns to active when the quiz was passed, else pending).
create or replace function app.sync_suspension_from_profile() returns trigger
  language plpgsql
  as $$
begin
  if new.status = 'suspended' then
    update public.users set status = 'suspended' where id = new.user_id and status <> 'suspended';
  elsif tg_op = 'UPDATE' and old.status = 'suspended' then
    update public.users set status = 'active' where id = new.user_id and status = 'suspended';
  end if;
  return null;
end
$$;
drop trigger if exists tester_profiles_suspension_sync on tester_profiles;
create trigger tester_profiles_suspension_sync after insert or update of status on tester_profiles
  for each row execute function app.sync_suspension_from_profile();

create or replace function app.sync_suspension_from_user() returns trigger
  language plpgsql
  as $$
begin
  if new.status = 'suspended' and old.status <> 'suspended' then
    update public.tester_profiles set status = 'suspended', updated_at = now()
    where user_id = new.id and status <> 'suspended';
  elsif old.status = 'suspended' and new.status <> 'suspended' then
    update public.tester_profiles
    set status = case when quiz_passed then 'active' else 'pending' end, updated_at = now()
    where user_id = new.id and status = 'suspended';
  end if;
  return null;
end
$$;
drop trigger if exists users_suspension_sync on users;
create trigger users_suspension_sync after update of status on users
  for each row execute function app.sync_suspension_from_user();

-- Rows written before this migration: a suspended profile suspends its account, and the reverse.
update users u set status = 'suspended'
from tester_profiles p where p.user_id = u.id and p.status = 'suspended' and u.status <> 'suspended';
update tester_profiles p set status = 'suspended', updated_at = now()
from users u where u.id = p.user_id and u.status = 'suspended' and p.status <> 'suspended';

-- Bounds of docs/decisions.md (Studies) that only the API checked so far.
create or replace function app.are_country_codes(codes text[]) returns boolean
  language sql immutable
  as $$ select coalesce(bool_and(coalesce(c ~ '^[A-Z]{2}$', false)), true) from unnest(codes) c $$;

alter table studies drop constraint if exists studies_tester_count_max;
alter table studies add constraint studies_tester_count_max check (tester_count <= 10000);
alter table studies drop constraint if exists studies_compensation_amount_range;
alter table studies add constraint studies_compensation_amount_range
  check (compensation_amount > 0 and compensation_amount <= 100000);
alter table studies drop constraint if exists studies_target_countries_codes;
alter table studies add constraint studies_target_countries_codes
  check (app.are_country_codes(target_countries::text[]));

-- Emotion confidences: every value a number from 0 to 1 (an empty object when no face was found).
create or replace function app.are_unit_scores(scores jsonb) returns boolean
  language sql immutable
  as $$ select coalesce(bool_and(case when jsonb_typeof(s.value) = 'number' then s.value::numeric between 0 and 1
                                       else false end), true)
        from jsonb_each(scores) s $$;

alter table facial_snapshots drop constraint if exists facial_snapshots_confidences_range;
alter table facial_snapshots add constraint facial_snapshots_confidences_range
  check (app.are_unit_scores(confidences));

-- A payment and a session's feedback belong to the session's own tester.
alter table sessions drop constraint if exists sessions_id_tester_key cascade;
alter table sessions add constraint sessions_id_tester_key unique (id, tester_id);
alter table payments drop constraint if exists payments_session_tester_fkey;
alter table payments add constraint payments_session_tester_fkey
  foreign key (session_id, tester_id) references sessions (id, tester_id) on delete restrict;
alter table session_feedback drop constraint if exists session_feedback_session_tester_fkey;
alter table session_feedback add constraint session_feedback_session_tester_fkey
  foreign key (session_id, tester_id) references sessions (id, tester_id) on delete cascade;
