-- Reports (Agent 3 per tester, Agent 4 per study), matching proposals, outreach messages and
-- capacity reviews.

create table if not exists reports (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  study_id uuid not null,
  session_id uuid not null unique,
  tester_id uuid not null references users (id) on delete restrict,
  agent_job_id uuid references agent_jobs (id) on delete set null,
  tone_profile text not null check (tone_profile in ('standard', 'supportive', 'moderate', 'restorative')),
  report_format text not null default 'structured' check (report_format in ('structured', 'narrative')),
  overall_score numeric(5, 2) not null check (overall_score between 0 and 100),
  -- findings, recommendations, emotionalProfile: the shape of spec "Agent job and result records".
  content jsonb not null check (jsonb_typeof(content) = 'object'),
  used_fallback boolean not null default false,
  generated_at timestamptz not null default now(),
  foreign key (study_id, organization_id) references studies (id, organization_id) on delete cascade,
  foreign key (session_id, organization_id) references sessions (id, organization_id) on delete cascade,
  unique (study_id, tester_id)
);
create index if not exists reports_organization_generated_idx on reports (organization_id, generated_at desc);
create index if not exists reports_tester_generated_idx on reports (tester_id, generated_at desc);

-- The human-in-the-loop gate, held by the database too: no report for a session whose tester has
-- not confirmed the findings.
create or replace function app.check_report_gate() returns trigger
  language plpgsql
  as $$
begin
  if not exists (
    select 1 from public.sessions s
    where s.id = new.session_id and s.tester_id = new.tester_id and s.study_id = new.study_id and s.notes_confirmed
  ) then
    raise exception 'session % has no confirmed findings for this tester and study', new.session_id
      using errcode = 'check_violation';
  end if;
  return new;
end
$$;
drop trigger if exists reports_gate on reports;
create trigger reports_gate before insert or update of session_id, tester_id, study_id on reports
  for each row execute function app.check_report_gate();

create table if not exists study_reports (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  study_id uuid not null,
  agent_job_id uuid references agent_jobs (id) on delete set null,
  session_count integer not null check (session_count >= 0),
  study_score numeric(5, 2) check (study_score between 0 and 100),
  -- topFindings, variantComparison, recommendations.
  content jsonb not null check (jsonb_typeof(content) = 'object'),
  used_fallback boolean not null default false,
  generated_at timestamptz not null default now(),
  foreign key (study_id, organization_id) references studies (id, organization_id) on delete cascade
);
create index if not exists study_reports_study_generated_idx on study_reports (study_id, generated_at desc);

create table if not exists proposals (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  study_id uuid not null,
  tester_id uuid not null references users (id) on delete cascade,
  match_score numeric(5, 4) not null check (match_score between 0 and 1),
  match_reasons text[] not null default '{}',
  status text not null default 'pending' check (status in ('pending', 'accepted', 'skipped')),
  generated_at timestamptz not null default now(),
  decided_by uuid references users (id) on delete set null,
  accepted_at timestamptz,
  skipped_at timestamptz,
  skip_reason varchar(2000),
  foreign key (study_id, organization_id) references studies (id, organization_id) on delete cascade,
  unique (study_id, tester_id),
  check ((status = 'accepted') = (accepted_at is not null)),
  check ((status = 'skipped') = (skipped_at is not null))
);
create index if not exists proposals_study_status_idx on proposals (study_id, status, match_score desc);

