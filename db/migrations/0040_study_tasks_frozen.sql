-- Once a study has a session, its tasks are what that session is tested on (issue 31): attempts,
-- findings, reports and results refer to them by id and order, so they no longer change. Kept by
-- the database, for every caller (the system door included), as the session state machine is.
create or replace function app.refuse_frozen_study_tasks() returns trigger
  language plpgsql
  security definer
  set search_path = pg_catalog, public
  as $$
declare
  touched uuid[];
begin
  -- Removing the study itself removes its tasks through the foreign key's cascade (a trigger one
  -- level down); a study with sessions cannot be removed anyway (sessions restrict it).
  if tg_op = 'DELETE' and pg_trigger_depth() > 1 then
    return old;
  end if;
  if tg_op = 'INSERT' then
    touched := array[new.study_id];
  elsif tg_op = 'DELETE' then
    touched := array[old.study_id];
  else
    touched := array[old.study_id, new.study_id];
  end if;
  if exists (select 1 from public.sessions where study_id = any(touched)) then
    raise exception 'a study''s tasks cannot change once it has sessions' using errcode = 'check_violation';
  end if;
  return coalesce(new, old);
end
$$;
drop trigger if exists study_tasks_frozen on study_tasks;
create trigger study_tasks_frozen before insert or update or delete on study_tasks
  for each row execute function app.refuse_frozen_study_tasks();
-- It reads every session of the study whoever writes the task: as the system door, never as a
-- superuser (test/db/roles.test.ts).
alter function app.refuse_frozen_study_tasks() owner to usability_system;
