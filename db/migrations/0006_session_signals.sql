-- What a session produces: the three ingested signals, the AI agents' jobs, the notes (findings)
-- and the AI work queued while every provider is down.

create table if not exists session_events (
  id bigint generated always as identity primary key,
  session_id uuid not null references sessions (id) on delete cascade,
  event_type text not null check (event_type in ('click', 'scroll', 'input', 'focus', 'blur', 'navigation', 'error')),
  target_selector varchar(1000) not null,
  occurred_at timestamptz not null,
  x double precision,
  y double precision,
  scroll_y double precision,
  -- A character count only: raw input is never sent.
  input_length integer check (input_length >= 0),
  viewport_width integer check (viewport_width > 0),
  viewport_height integer check (viewport_height > 0),
  received_at timestamptz not null default now(),
  check ((viewport_width is null) = (viewport_height is null))
);
create index if not exists session_events_session_time_idx on session_events (session_id, occurred_at, id);

create table if not exists facial_snapshots (
  id bigint generated always as identity primary key,
  session_id uuid not null references sessions (id) on delete cascade,
  frame_index integer not null check (frame_index >= 0),
  captured_at timestamptz not null,
  -- False when the engine found no face or could not answer; such frames are left out of analysis.
  face_detected boolean not null default false,
  -- The dominant emotion label; null when no face was found or the engine was unavailable.
  emotion varchar(50),
  confidences jsonb not null default '{}' check (jsonb_typeof(confidences) = 'object'),
  action_units jsonb not null default '{}' check (jsonb_typeof(action_units) = 'object'),
  attention_score real not null check (attention_score between 0 and 1),
  gaze_x real check (gaze_x between 0 and 1),
  gaze_y real check (gaze_y between 0 and 1),
  received_at timestamptz not null default now(),
  unique (session_id, frame_index),
  check (face_detected or emotion is null)
);
create index if not exists facial_snapshots_session_time_idx on facial_snapshots (session_id, captured_at, id);

create table if not exists voice_segments (
  id bigint generated always as identity primary key,
  session_id uuid not null references sessions (id) on delete cascade,
  segment_index integer not null check (segment_index >= 0),
  started_at timestamptz not null,
  ended_at timestamptz not null,
  transcript varchar(10000) not null,
  sentiment text not null check (sentiment in ('positive', 'neutral', 'negative')),
  sentiment_score real not null check (sentiment_score between -1 and 1),
  hesitation_count integer check (hesitation_count >= 0),
  words_per_minute real check (words_per_minute >= 0),
  -- PII segments stay out of AI analysis until sanitised.
  contains_pii boolean not null default false,
  sanitised boolean not null default false,
  sanitised_at timestamptz,
  -- Set once an agent has analysed the segment; the 15-minute retry picks up the rest.
  processed_at timestamptz,
  received_at timestamptz not null default now(),
  unique (session_id, segment_index),
  check (ended_at >= started_at),
  check (sanitised = (sanitised_at is not null))
);
create index if not exists voice_segments_session_time_idx on voice_segments (session_id, started_at, id);
create index if not exists voice_segments_unprocessed_idx on voice_segments (session_id) where processed_at is null;

create table if not exists agent_jobs (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('agent1', 'agent2', 'agent3', 'agent4')),
  organization_id uuid not null,
  study_id uuid not null,
  -- Agents 1-3 work on one session; Agent 4 on the whole study.
  session_id uuid,
  status text not null default 'queued' check (status in ('queued', 'complete', 'failed')),
  requested_by uuid references users (id) on delete set null,
  -- The request's options (includeSignals, snapshotAt, reportFormat, minSessionCount, ...).
  options jsonb not null default '{}' check (jsonb_typeof(options) = 'object'),
  provider varchar(50),
  used_fallback boolean not null default false,
  estimated_completion_seconds integer check (estimated_completion_seconds >= 0),
  queued_at timestamptz not null default now(),
  started_at timestamptz,
  completed_at timestamptz,
  duration_ms integer check (duration_ms >= 0),
  result jsonb,
  error varchar(5000),
  foreign key (study_id, organization_id) references studies (id, organization_id) on delete cascade,
  foreign key (session_id, organization_id) references sessions (id, organization_id) on delete cascade,
  check ((kind = 'agent4') = (session_id is null)),
  check (status <> 'complete' or (completed_at is not null and result is not null))
);
create index if not exists agent_jobs_session_kind_idx on agent_jobs (session_id, kind, queued_at desc);
create index if not exists agent_jobs_study_kind_idx on agent_jobs (study_id, kind, queued_at desc);
create index if not exists agent_jobs_status_idx on agent_jobs (status, queued_at);

