-- Authentication and operations (issues 2 and 4): suspension ends every login, a one-time code
-- links a tester's chat with the messaging bot, and the service login belongs to the two doors only.

-- Suspending an account ends its logins. Session JWTs are stateless for 24 hours; the API refuses
-- those of a revoked refresh family (api/auth/revoked-logins.ts: at once on the instance that
-- revoked it, within 60 s elsewhere). Suspension is written by admins or the system, directly or
-- through tester_profiles (0015's sync updates users.status), so the rule lives here, on users,
-- where every path meets. SECURITY DEFINER owned by the system door: the refresh_tokens policies
-- pass admins only, and whoever suspends (an admin's door, the system's, the owner) must end the
-- logins all the same. Lifting a suspension revokes nothing back: the user logs in again.
create or replace function app.end_logins_of_suspended_user() returns trigger
  language plpgsql
  security definer
  set search_path = pg_catalog, public
  as $$
begin
  update public.refresh_tokens set revoked_at = now() where user_id = new.id and revoked_at is null;
  return null;
end
$$;
alter function app.end_logins_of_suspended_user() owner to usability_system;
drop trigger if exists users_suspension_ends_logins on users;
create trigger users_suspension_ends_logins after update of status on users
  for each row when (new.status = 'suspended' and old.status is distinct from 'suspended')
  execute function app.end_logins_of_suspended_user();

-- A tester links their chat by sending `/start <code>` to the bot: the code is a one-time token
-- (api/auth/messaging-links.ts), consumed by POST /api/webhooks/messaging.
alter table one_time_tokens drop constraint if exists one_time_tokens_purpose_check;
alter table one_time_tokens add constraint one_time_tokens_purpose_check
  check (purpose in ('magic_link', 'password_reset', 'messaging_link'));

-- 0016 removes every membership of the door roles but only adds those of the service login: a
-- role granted to usability_service by hand (or by an earlier database of the cluster) would lend
-- it privileges outside the doors. It belongs to usability_app and usability_system, and nothing else.
do $$
declare
  role_name text;
begin
  for role_name in
    select g.rolname from pg_auth_members m join pg_roles g on g.oid = m.roleid
    join pg_roles r on r.oid = m.member
    where r.rolname = 'usability_service' and g.rolname not in ('usability_app', 'usability_system')
  loop
    execute format('revoke %I from usability_service', role_name);
  end loop;
end
$$;
