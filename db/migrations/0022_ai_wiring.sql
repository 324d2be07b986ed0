-- The AI pipeline in the session life cycle (issue 6, phase 2).

-- The tone profile is fixed once Agent 3 has run for the study (spec, Tone profiles): a study
-- that has a tester report keeps its tone, whoever writes the row. The check reads reports as
-- the caller: those who may update a study (its organization, admins, the system door) see
-- every report of it.
create or replace function app.guard_study_tone() returns trigger
  language plpgsql
  as $$
begin
  if new.tone_profile is distinct from old.tone_profile
     and exists (select 1 from public.reports r where r.study_id = old.id) then
    raise exception 'Tone profile is fixed once Agent 3 has run for the study'
      using errcode = 'check_violation';
  end if;
  return new;
end
$$;
drop trigger if exists studies_tone_fixed on studies;
create trigger studies_tone_fixed before update of tone_profile on studies
  for each row execute function app.guard_study_tone();

-- A report is written in the study's tone as it stands. The share lock on the study row makes a
-- tone change and a study's first report wait for each other: the change sees the report, or the
-- report sees the new tone (and Agent 3 words it again). A study the writer cannot see is left to
-- the reports policies.
create or replace function app.guard_report_tone() returns trigger
  language plpgsql
  as $$
declare
  study_tone text;
begin
  select s.tone_profile into study_tone from public.studies s where s.id = new.study_id for share;
  if study_tone is not null and study_tone is distinct from new.tone_profile then
    raise exception 'A report must use its study''s tone profile (%), not %', study_tone, new.tone_profile
      using errcode = 'check_violation';
  end if;
  return new;
end
$$;
drop trigger if exists reports_tone on reports;
create trigger reports_tone before insert or update of tone_profile, study_id on reports
  for each row execute function app.guard_report_tone();
