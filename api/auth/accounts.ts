import type { Claims, Tx } from '../../db/doors.ts';
import { insertMembership, insertOrganization } from '../../db/repositories/organizations.ts';
import { insertEmptyTesterProfile } from '../../db/repositories/tester-profiles.ts';
import {
  findAccountRowByEmail,
  findAccountRowById,
  insertUser,
  type AccountRow,
} from '../../db/repositories/users.ts';
import type { TesterStatus, UserRole } from '../../lib/domain.ts';

/** A user as authentication sees it: who they are and what goes into their session's claims. */
export interface AccountView {
  readonly id: string;
  readonly email: string;
  readonly role: UserRole;
  readonly displayName: string | null;
  readonly organizationId: string | null;
  readonly status: TesterStatus;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function claimsOf(account: AccountView): Claims {
  return { sub: account.id, role: account.role, organization_id: account.organizationId };
}

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
  const row = await findAccountRowByEmail(tx, normalizeEmail(email));
  return row && { ...toView(row), passwordHash: row.password_hash };
}

export async function findAccountById(tx: Tx, id: string): Promise<AccountView | undefined> {
  const row = await findAccountRowById(tx, id);
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
  const userId = await insertUser(tx, {
    email: normalizeEmail(account.email),
    role: account.role,
    display_name: account.displayName,
    password_hash: account.passwordHash,
  });
  if (account.role === 'business') {
    const organizationId = await insertOrganization(
      tx,
      account.organizationName ?? `${account.displayName ?? account.email}'s organization`,
    );
    await insertMembership(tx, organizationId, userId, 'owner');
  }
  if (account.role === 'tester') await insertEmptyTesterProfile(tx, userId);
  return (await findAccountById(tx, userId))!;
}
