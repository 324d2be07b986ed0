-- Row-level security for the core tables. Every table is enabled AND forced, so even the owner
-- is subject to the policies; the system door uses a BYPASSRLS role instead.

create or replace function app.is_business_of(org uuid) returns boolean
  language sql stable
  as $$ select app.role() = 'business' and org = app.organization_id() $$;

alter table organizations enable row level security;
alter table organizations force row level security;
drop policy if exists organizations_select on organizations;
drop policy if exists organizations_insert on organizations;
drop policy if exists organizations_update on organizations;
drop policy if exists organizations_delete on organizations;
create policy organizations_select on organizations for select using (app.is_admin() or id = app.organization_id());
create policy organizations_insert on organizations for insert with check (app.is_admin());
create policy organizations_update on organizations for update using (app.is_admin() or app.is_business_of(id))
  with check (app.is_admin() or app.is_business_of(id));
create policy organizations_delete on organizations for delete using (app.is_admin());

alter table users enable row level security;
alter table users force row level security;
drop policy if exists users_select on users;
drop policy if exists users_insert on users;
drop policy if exists users_update on users;
drop policy if exists users_delete on users;
create policy users_select on users for select using (
  app.is_admin() or id = app.user_id()
  or exists (select 1 from organization_memberships m where m.user_id = users.id and m.organization_id = app.organization_id())
);
create policy users_insert on users for insert with check (app.is_admin());
create policy users_update on users for update using (app.is_admin() or id = app.user_id())
  with check (app.is_admin() or (id = app.user_id() and role = app.role()));
create policy users_delete on users for delete using (app.is_admin());

alter table organization_memberships enable row level security;
alter table organization_memberships force row level security;
drop policy if exists organization_memberships_select on organization_memberships;
drop policy if exists organization_memberships_insert on organization_memberships;
drop policy if exists organization_memberships_update on organization_memberships;
drop policy if exists organization_memberships_delete on organization_memberships;
create policy organization_memberships_select on organization_memberships for select
  using (app.is_admin() or user_id = app.user_id() or organization_id = app.organization_id());
create policy organization_memberships_insert on organization_memberships for insert with check (app.is_admin());
create policy organization_memberships_update on organization_memberships for update using (app.is_admin()) with check (app.is_admin());
create policy organization_memberships_delete on organization_memberships for delete using (app.is_admin());

alter table studies enable row level security;
alter table studies force row level security;
drop policy if exists studies_select on studies;
drop policy if exists studies_insert on studies;
drop policy if exists studies_update on studies;
drop policy if exists studies_delete on studies;
create policy studies_select on studies for select using (app.is_admin() or organization_id = app.organization_id());
create policy studies_insert on studies for insert with check (app.is_admin() or app.is_business_of(organization_id));
create policy studies_update on studies for update using (app.is_admin() or app.is_business_of(organization_id))
  with check (app.is_admin() or app.is_business_of(organization_id));
create policy studies_delete on studies for delete using (app.is_admin() or (app.is_business_of(organization_id) and status = 'draft'));

-- Tasks and variants follow their study: visible when the study is visible, writable by its business.
alter table study_tasks enable row level security;
alter table study_tasks force row level security;
drop policy if exists study_tasks_select on study_tasks;
drop policy if exists study_tasks_insert on study_tasks;
drop policy if exists study_tasks_update on study_tasks;
drop policy if exists study_tasks_delete on study_tasks;
create policy study_tasks_select on study_tasks for select using (exists (select 1 from studies s where s.id = study_id));
create policy study_tasks_insert on study_tasks for insert with check (
  app.is_admin() or exists (select 1 from studies s where s.id = study_id and app.is_business_of(s.organization_id)));
create policy study_tasks_update on study_tasks for update using (
  app.is_admin() or exists (select 1 from studies s where s.id = study_id and app.is_business_of(s.organization_id)));
create policy study_tasks_delete on study_tasks for delete using (
  app.is_admin() or exists (select 1 from studies s where s.id = study_id and app.is_business_of(s.organization_id)));

alter table study_variants enable row level security;
alter table study_variants force row level security;
drop policy if exists study_variants_select on study_variants;
drop policy if exists study_variants_insert on study_variants;
drop policy if exists study_variants_update on study_variants;
drop policy if exists study_variants_delete on study_variants;
create policy study_variants_select on study_variants for select using (exists (select 1 from studies s where s.id = study_id));
create policy study_variants_insert on study_variants for insert with check (
  app.is_admin() or exists (select 1 from studies s where s.id = study_id and app.is_business_of(s.organization_id)));
create policy study_variants_update on study_variants for update using (
  app.is_admin() or exists (select 1 from studies s where s.id = study_id and app.is_business_of(s.organization_id)));
create policy study_variants_delete on study_variants for delete using (
  app.is_admin() or exists (select 1 from studies s where s.id = study_id and app.is_business_of(s.organization_id)));
