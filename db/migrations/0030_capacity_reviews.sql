-- Capacity reviews (activities/matching/, api/admin/capacity-reviews.*): one review per short
-- segment of a study (its country; the age range is the study's own), decided once by an admin.
-- `business_notified_at`: when the study's business was told of a rejection (queued once).
alter table capacity_reviews add column if not exists business_notified_at timestamptz;

create unique index if not exists capacity_reviews_study_country_idx
  on capacity_reviews (study_id, (segment ->> 'country'));

alter table capacity_reviews drop constraint if exists capacity_reviews_decision_check;
alter table capacity_reviews add constraint capacity_reviews_decision_check check (
  (status = 'pending') = (adjusted_count is null)
  and (status <> 'rejected' or adjusted_count = 0)
);
