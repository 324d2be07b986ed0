-- Offers (activities/outreach/offer-activities.ts, workflows/offer.ts): an approved outreach message
-- is the study's offer to its tester. Once sent it is open until answered or expired; withdrawn when
-- the study stops recruiting. An accepted offer holds the session it created.
alter table outreach_messages
  add column if not exists offer_status text check (offer_status in ('open', 'accepted', 'declined', 'expired', 'withdrawn')),
  add column if not exists offer_expires_at timestamptz,
  add column if not exists answered_at timestamptz,
  add column if not exists session_id uuid references sessions (id);

alter table outreach_messages drop constraint if exists outreach_messages_offer_check;
alter table outreach_messages add constraint outreach_messages_offer_check check (
  (offer_status is null or status = 'approved')
  and ((offer_status = 'open') <= (offer_expires_at is not null and sent_at is not null))
  and ((offer_status in ('accepted', 'declined', 'expired')) <= (answered_at is not null))
  and ((offer_status = 'accepted') = (session_id is not null))
);

-- The offers of a study still waiting for an answer (withdrawing them, counting places).
create index if not exists outreach_messages_open_offers_idx on outreach_messages (study_id)
  where offer_status = 'open';

-- When an offer's session is due: reminders go 24 and 2 hours before; the time limit counts from it.
alter table sessions add column if not exists due_at timestamptz;
