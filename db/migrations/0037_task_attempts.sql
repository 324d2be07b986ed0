-- Task attempts (issue 31): a session is a sequence of attempts at its study's tasks, reported by
-- the extension through the test token's PATCH /api/sessions/:id and judged by the session
-- workflow, which records them here through the system door. One attempt per task and session:
-- started, then completed or abandoned by the tester, or left unfinished when the session ended.
create table if not exists task_attempts (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references sessions (id) on delete cascade,
  task_id uuid not null references study_tasks (id) on delete cascade,
  -- The session's variant when the attempt began (null for a study without variants).
  variant varchar(50),
  started_at timestamptz not null,
  ended_at timestamptz,
  outcome varchar(20) check (outcome in ('completed', 'abandoned', 'unfinished')),
  -- Time on task: from start to end less the session's pauses in between.
  active_ms integer check (active_ms >= 0),
  -- The Single Ease Question, 1 (very difficult) to 7 (very easy), asked after the task.
  ease smallint check (ease between 1 and 7),
  -- The tester's own words on giving up.
  reason varchar(1000),
  unique (session_id, task_id),
  check ((ended_at is null) = (outcome is null)),
  check ((ended_at is null) = (active_ms is null)),
  check (ended_at is null or ended_at >= started_at),
  check (reason is null or outcome = 'abandoned')
);

alter table task_attempts enable row level security;
alter table task_attempts force row level security;
grant select, insert, update, delete on table task_attempts to usability_app, usability_system;
drop policy if exists task_attempts_select on task_attempts;
drop policy if exists task_attempts_insert on task_attempts;
drop policy if exists task_attempts_update on task_attempts;
drop policy if exists task_attempts_delete on task_attempts;
create policy task_attempts_select on task_attempts for select
  using (app.is_admin() or app.can_see_session(session_id));
-- Written by the session workflow's activity (the system door) alone.
create policy task_attempts_insert on task_attempts for insert with check (app.is_admin());
create policy task_attempts_update on task_attempts for update
  using (app.is_admin()) with check (app.is_admin());
create policy task_attempts_delete on task_attempts for delete using (app.is_admin());
