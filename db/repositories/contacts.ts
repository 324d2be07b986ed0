import type { Channel } from '../../lib/domain.ts';
import type { Tx } from '../doors.ts';

// Whom the service writes to: users' emails (and testers' chats) by their part in a study or
// organization. Read through the system door.

export interface Contact {
  readonly id: string;
  readonly email: string;
}

/** A study's organization and its creator, whose columns are null once the creator is gone. */
export function studyCreator(
  tx: Tx,
  studyId: string,
): Promise<{ organization_id: string; user_id: string | null; email: string | null } | undefined> {
  return tx
    .selectFrom('studies')
    .leftJoin('users', 'users.id', 'studies.created_by')
    .select(['studies.organization_id', 'users.id as user_id', 'users.email'])
    .where('studies.id', '=', studyId)
    .executeTakeFirst();
}

/** Whom mail about a study goes to: its creator, or the organization's owners when the creator is gone. */
export async function studyContacts(tx: Tx, studyId: string): Promise<Contact[]> {
  const study = await studyCreator(tx, studyId);
  if (!study) return [];
  if (study.user_id && study.email) return [{ id: study.user_id, email: study.email }];
  return organizationOwners(tx, study.organization_id);
}

export function organizationOwners(tx: Tx, organizationId: string): Promise<Contact[]> {
  return tx
    .selectFrom('organization_memberships')
    .innerJoin('users', 'users.id', 'organization_memberships.user_id')
    .select(['users.id', 'users.email'])
    .where('organization_memberships.organization_id', '=', organizationId)
    .where('organization_memberships.member_role', '=', 'owner')
    .execute();
}

/** The business users of the given organizations (invoices go to them). */
export function businessMembersOf(
  tx: Tx,
  organizationIds: readonly string[],
): Promise<(Contact & { organization_id: string })[]> {
  if (!organizationIds.length) return Promise.resolve([]);
  return tx
    .selectFrom('organization_memberships')
    .innerJoin('users', 'users.id', 'organization_memberships.user_id')
    .select(['organization_memberships.organization_id', 'users.id', 'users.email'])
    .where('organization_memberships.organization_id', 'in', [...organizationIds])
    .where('users.role', '=', 'business')
    .execute();
}

export function adminContacts(tx: Tx): Promise<Contact[]> {
  return tx.selectFrom('users').select(['id', 'email']).where('role', '=', 'admin').execute();
}

/** A tester's email and linked chat, if any (the tester must exist). */
export function testerContact(
  tx: Tx,
  testerId: string,
): Promise<{ email: string; messaging_chat_id: string | null }> {
  return tx
    .selectFrom('users')
    .leftJoin('tester_profiles', 'tester_profiles.user_id', 'users.id')
    .select(['users.email', 'tester_profiles.messaging_chat_id'])
    .where('users.id', '=', testerId)
    .executeTakeFirstOrThrow();
}

/** Where a message to a tester goes: their linked chat, else their email (only mail has a subject). */
export function testerDestination(
  chatId: string | null,
  email: string,
  subject: string,
): { channel: Channel; recipient: string; subject?: string } {
  return chatId
    ? { channel: 'messaging', recipient: chatId }
    : { channel: 'email', recipient: email, subject };
}
