-- Accessibility audits. `audits` keeps instant audits; `audit_jobs` is a full audit's life
-- (queued -> running -> complete | failed), with its pages and the annotated screenshots of
-- critical and serious issues. The requester's organization and admins read them; only admins
-- write through the user door (the audit worker writes through the system door).

create table if not exists audits (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid references organizations (id) on delete cascade,
  requested_by uuid not null references users (id) on delete cascade,
  url varchar(2048) not null,
  score integer not null check (score between 0 and 100),
  grade char(1) not null check (grade in ('A', 'B', 'C', 'D', 'F')),
  result jsonb not null,
  completed_at timestamptz not null default now()
);
create index if not exists audits_organization_idx on audits (organization_id, completed_at desc);
create index if not exists audits_requested_by_idx on audits (requested_by, completed_at desc);

create table if not exists audit_jobs (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid references organizations (id) on delete cascade,
  requested_by uuid not null references users (id) on delete cascade,
  url varchar(2048) not null,
  crawl boolean not null default false,
  max_pages integer not null check (max_pages between 1 and 50),
  viewport_width integer not null check (viewport_width between 320 and 3840),
  viewport_height integer not null check (viewport_height between 240 and 2160),
  report_title varchar(200),
  recipients text[] not null check (cardinality(recipients) between 1 and 21),
  status text not null default 'queued' check (status in ('queued', 'running', 'complete', 'failed')),
  pages_done integer not null default 0 check (pages_done >= 0),
  pages_planned integer not null default 1 check (pages_planned >= 1),
  result jsonb,
  error text,
  report_delivered_to text[],
  queued_at timestamptz not null default now(),
  started_at timestamptz,
  completed_at timestamptz,
  check ((status in ('complete', 'failed')) = (completed_at is not null))
);
create index if not exists audit_jobs_organization_idx on audit_jobs (organization_id, queued_at desc);
create index if not exists audit_jobs_requested_by_idx on audit_jobs (requested_by, queued_at desc);

create table if not exists audit_pages (
  id uuid primary key default gen_random_uuid(),
  audit_job_id uuid not null references audit_jobs (id) on delete cascade,
  position integer not null check (position >= 1),
  url varchar(2048) not null,
  score integer not null check (score between 0 and 100),
  grade char(1) not null check (grade in ('A', 'B', 'C', 'D', 'F')),
  issue_counts jsonb not null,
  issues jsonb not null,
  audited_at timestamptz not null default now(),
  unique (audit_job_id, position)
);

create table if not exists audit_screenshots (
  audit_page_id uuid not null references audit_pages (id) on delete cascade,
  issue_id text not null,
  image bytea not null,
  primary key (audit_page_id, issue_id)
);

-- Readable by the requester, the requester's organization and admins.
create or replace function app.can_read_audit(org uuid, requester uuid) returns boolean
  language sql stable
  as $$ select app.is_admin() or requester = app.user_id() or (org is not null and org = app.organization_id()) $$;

-- A user records only their own requests, in their own organization (or none).
create or replace function app.can_request_audit(org uuid, requester uuid) returns boolean
  language sql stable
  as $$ select app.is_admin() or (requester = app.user_id() and (org is null or org = app.organization_id())) $$;

alter table audits enable row level security;
alter table audits force row level security;
drop policy if exists audits_select on audits;
drop policy if exists audits_insert on audits;
drop policy if exists audits_update on audits;
drop policy if exists audits_delete on audits;
create policy audits_select on audits for select using (app.can_read_audit(organization_id, requested_by));
create policy audits_insert on audits for insert with check (app.can_request_audit(organization_id, requested_by));
create policy audits_update on audits for update using (app.is_admin()) with check (app.is_admin());
create policy audits_delete on audits for delete using (app.is_admin());

alter table audit_jobs enable row level security;
alter table audit_jobs force row level security;
drop policy if exists audit_jobs_select on audit_jobs;
drop policy if exists audit_jobs_insert on audit_jobs;
drop policy if exists audit_jobs_update on audit_jobs;
drop policy if exists audit_jobs_delete on audit_jobs;
create policy audit_jobs_select on audit_jobs for select using (app.can_read_audit(organization_id, requested_by));
create policy audit_jobs_insert on audit_jobs for insert with check (app.can_request_audit(organization_id, requested_by));
create policy audit_jobs_update on audit_jobs for update using (app.is_admin()) with check (app.is_admin());
create policy audit_jobs_delete on audit_jobs for delete using (app.is_admin());

-- Pages and screenshots follow their audit job: visible when it is visible, written by the system.
alter table audit_pages enable row level security;
alter table audit_pages force row level security;
drop policy if exists audit_pages_select on audit_pages;
drop policy if exists audit_pages_insert on audit_pages;
drop policy if exists audit_pages_update on audit_pages;
drop policy if exists audit_pages_delete on audit_pages;
create policy audit_pages_select on audit_pages for select using (exists (select 1 from audit_jobs j where j.id = audit_job_id));
create policy audit_pages_insert on audit_pages for insert with check (app.is_admin());
create policy audit_pages_update on audit_pages for update using (app.is_admin()) with check (app.is_admin());
create policy audit_pages_delete on audit_pages for delete using (app.is_admin());

alter table audit_screenshots enable row level security;
alter table audit_screenshots force row level security;
drop policy if exists audit_screenshots_select on audit_screenshots;
drop policy if exists audit_screenshots_insert on audit_screenshots;
drop policy if exists audit_screenshots_update on audit_screenshots;
drop policy if exists audit_screenshots_delete on audit_screenshots;
create policy audit_screenshots_select on audit_screenshots for select
  using (exists (select 1 from audit_pages p where p.id = audit_page_id));
create policy audit_screenshots_insert on audit_screenshots for insert with check (app.is_admin());
create policy audit_screenshots_update on audit_screenshots for update using (app.is_admin()) with check (app.is_admin());
create policy audit_screenshots_delete on audit_screenshots for delete using (app.is_admin());
