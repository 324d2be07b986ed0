import type { Claims, Tx } from '../../db/doors.ts';
import type { UserRole } from '../../db/schema.ts';

/** A user as authentication sees it: who they are and what goes into their session's claims. */
export interface AccountView {
  readonly id: string;
  readonly email: string;
  readonly role: UserRole;
  readonly displayName: string | null;
  readonly organizationId: string | null;
  readonly status: 'active' | 'suspended' | 'pending';
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function claimsOf(account: AccountView): Claims {
  return { sub: account.id, role: account.role, organization_id: account.organizationId };
}

function accountQuery(tx: Tx) {
  return tx.selectFrom('users').select((eb) => [
    'users.id',
    'users.email',
    'users.role',
    'users.display_name',
    'users.status',
    'users.password_hash',
    // Business users belong to one organization; the oldest membership decides if there are more.
    eb
      .selectFrom('organization_memberships as m')
      .select('m.organization_id')
      .whereRef('m.user_id', '=', 'users.id')
      .orderBy('m.created_at')
      .limit(1)
      .as('organization_id'),
  ]);
}

type AccountRow = Awaited<ReturnType<ReturnType<typeof accountQuery>['executeTakeFirstOrThrow']>>;

function toView(row: AccountRow): AccountView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    displayName: row.display_name,
    organizationId: row.organization_id,
    status: row.status,
  };
}

export async function findAccountByEmail(
  tx: Tx,
  email: string,
): Promise<(AccountView & { passwordHash: string | null }) | undefined> {
  const row = await accountQuery(tx).where('users.email', '=', normalizeEmail(email)).executeTakeFirst();
  return row && { ...toView(row), passwordHash: row.password_hash };
}

export async function findAccountById(tx: Tx, id: string): Promise<AccountView | undefined> {
  const row = await accountQuery(tx).where('users.id', '=', id).executeTakeFirst();
  return row && toView(row);
}

export interface NewAccount {
  readonly email: string;
  readonly role: 'business' | 'tester';
  readonly displayName: string | null;
  readonly passwordHash: string | null;
  /** Business accounts get an organization of their own, which they own. */
  readonly organizationName?: string;
}

export async function createAccount(tx: Tx, account: NewAccount): Promise<AccountView> {
  const user = await tx
    .insertInto('users')
    .values({
      email: normalizeEmail(account.email),
      role: account.role,
      display_name: account.displayName,
      password_hash: account.passwordHash,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (account.role === 'business') {
    const organization = await tx
      .insertInto('organizations')
      .values({ name: account.organizationName ?? `${account.displayName ?? account.email}'s organization` })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('organization_memberships')
      .values({ organization_id: organization.id, user_id: user.id, member_role: 'owner' })
      .execute();
  }
  return (await findAccountById(tx, user.id))!;
}
