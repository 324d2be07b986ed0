-- The human-in-the-loop gate, tightened. Agent 2 used to keep every finding (note id, kind,
-- element, severity) in its job's `result`, which the organization reads (agent_jobs_select)
-- before the tester has confirmed anything. The element a finding is about now lives on the note
-- itself, behind the notes policy, and Agent 2's job keeps only a count.

alter table session_notes add column if not exists target_selector varchar(1000);

-- Findings stored before this migration: move their element onto the note, then drop the list.
update session_notes n
set target_selector = f.value ->> 'target'
from agent_jobs j, jsonb_array_elements(j.result -> 'findings') f
where j.kind = 'agent2'
  and jsonb_typeof(j.result -> 'findings') = 'array'
  and n.agent_job_id = j.id
  and n.id::text = f.value ->> 'noteId'
  and n.target_selector is null;

update agent_jobs
set result = jsonb_build_object('findingCount', jsonb_array_length(result -> 'findings'))
where kind = 'agent2' and jsonb_typeof(result -> 'findings') = 'array';

-- Signals arrive 1,000 rows at a time, and an insert policy is checked on every row. The rule of
-- 0006 (an admin, or the session's tester while the session runs) is unchanged, but written so
-- that PostgreSQL works it out once per statement: the claims in scalar subqueries (init plans)
-- and the caller's recordable sessions in an uncorrelated `in` (a hashed subplan, read through the
-- sessions policies as app.can_record_on was). Per row, 0006's form re-read the JSON claims and
-- looked the session up again, which cost several times the insert itself.
do $$
declare
  t text;
begin
  foreach t in array array['session_events', 'facial_snapshots', 'voice_segments'] loop
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format(
      'create policy %I on %I for insert with check ((select app.is_admin()) or session_id in ('
      'select s.id from public.sessions s '
      'where s.tester_id = (select app.user_id()) and s.status in (''active'', ''paused'')))',
      t || '_insert', t);
  end loop;
end
$$;
