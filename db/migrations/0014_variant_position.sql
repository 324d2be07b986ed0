-- A/B variants keep the order the study's creator listed them in: the create response, an
-- idempotent replay, GET /api/jobs/:id and the list all answer `variants` in that order. Rows
-- stored before this migration had no order; they get their labels' alphabetical order, which is
-- what every read answered until now.
alter table study_variants add column if not exists position integer;

update study_variants v
set position = numbered.position
from (
  select id, row_number() over (partition by study_id order by label) as position
  from study_variants
) numbered
where v.id = numbered.id and v.position is null;

alter table study_variants alter column position set not null;

do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'study_variants_position_check') then
    alter table study_variants add constraint study_variants_position_check check (position >= 1);
  end if;
  if not exists (select 1 from pg_constraint where conname = 'study_variants_study_id_position_key') then
    alter table study_variants
      add constraint study_variants_study_id_position_key unique (study_id, position);
  end if;
end
$$;
