-- The lifecycle reconciler's round of open offers (issue 33): an offer whose workflow was
-- terminated would stay open with nothing to take its answer or free its place. Each run looks at
-- the open offers checked longest ago and stamps them, so every one is looked at in turn.
alter table outreach_messages add column if not exists workflow_checked_at timestamptz;
create index if not exists outreach_messages_open_offer_checks
  on outreach_messages ((coalesce(workflow_checked_at, sent_at)))
  where offer_status = 'open';