create table if not exists session_notes (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references sessions (id) on delete cascade,
  content varchar(10000) not null,
  -- The moment of the session the note is about, when it is about one.
  noted_at timestamptz,
  author_kind text not null check (author_kind in ('agent', 'human')),
  -- The human author; agent notes name their job instead.
  author_id uuid references users (id) on delete set null,
  agent_job_id uuid references agent_jobs (id) on delete set null,
  -- Agent 2 findings start unconfirmed; the tester's decision gates them (human-in-the-loop).
  confirmed boolean not null default false,
  decision text check (decision in ('confirmed', 'rejected')),
  annotation varchar(5000),
  decided_at timestamptz,
  wcag_criterion varchar(20) check (wcag_criterion ~ '^[1-4]\.[0-9]{1,2}\.[0-9]{1,2}$'),
  wcag_level text check (wcag_level in ('A', 'AA', 'AAA')),
  severity text check (severity in ('critical', 'high', 'medium', 'low')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (author_kind = 'agent' or agent_job_id is null),
  check ((decision is null) = (decided_at is null)),
  check (decision is distinct from 'rejected' or not confirmed)
);
create index if not exists session_notes_session_created_idx on session_notes (session_id, created_at, id);

create table if not exists queued_ai_work (
  id bigint generated always as identity primary key,
  step text not null check (step in ('agent1', 'agent2', 'agent3', 'agent4')),
  agent_job_id uuid references agent_jobs (id) on delete cascade,
  session_id uuid references sessions (id) on delete cascade,
  voice_segment_id bigint references voice_segments (id) on delete cascade,
  payload jsonb not null default '{}' check (jsonb_typeof(payload) = 'object'),
  status text not null default 'queued' check (status in ('queued', 'processing', 'done', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  last_error varchar(5000),
  next_attempt_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index if not exists queued_ai_work_status_idx on queued_ai_work (status, next_attempt_at);

do $$
declare
  t text;
begin
  foreach t in array array['session_events', 'facial_snapshots', 'voice_segments', 'agent_jobs',
                            'session_notes', 'queued_ai_work'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('grant select, insert, update, delete on table %I to usability_app, usability_system', t);
    execute format('drop policy if exists %I on %I', t || '_select', t);
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format('drop policy if exists %I on %I', t || '_update', t);
    execute format('drop policy if exists %I on %I', t || '_delete', t);
  end loop;
  -- Signals: seen with their session, recorded by its tester while it runs, corrected only by admins.
  foreach t in array array['session_events', 'facial_snapshots', 'voice_segments'] loop
    execute format('create policy %I on %I for select using (app.can_see_session(session_id))', t || '_select', t);
    execute format('create policy %I on %I for insert with check (app.is_admin() or app.can_record_on(session_id))', t || '_insert', t);
    execute format('create policy %I on %I for update using (app.is_admin()) with check (app.is_admin())', t || '_update', t);
    execute format('create policy %I on %I for delete using (app.is_admin())', t || '_delete', t);
  end loop;
end
$$;

-- Agent jobs: the organization requests them (queued) and reads them; the session's tester reads
-- the jobs of their session; workers update them through the system door.
create policy agent_jobs_select on agent_jobs for select using (
  app.is_admin() or app.is_business_of(organization_id)
  or (session_id is not null and app.is_tester_of_session(session_id)));
create policy agent_jobs_insert on agent_jobs for insert
  with check (app.is_admin() or (app.is_business_of(organization_id) and status = 'queued'));
create policy agent_jobs_update on agent_jobs for update using (app.is_admin()) with check (app.is_admin());
create policy agent_jobs_delete on agent_jobs for delete using (app.is_admin());

-- Notes: the session's tester and admins see all of them. The organization sees human notes and
-- only those agent findings the tester confirmed, so no unconfirmed AI finding leaves the gate.
-- Humans (tester or business of the session) write notes under their own name; agent notes come
-- from the system. The tester decides on every note of their session; authors edit their own.
create policy session_notes_select on session_notes for select using (
  app.is_admin() or app.is_tester_of_session(session_id)
  or (app.can_see_session(session_id) and (author_kind = 'human' or confirmed)));
create policy session_notes_insert on session_notes for insert with check (
  app.is_admin()
  or (author_kind = 'human' and author_id = app.user_id() and not confirmed and decision is null
      and app.can_see_session(session_id)));
create policy session_notes_update on session_notes for update
  using (app.is_admin() or app.is_tester_of_session(session_id) or (author_kind = 'human' and author_id = app.user_id()))
  with check (app.is_admin() or app.is_tester_of_session(session_id) or (author_kind = 'human' and author_id = app.user_id()));
create policy session_notes_delete on session_notes for delete
  using (app.is_admin() or (author_kind = 'human' and author_id = app.user_id()));

-- Queued AI work is internal: admins only (the retry schedule works through the system door).
create policy queued_ai_work_select on queued_ai_work for select using (app.is_admin());
create policy queued_ai_work_insert on queued_ai_work for insert with check (app.is_admin());
create policy queued_ai_work_update on queued_ai_work for update using (app.is_admin()) with check (app.is_admin());
create policy queued_ai_work_delete on queued_ai_work for delete using (app.is_admin());
