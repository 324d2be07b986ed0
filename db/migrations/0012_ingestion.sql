-- Ingestion retries: the extension resends a batch when it did not see the answer. Facial frames
-- and voice segments are already unique per (session, frameIndex / segmentIndex) (0006); events
-- carry no sequence number, so an event is a repeat when every field the extension sent is equal.
-- `nulls not distinct` (PostgreSQL 15) makes two events without coordinates equal; the selector
-- is indexed by its MD5 so that a long selector cannot overflow a btree entry.
-- Writers use `on conflict do nothing`, so a repeat is skipped without failing its batch.
create unique index if not exists session_events_identical_key on session_events (
  session_id, occurred_at, event_type, md5(target_selector),
  x, y, scroll_y, input_length, viewport_width, viewport_height
) nulls not distinct;
