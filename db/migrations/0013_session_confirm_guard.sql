-- The human-in-the-loop gate in the database: the organization may write its sessions
-- (sessions_update), but only the session's tester, an admin or the system door may confirm the
-- findings. Replaces the guard of 0005 with the same rules plus this one.
create or replace function app.check_session_update() returns trigger
  language plpgsql
  as $$
begin
  if (new.study_id, new.organization_id, new.tester_id) is distinct from (old.study_id, old.organization_id, old.tester_id) then
    raise exception 'a session cannot change study, organization or tester' using errcode = 'check_violation';
  end if;
  if app.is_tester() and (new.test_token_hash, new.test_token_expires_at, new.variant, new.started_at)
      is distinct from (old.test_token_hash, old.test_token_expires_at, old.variant, old.started_at) then
    raise exception 'a tester cannot change the test token, variant or start of a session'
      using errcode = 'insufficient_privilege';
  end if;
  -- The human-in-the-loop gate: sessions_update lets the organization write its sessions, but only
  -- the session's tester (or an admin, or the system door) may confirm the findings.
  if app.user_id() is not null and not app.is_admin() and app.user_id() is distinct from old.tester_id
      and ((new.status = 'confirmed' and old.status <> 'confirmed') or (new.notes_confirmed and not old.notes_confirmed)) then
    raise exception 'only the session''s tester confirms its findings' using errcode = 'insufficient_privilege';
  end if;
  if new.status = old.status then
    return new;
  end if;
  if not (old.status, new.status) in (
    ('active', 'paused'), ('paused', 'active'), ('active', 'completed'), ('paused', 'completed'),
    ('completed', 'analyzing'), ('analyzing', 'analyzed'), ('analyzing', 'completed'),
    ('analyzed', 'analyzing'), ('analyzed', 'confirmed'),
    ('active', 'cancelled'), ('paused', 'cancelled'), ('completed', 'cancelled'),
    ('analyzing', 'cancelled'), ('analyzed', 'cancelled')
  ) then
    raise exception 'session % cannot go from % to %', old.id, old.status, new.status
      using errcode = 'check_violation';
  end if;
  return new;
end
$$;
