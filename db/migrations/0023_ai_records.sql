-- The AI pipeline's records (issue 6, closing the gaps): every AI output names the provider that
-- answered and whether it was a fallback, and Agent 2's cross-task patterns are stored for the
-- tester to decide on.

-- Agent 2's output is its notes: each agent note records who worded it (`provider`, the local
-- analyst included) and whether a provider other than the first configured one did.
-- A cross-task pattern is an agent note of its own (`pattern`), decided on like any finding; the
-- findings it groups point at it (`pattern_note_id`). Human notes carry none of this.
alter table session_notes add column if not exists provider varchar(40);
alter table session_notes add column if not exists used_fallback boolean not null default false;
alter table session_notes add column if not exists pattern boolean not null default false;
alter table session_notes add column if not exists pattern_note_id uuid
  references session_notes (id) on delete set null;
alter table session_notes drop constraint if exists session_notes_ai_fields_agent_only;
alter table session_notes add constraint session_notes_ai_fields_agent_only check (
  author_kind = 'agent'
  or (provider is null and not used_fallback and not pattern and pattern_note_id is null));
-- Replacing a run's notes deletes them, and each delete looks for findings pointing at the row.
create index if not exists session_notes_pattern_note_idx on session_notes (pattern_note_id)
  where pattern_note_id is not null;

-- Tester and study reports: the provider beside `used_fallback`.
alter table reports add column if not exists provider varchar(40);
alter table study_reports add column if not exists provider varchar(40);

-- Records written before this migration: their job knows who answered.
update session_notes n
set provider = j.provider, used_fallback = j.used_fallback
from agent_jobs j
where n.agent_job_id = j.id and n.author_kind = 'agent' and n.provider is null;
update reports r
set provider = j.provider
from agent_jobs j
where r.agent_job_id = j.id and r.provider is null;
update study_reports r
set provider = j.provider
from agent_jobs j
where r.agent_job_id = j.id and r.provider is null;
