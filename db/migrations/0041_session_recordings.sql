-- Screen recordings as DOM replays (issue 32): when the study sets `record_screen`, the extension
-- records the prototype's tab with rrweb (every input value masked) and sends the events in
-- numbered, gzip-compressed chunks through the test token's POST /api/sessions/:id/snapshots.
-- Each row is one chunk as it came, checked and measured by the API; the replay reads them in
-- order. Kept in PostgreSQL, beside the session's other signals (docs/decisions/sessions.md,
-- "Screen recordings").
create table if not exists session_recording_chunks (
  id bigint generated always as identity primary key,
  session_id uuid not null references sessions (id) on delete cascade,
  -- The extension's number for the chunk, from 0; a chunk sent again is the same row.
  seq integer not null check (seq >= 0),
  -- The first and last rrweb event's moment (the tester's clock, like the other signals).
  started_at timestamptz not null,
  ended_at timestamptz not null,
  event_count integer not null check (event_count > 0),
  -- Whether the chunk holds a full snapshot of the page: a replay of a moment starts at one.
  has_full_snapshot boolean not null,
  -- The rrweb events as a JSON array, gzip-compressed.
  data bytea not null,
  byte_length integer not null check (byte_length > 0),
  received_at timestamptz not null default now(),
  unique (session_id, seq),
  check (ended_at >= started_at),
  check (byte_length = octet_length(data))
);
create index if not exists session_recording_chunks_time_idx
  on session_recording_chunks (session_id, started_at);
create index if not exists session_recording_chunks_received_idx
  on session_recording_chunks (received_at);

-- Who may watch a session's recording: those who may read its report. The session's tester and
-- admins at any time; the owning organization once the tester has confirmed the findings (the
-- report exists only after that gate, and no unconfirmed moment reaches the business).
create or replace function app.can_watch_session(session uuid) returns boolean
  language sql stable
  as $$ select exists (
    select 1 from public.sessions s
    where s.id = session and (s.tester_id = app.user_id() or s.notes_confirmed)) $$;

alter table session_recording_chunks enable row level security;
alter table session_recording_chunks force row level security;
grant select, insert, update, delete on table session_recording_chunks to usability_app, usability_system;
drop policy if exists session_recording_chunks_select on session_recording_chunks;
drop policy if exists session_recording_chunks_insert on session_recording_chunks;
drop policy if exists session_recording_chunks_update on session_recording_chunks;
drop policy if exists session_recording_chunks_delete on session_recording_chunks;
create policy session_recording_chunks_select on session_recording_chunks for select
  using (app.is_admin() or app.can_watch_session(session_id));
create policy session_recording_chunks_insert on session_recording_chunks for insert
  with check (app.is_admin() or app.can_record_on(session_id));
-- A chunk is never changed: a repeat is skipped, a correction is a new session.
create policy session_recording_chunks_update on session_recording_chunks for update
  using (app.is_admin()) with check (app.is_admin());
-- Erased by the session's tester on request, by admins, and by the retention sweep (system door).
create policy session_recording_chunks_delete on session_recording_chunks for delete
  using (app.is_admin() or app.is_tester_of_session(session_id));
