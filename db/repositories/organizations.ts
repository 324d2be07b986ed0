import type { Tx } from '../doors.ts';
import type { MemberRole, Plan } from '../../lib/domain.ts';

// Organizations, their plans and their members' roles.

/** A new organization; returns its id. */
export async function insertOrganization(tx: Tx, name: string): Promise<string> {
  const organization = await tx
    .insertInto('organizations')
    .values({ name })
    .returning('id')
    .executeTakeFirstOrThrow();
  return organization.id;
}

export async function insertMembership(
  tx: Tx,
  organizationId: string,
  userId: string,
  role: MemberRole,
): Promise<void> {
  await tx
    .insertInto('organization_memberships')
    .values({ organization_id: organizationId, user_id: userId, member_role: role })
    .execute();
}

/** The user's role in the organization, or undefined when they are not a member. */
export async function memberRoleOf(
  tx: Tx,
  organizationId: string,
  userId: string,
): Promise<MemberRole | undefined> {
  const membership = await tx
    .selectFrom('organization_memberships')
    .select('member_role')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return membership?.member_role;
}

/** The organization's plan, or undefined when the caller cannot see the organization. */
export async function organizationPlan(tx: Tx, organizationId: string): Promise<Plan | undefined> {
  const row = await tx
    .selectFrom('organizations')
    .select('plan')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return row?.plan;
}

/** A study with its organization's plan (review calls are booked for pro studies only). */
export function studyWithPlan(
  tx: Tx,
  studyId: string,
): Promise<{ id: string; organization_id: string; plan: Plan } | undefined> {
  return tx
    .selectFrom('studies')
    .innerJoin('organizations', 'organizations.id', 'studies.organization_id')
    .select(['studies.id', 'studies.organization_id', 'organizations.plan'])
    .where('studies.id', '=', studyId)
    .executeTakeFirst();
}
