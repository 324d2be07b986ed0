-- The business's rating of a confirmed session (api/sessions/business-rating.ts): 1-5 with an
-- optional comment, once. `sessions.rating` stays the tester's own rating given at confirmation.
alter table sessions
  add column if not exists business_rating smallint check (business_rating between 1 and 5),
  add column if not exists business_rating_comment varchar(2000),
  add column if not exists business_rated_at timestamptz,
  add column if not exists business_rated_by uuid references users (id) on delete set null;

alter table sessions drop constraint if exists sessions_business_rating_check;
alter table sessions add constraint sessions_business_rating_check check (
  (business_rating is null) = (business_rated_at is null)
  and (business_rating is null or status = 'confirmed')
  and (business_rating_comment is null or business_rating is not null)
);

-- Only the owning organization (or an admin, or the system door) rates, and only once: the
-- session's tester cannot, and nobody but an admin rewrites a rating.
create or replace function app.guard_business_rating() returns trigger
  language plpgsql
  as $$
begin
  if app.user_id() is null or app.is_admin()
      or (new.business_rating, new.business_rating_comment, new.business_rated_at, new.business_rated_by)
        is not distinct from (old.business_rating, old.business_rating_comment, old.business_rated_at, old.business_rated_by) then
    return new;
  end if;
  if not app.is_business_of(old.organization_id) then
    raise exception 'only the organization rates session %', old.id using errcode = 'insufficient_privilege';
  end if;
  if old.business_rating is not null then
    raise exception 'session % is rated already', old.id using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;
drop trigger if exists sessions_business_rating_guard on sessions;
create trigger sessions_business_rating_guard before update on sessions
  for each row execute function app.guard_business_rating();

-- Ratings by tester (the admin listing's average, the community's): confirmed, rated sessions.
create index if not exists sessions_tester_business_rating_idx on sessions (tester_id)
  where business_rating is not null;
