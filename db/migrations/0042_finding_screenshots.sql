-- A picture of each reported finding's moment (issue 32): made on the audit worker, where Chromium
-- is, once the tester report exists. `replay`: the session's DOM recording replayed to the moment
-- with the finding's element outlined. `reconstructed`: no recording covers the moment, so the
-- study's public prototype page was loaded fresh (through the audit's URL guard); it is not the
-- tester's screen. `none`: no picture, and `gap` says why (lib/finding-screenshots.ts has the
-- words). One row per finding; the report shows them with `includeScreenshots`.
create table if not exists finding_screenshots (
  id bigint generated always as identity primary key,
  session_id uuid not null references sessions (id) on delete cascade,
  note_id uuid not null unique references session_notes (id) on delete cascade,
  source text not null check (source in ('replay', 'reconstructed', 'none')),
  png bytea,
  width integer check (width > 0),
  height integer check (height > 0),
  alt_text text,
  -- The address pictured: origin and path from the recording, or the prototype's URL.
  page_url text,
  outlined boolean not null default false,
  gap text check (gap in ('recording_erased', 'prototype_blocked', 'prototype_failed', 'no_browser')),
  moment timestamptz not null,
  captured_at timestamptz not null default now(),
  check ((source = 'none') = (png is null)),
  check (source = 'none' or (alt_text is not null and width is not null and height is not null)),
  check ((source = 'none') = (gap is not null))
);
create index if not exists finding_screenshots_session_idx on finding_screenshots (session_id);

alter table finding_screenshots enable row level security;
alter table finding_screenshots force row level security;
grant select, insert, update, delete on table finding_screenshots to usability_system;
-- On a caller's behalf a row keeps its session, finding and moment: only its picture changes.
grant select, insert, delete on table finding_screenshots to usability_app;
grant update (source, png, width, height, alt_text, page_url, outlined, gap, captured_at)
  on table finding_screenshots to usability_app;
drop policy if exists finding_screenshots_select on finding_screenshots;
drop policy if exists finding_screenshots_insert on finding_screenshots;
drop policy if exists finding_screenshots_update on finding_screenshots;
drop policy if exists finding_screenshots_delete on finding_screenshots;
-- Read by those who may watch the session's recording (its tester, the organization once the
-- findings are confirmed, admins): a replayed picture shows what the recording shows.
create policy finding_screenshots_select on finding_screenshots for select
  using (app.is_admin() or app.can_watch_session(session_id));
-- Made by the system door (the audit worker).
create policy finding_screenshots_insert on finding_screenshots for insert
  with check (app.is_admin());
-- The session's tester erases the recording, and the replayed pictures with it: the only change
-- a tester can make is to blank a replayed one, saying the recording was erased.
create policy finding_screenshots_update on finding_screenshots for update
  using (app.is_admin() or (app.is_tester_of_session(session_id) and source = 'replay'))
  with check (app.is_admin() or (app.is_tester_of_session(session_id) and source = 'none' and gap = 'recording_erased'));
create policy finding_screenshots_delete on finding_screenshots for delete
  using (app.is_admin());
