-- Study and session life cycles (issues 2 and 5): the reconciler's marker, and Agent 1's live
-- insights kept to the live test.

-- When the lifecycle reconciler (workflows/reconcile.ts) last found the row's workflow, or started
-- it from the recorded status because there was none. A live row without it is looked at once it
-- is a few minutes old; afterwards never again, so a run costs nothing per healthy row.
alter table studies add column if not exists workflow_seen_at timestamptz;
alter table sessions add column if not exists workflow_seen_at timestamptz;
create index if not exists studies_workflow_unseen_idx on studies (created_at)
  where workflow_seen_at is null and status in ('draft', 'active', 'paused', 'completed');
create index if not exists sessions_workflow_unseen_idx on sessions (created_at)
  where workflow_seen_at is null and status in ('active', 'paused');

-- Agent 1 (POST /api/ai) is the live test's analyst, and its insights name moments and elements
-- that Agent 2's findings may name too, findings the tester may later reject. So its jobs are read
-- by the organization only while the session is active or paused, and by the session's tester
-- only until the tester confirms (afterwards what passed the gate is the report). Admins read
-- them under RLS; the API withholds them from admins as it withholds undecided findings. Every
-- other agent job is read as before (0006).
drop policy if exists agent_jobs_select on agent_jobs;
create policy agent_jobs_select on agent_jobs for select using (
  app.is_admin()
  or (kind <> 'agent1'
      and (app.is_business_of(organization_id)
           or (session_id is not null and app.is_tester_of_session(session_id))))
  or (kind = 'agent1'
      and exists (
        select 1 from public.sessions s
        where s.id = agent_jobs.session_id
          and ((s.tester_id = app.user_id() and s.status <> 'confirmed')
               or (app.is_business_of(s.organization_id) and s.status in ('active', 'paused'))))));
