-- Issue 35, point 3 (WCAG 3.2.6, consistent help): a full audit's page keeps its links and buttons
-- in document order, so the report can compare where help sits across the crawled pages
-- (activities/audits/consistent-help.ts). Null for pages audited before.
alter table audit_pages add column if not exists outline jsonb;
