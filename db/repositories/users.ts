import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Tx } from '../doors.ts';
import type { UsersTable } from '../schema.ts';

// Users as accounts: who they are, their credentials and their organization.

export type NewUser = Insertable<UsersTable>;

/**
 * Who acted, while their account exists: a removed account (a token outliving it) is recorded as
 * nobody, as its deletion would have left it, instead of failing the write on the foreign key.
 */
export const existingUserId = (id: string): RawBuilder<string | null> =>
  sql<string | null>`(select u.id from users u where u.id = ${id})`;

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

/** A user with their password hash and (business users) their organization. */
export type AccountRow = Awaited<ReturnType<ReturnType<typeof accountQuery>['executeTakeFirstOrThrow']>>;

/** The account with this email; the caller normalizes it (emails are stored lower-case). */
export function findAccountRowByEmail(tx: Tx, email: string): Promise<AccountRow | undefined> {
  return accountQuery(tx).where('users.email', '=', email).executeTakeFirst();
}

export function findAccountRowById(tx: Tx, id: string): Promise<AccountRow | undefined> {
  return accountQuery(tx).where('users.id', '=', id).executeTakeFirst();
}

/** A new user; returns their id. */
export async function insertUser(tx: Tx, user: NewUser): Promise<string> {
  const row = await tx.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function setDisplayName(tx: Tx, userId: string, displayName: string): Promise<void> {
  await tx.updateTable('users').set({ display_name: displayName }).where('id', '=', userId).execute();
}

/** Sets the user's password hash; returns their email (the user must exist). */
export async function setPasswordHash(tx: Tx, userId: string, passwordHash: string): Promise<string> {
  const user = await tx
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .returning('email')
    .executeTakeFirstOrThrow();
  return user.email;
}

export async function findUserEmail(tx: Tx, userId: string): Promise<string | undefined> {
  const row = await tx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  return row?.email;
}

/** The email of a user who must exist (a missing one throws). */
export async function userEmail(tx: Tx, userId: string): Promise<string> {
  const row = await tx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.email;
}
