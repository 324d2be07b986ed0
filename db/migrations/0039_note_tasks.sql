-- The task a session note happened in (issue 31, point 4): an agent finding carries the task the
-- tester was doing at its moment, so reports group and name findings by task. Null between tasks,
-- for a note without a moment, and for notes written before tasks were reported.
alter table session_notes add column if not exists task_id uuid references study_tasks (id) on delete set null;
