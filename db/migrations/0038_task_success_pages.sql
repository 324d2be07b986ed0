-- Whether an attempt reached the page its task's success criteria name (issue 31, point 3),
-- judged when the session completes, once every signal of it is in: the page as read from the
-- criteria (null when they name none), and the first navigation to it during the attempt.
alter table task_attempts add column if not exists success_page varchar(1000);
alter table task_attempts add column if not exists success_reached_at timestamptz;
alter table task_attempts drop constraint if exists task_attempts_success_reached_check;
alter table task_attempts add constraint task_attempts_success_reached_check
  check (success_reached_at is null or success_page is not null);
