-- Two database roles back the two doors of db/doors.ts:
--   usability_app    runs requests as a user; row-level security applies (NOBYPASSRLS).
--   usability_system runs system work that spans organizations (BYPASSRLS, not a superuser).
-- Roles are cluster-wide, so creation tolerates an earlier database having made them.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'usability_app') then
    create role usability_app nologin nosuperuser nobypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'usability_system') then
    create role usability_system nologin nosuperuser bypassrls;
  end if;
end
$$;

grant usability_app to current_user;
grant usability_system to current_user;

create extension if not exists pgcrypto;

create schema if not exists app;
grant usage on schema app to usability_app, usability_system;
grant usage on schema public to usability_app, usability_system;

-- The claims of the current request, set per transaction by db/doors.ts.
-- An unset or empty setting means "no user": every policy then denies.
create or replace function app.claims() returns jsonb
  language sql stable
  as $$ select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb $$;

create or replace function app.user_id() returns uuid
  language sql stable
  as $$ select nullif(app.claims() ->> 'sub', '')::uuid $$;

create or replace function app.role() returns text
  language sql stable
  as $$ select app.claims() ->> 'role' $$;

create or replace function app.organization_id() returns uuid
  language sql stable
  as $$ select nullif(app.claims() ->> 'organization_id', '')::uuid $$;

create or replace function app.is_admin() returns boolean
  language sql stable
  as $$ select coalesce(app.role() = 'admin', false) $$;

-- Tables created later get privileges for both roles without repeating grants in every file.
alter default privileges in schema public grant select, insert, update, delete on tables to usability_app, usability_system;
alter default privileges in schema public grant usage, select on sequences to usability_app, usability_system;
alter default privileges in schema app grant execute on functions to usability_app, usability_system;
