-- Issue 35, point 6: a study whose prototype is a public URL has its prototype audited when it
-- becomes active (docs/decisions/audits.md, "Audits beside studies"). The full audit names its study;
-- a study has at most one, so a retried activity finds the audit it queued instead of a second.
alter table audit_jobs add column if not exists study_id uuid references studies (id) on delete set null;
create unique index if not exists audit_jobs_study_idx on audit_jobs (study_id) where study_id is not null;
