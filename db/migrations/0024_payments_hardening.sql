-- Payments hardening (issue 7): account.updated applied in the provider's order, and paid_at
-- guarded on insert as well as on update.

-- The provider's `created` time of the last account.updated applied to the account: deliveries
-- arrive in any order, and an older event must not overwrite a newer state.
alter table payout_accounts add column if not exists last_event_created_at timestamptz;

-- 0019 guarded only updates of paid_at: a business could insert a study already marked paid
-- through its own door. Whether a study is paid is the payment provider's word alone (the
-- webhook, through the system door) or an admin's, whichever way the row is written.
create or replace function app.guard_study_payment() returns trigger
  language plpgsql
  as $$
begin
  if app.user_id() is null or app.is_admin() then
    return new;
  end if;
  if tg_op = 'INSERT' then
    if new.paid_at is not null then
      raise exception 'only the payment provider''s confirmation marks a study paid'
        using errcode = 'insufficient_privilege';
    end if;
  elsif new.paid_at is distinct from old.paid_at then
    raise exception 'only the payment provider''s confirmation marks a study paid'
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end
$$;
drop trigger if exists studies_payment_guard on studies;
create trigger studies_payment_guard before insert or update of paid_at on studies
  for each row execute function app.guard_study_payment();
