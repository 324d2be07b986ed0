-- Matching (activities/matching/, db/repositories/matching.ts): the eligibility query reads the
-- qualified, active profiles of a study's countries; this partial index holds only those, by
-- country and birth year (the age range).
create index if not exists tester_profiles_matching_idx on tester_profiles (country, birth_year)
  where status = 'active' and quiz_passed;
