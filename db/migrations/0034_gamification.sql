-- Gamification (POST /api/gamification/evaluate, db/repositories/gamification.ts): one evaluation
-- per confirmed session, its answer kept exactly as first given (a repeat returns it unchanged),
-- and the badge catalogue awarded on cumulative points (0009's tables).
create table if not exists gamification_evaluations (
  session_id uuid primary key references sessions (id) on delete cascade,
  tester_id uuid not null references users (id) on delete cascade,
  points_awarded integer not null check (points_awarded between 0 and 130),
  -- The answer's JSON text, as first given.
  result text not null,
  evaluated_at timestamptz not null default now()
);
create index if not exists gamification_evaluations_tester_idx on gamification_evaluations (tester_id);

alter table gamification_evaluations enable row level security;
alter table gamification_evaluations force row level security;
grant select, insert, update, delete on table gamification_evaluations to usability_app, usability_system;
drop policy if exists gamification_evaluations_select on gamification_evaluations;
drop policy if exists gamification_evaluations_insert on gamification_evaluations;
drop policy if exists gamification_evaluations_update on gamification_evaluations;
drop policy if exists gamification_evaluations_delete on gamification_evaluations;
create policy gamification_evaluations_select on gamification_evaluations for select
  using (app.is_admin() or tester_id = app.user_id());
create policy gamification_evaluations_insert on gamification_evaluations for insert with check (app.is_admin());
create policy gamification_evaluations_update on gamification_evaluations for update
  using (app.is_admin()) with check (app.is_admin());
create policy gamification_evaluations_delete on gamification_evaluations for delete using (app.is_admin());

-- A tester's points are read by summing the ledger.
create index if not exists point_ledger_tester_points_idx on point_ledger (tester_id) include (points);

-- The badge catalogue: cumulative points thresholds (icons served at /badges/<code>.svg).
insert into badges (code, name, description, icon_url, threshold_points) values
  ('first_steps', 'First steps', 'Earned 100 points.', '/badges/first_steps.svg', 100),
  ('regular', 'Regular', 'Earned 500 points: level 2.', '/badges/regular.svg', 500),
  ('dedicated', 'Dedicated', 'Earned 1,000 points.', '/badges/dedicated.svg', 1000),
  ('expert', 'Expert', 'Earned 2,500 points.', '/badges/expert.svg', 2500),
  ('champion', 'Accessibility champion', 'Earned 5,000 points.', '/badges/champion.svg', 5000)
on conflict (code) do nothing;