create table if not exists outreach_messages (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null,
  study_id uuid not null,
  tester_id uuid not null references users (id) on delete cascade,
  -- The accepted proposal the message was drafted for (the proposal's `outreachId`).
  proposal_id uuid unique references proposals (id) on delete set null,
  recipient_email varchar(320) not null,
  channel text not null check (channel in ('email', 'messaging')),
  subject varchar(500),
  body varchar(10000) not null,
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  used_fallback boolean not null default false,
  generated_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  approved_by uuid references users (id) on delete set null,
  approved_at timestamptz,
  scheduled_send_at timestamptz,
  sent_at timestamptz,
  rejected_by uuid references users (id) on delete set null,
  rejected_at timestamptz,
  rejection_reason varchar(2000),
  foreign key (study_id, organization_id) references studies (id, organization_id) on delete cascade,
  check (channel = 'email' or subject is null),
  check ((status = 'approved') = (approved_at is not null and scheduled_send_at is not null)),
  check ((status = 'rejected') = (rejected_at is not null)),
  check (sent_at is null or status = 'approved')
);
create index if not exists outreach_messages_status_generated_idx on outreach_messages (status, generated_at, id);
create index if not exists outreach_messages_study_status_idx on outreach_messages (study_id, status, generated_at);

create table if not exists capacity_reviews (
  id uuid primary key default gen_random_uuid(),
  study_id uuid not null references studies (id) on delete cascade,
  requested_count integer not null check (requested_count > 0),
  available_count integer not null check (available_count >= 0),
  -- {country, ageRange: {min, max}}: the short segment.
  segment jsonb not null check (jsonb_typeof(segment) = 'object'),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  adjusted_count integer check (adjusted_count >= 0),
  note varchar(5000),
  resolved_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  resolved_at timestamptz,
  check ((status = 'pending') = (resolved_at is null))
);
create index if not exists capacity_reviews_status_created_idx on capacity_reviews (status, created_at, id);
create index if not exists capacity_reviews_study_idx on capacity_reviews (study_id);

do $$
declare
  t text;
begin
  foreach t in array array['reports', 'study_reports', 'proposals', 'outreach_messages', 'capacity_reviews'] loop
    execute format('alter table %I enable row level security', t);
    execute format('alter table %I force row level security', t);
    execute format('grant select, insert, update, delete on table %I to usability_app, usability_system', t);
    execute format('drop policy if exists %I on %I', t || '_select', t);
    execute format('drop policy if exists %I on %I', t || '_insert', t);
    execute format('drop policy if exists %I on %I', t || '_update', t);
    execute format('drop policy if exists %I on %I', t || '_delete', t);
  end loop;
  -- Written by agents, matching and admins only (through the system door or as an admin).
  foreach t in array array['reports', 'study_reports', 'proposals', 'outreach_messages', 'capacity_reviews'] loop
    execute format('create policy %I on %I for delete using (app.is_admin())', t || '_delete', t);
  end loop;
  foreach t in array array['reports', 'study_reports', 'proposals', 'capacity_reviews'] loop
    execute format('create policy %I on %I for insert with check (app.is_admin())', t || '_insert', t);
  end loop;
  foreach t in array array['reports', 'study_reports', 'capacity_reviews'] loop
    execute format('create policy %I on %I for update using (app.is_admin()) with check (app.is_admin())', t || '_update', t);
  end loop;
end
$$;

-- Reports: their tester and the organization owning the study (spec "Row-level security").
create policy reports_select on reports for select
  using (app.is_admin() or tester_id = app.user_id() or app.is_business_of(organization_id));
create policy study_reports_select on study_reports for select
  using (app.is_admin() or app.is_business_of(organization_id));

-- Proposals and outreach are reviewed by the study's organization (approve, edit, reject);
-- approving a proposal creates its pending outreach message.
create policy proposals_select on proposals for select using (app.is_admin() or app.is_business_of(organization_id));
create policy proposals_update on proposals for update
  using (app.is_admin() or app.is_business_of(organization_id))
  with check (app.is_admin() or app.is_business_of(organization_id));
create policy outreach_messages_select on outreach_messages for select
  using (app.is_admin() or app.is_business_of(organization_id));
create policy outreach_messages_insert on outreach_messages for insert
  with check (app.is_admin() or (app.is_business_of(organization_id) and status = 'pending'));
create policy outreach_messages_update on outreach_messages for update
  using (app.is_admin() or app.is_business_of(organization_id))
  with check (app.is_admin() or app.is_business_of(organization_id));

-- Capacity reviews are decided by admins alone.
create policy capacity_reviews_select on capacity_reviews for select using (app.is_admin());
