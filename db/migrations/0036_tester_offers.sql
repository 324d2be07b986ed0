-- A tester reads the offers sent to them, on their offers page (docs/decisions.md, "Offers on the
-- tester's pages"): an outreach message once it went out as an offer (sent_at set, and so its
-- offer_status). Drafts, rejected messages and approved ones never sent (withdrawn before sending
-- included) stay the organization's alone; only the study's organization and admins change a message.
drop policy if exists outreach_messages_select on outreach_messages;
create policy outreach_messages_select on outreach_messages for select
  using (
    app.is_admin()
    or app.is_business_of(organization_id)
    or (tester_id = app.user_id() and sent_at is not null)
  );
