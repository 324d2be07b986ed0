-- 0040's exception for cascaded deletes could never apply: a study with sessions cannot be removed
-- (sessions restrict it), and a study without sessions has no frozen tasks. The same rule, without it.
create or replace function app.refuse_frozen_study_tasks() returns trigger
  language plpgsql
  security definer
  set search_path = pg_catalog, public
  as $$
declare
  touched uuid[];
begin
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
