-- The AI pipeline (issue 6).

-- Agent 1 (POST /api/ai) may be requested by the session's organization, an admin, or the
-- session's own tester during the test. The tester may queue only an Agent 1 job, on their own
-- session and study, under their own id; everything else stays as in 0006.
drop policy if exists agent_jobs_insert on agent_jobs;
create policy agent_jobs_insert on agent_jobs for insert with check (
  app.is_admin()
  or (app.is_business_of(organization_id) and status = 'queued')
  or (kind = 'agent1' and status = 'queued' and session_id is not null
      and requested_by = app.user_id() and app.is_tester_of_session(session_id)
      and exists (select 1 from public.sessions s where s.id = session_id and s.study_id = agent_jobs.study_id)));

-- Queued AI work (steps that waited out a total provider outage): at most one live item per agent
-- job, so queuing the same step twice changes nothing and the retry never runs it twice.
create unique index if not exists queued_ai_work_live_job_key on queued_ai_work (agent_job_id)
  where status in ('queued', 'processing');
-- The retry schedule claims due items in this order.
create index if not exists queued_ai_work_due_idx on queued_ai_work (next_attempt_at, id)
  where status in ('queued', 'processing');
