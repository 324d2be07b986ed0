-- The community statistics (db/repositories/community-stats.ts): each confirmed session records the
-- device it ran on, so `deviceBreakdown` counts sessions, and the snapshot's aggregates read
-- confirmed sessions through an index of their own.
alter table sessions
  add column if not exists device text check (device in ('desktop', 'mobile', 'tablet'));

-- The device of a session (its study and tester given: an inserted row is not there yet): the
-- class of the median viewport width its events reported (under 768 CSS pixels a phone, under 1024
-- a tablet, else a desktop); without events that report one, the one device that both the study
-- targets and the tester has (or the study's only device); else unknown.
-- SECURITY DEFINER, owned by the system door (as 0016 explains): the trigger below runs for whoever
-- confirms, and events, study and profile are read the same way for each of them.
create or replace function app.session_device(p_session uuid, p_study uuid, p_tester uuid) returns text
  language sql stable security definer
  set search_path = pg_catalog, public, pg_temp
  as $$
  select coalesce(
    (select case when w < 768 then 'mobile' when w < 1024 then 'tablet' else 'desktop' end
       from (select percentile_disc(0.5) within group (order by e.viewport_width) as w
               from session_events e
              where e.session_id = p_session and e.viewport_width is not null) median
      where w is not null),
    (select case when count(*) filter (where d = any (p.devices)) = 1
                   then min(d) filter (where d = any (p.devices))
                 when count(*) = 1 then min(d) end
       from studies st
       left join tester_profiles p on p.user_id = p_tester
       cross join lateral unnest(st.target_devices) d
      where st.id = p_study)
  )
$$;

alter function app.session_device(uuid, uuid, uuid) owner to usability_system;
revoke all on function app.session_device(uuid, uuid, uuid) from public;
grant execute on function app.session_device(uuid, uuid, uuid) to usability_app, usability_system;

-- Set once, when the session is confirmed (or inserted confirmed, as fixtures and seeds do); a
-- device given explicitly is kept.
create or replace function app.record_session_device() returns trigger
  language plpgsql
  as $$
begin
  if new.status = 'confirmed' and new.device is null
      and (tg_op = 'INSERT' or old.status is distinct from 'confirmed') then
    new.device := app.session_device(new.id, new.study_id, new.tester_id);
  end if;
  return new;
end
$$;
-- Named to run after sessions_guard (before-triggers run in name order): only a transition the
-- state machine allows looks the device up.
drop trigger if exists sessions_record_device on sessions;
create trigger sessions_record_device before insert or update of status on sessions
  for each row execute function app.record_session_device();

update sessions set device = app.session_device(id, study_id, tester_id) where status = 'confirmed' and device is null;

-- The statistics' scans of confirmed sessions (totals, ratings, devices, compensation, activity).
create index if not exists sessions_confirmed_idx on sessions (tester_id, confirmed_at)
  include (study_id, business_rating, device)
  where status = 'confirmed';
