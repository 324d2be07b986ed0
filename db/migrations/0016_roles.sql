-- The database roles, re-asserted. 0001 creates the two door roles only when they are missing, and
-- roles are cluster-wide: a role left with other attributes by an earlier database (or by hand)
-- would keep them. Every run of this migration puts them back:
--   usability_app     the user door: no superuser, no BYPASSRLS, cannot log in, inherits nothing.
--   usability_system  the system door: BYPASSRLS, no superuser, cannot log in, inherits nothing.
--   usability_service the login of the API and the worker: no superuser, no BYPASSRLS, inherits
--                     nothing, a member of both doors. Outside a door (SET LOCAL ROLE) it holds no
--                     privilege on any table, so a query that bypasses db/doors.ts fails.
-- The ALTERs run only when an attribute differs: several databases of one cluster migrate at the
-- same time (every test run has its own), and two concurrent ALTER ROLE of the same role fail with
-- "tuple concurrently updated" even when both would write the same attributes.
do $$
declare
  wanted constant jsonb := '{
    "usability_app":     {"super": false, "bypassrls": false, "login": false},
    "usability_system":  {"super": false, "bypassrls": true,  "login": false},
    "usability_service": {"super": false, "bypassrls": false, "login": true}
  }';
  role_name text;
  attributes jsonb;
begin
  for role_name, attributes in select * from jsonb_each(wanted) loop
    if not exists (select 1 from pg_roles where rolname = role_name) then
      begin
        execute format('create role %I', role_name);
      exception when duplicate_object or unique_violation then
        null; -- another database of the cluster created it a moment ago
      end;
    end if;
    if not exists (
      select 1 from pg_roles
      where rolname = role_name and not rolinherit and not rolcreatedb and not rolcreaterole
        and not rolreplication and rolsuper = (attributes ->> 'super')::boolean
        and rolbypassrls = (attributes ->> 'bypassrls')::boolean
        and rolcanlogin = (attributes ->> 'login')::boolean
    ) then
      execute format('alter role %I nosuperuser noinherit nocreatedb nocreaterole noreplication %s %s',
        role_name,
        case when (attributes ->> 'bypassrls')::boolean then 'bypassrls' else 'nobypassrls' end,
        case when (attributes ->> 'login')::boolean then 'login' else 'nologin' end);
    end if;
  end loop;

  -- The door roles are members of no role: a membership would lend them its privileges.
  for role_name in
    select g.rolname from pg_auth_members m join pg_roles g on g.oid = m.roleid
    join pg_roles r on r.oid = m.member
    where r.rolname in ('usability_app', 'usability_system')
  loop
    execute format('revoke %I from usability_app, usability_system', role_name);
  end loop;

  -- The service login may enter both doors and nothing else.
  foreach role_name in array array['usability_app', 'usability_system'] loop
    if not pg_has_role('usability_service', role_name, 'member') then
      begin
        execute format('grant %I to usability_service', role_name);
      exception when unique_violation then
        null;
      end;
    end if;
  end loop;
end
$$;

-- SECURITY DEFINER functions run with their owner's rights. Owned by the migration runner (a
-- superuser), app.has_session_on could read any table with every check off; owned by the system
-- door it reads only what that role is granted, bypassing RLS as intended (it must see the
-- caller's sessions without evaluating the sessions policies inside the studies policy).
alter function app.has_session_on(uuid) owner to usability_system;
