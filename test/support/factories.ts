import { randomUUID } from 'node:crypto';
import { asSystem, type Claims } from '../../db/doors.ts';
import type { Plan } from '../../lib/domain.ts';
import { testDatabase } from './database.ts';

export interface BusinessFixture {
  readonly organizationId: string;
  readonly userId: string;
  readonly claims: Claims;
}

/** An organization on the given plan with one business user who owns it. */
export async function createBusiness(plan: Plan = 'free'): Promise<BusinessFixture> {
  return asSystem(testDatabase(), async (tx) => {
    const organization = await tx
      .insertInto('organizations')
      .values({ name: `Org ${randomUUID().slice(0, 8)}`, plan })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await tx
      .insertInto('users')
      .values({ email: `owner-${randomUUID()}@example.com`, role: 'business', display_name: 'Owner' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('organization_memberships')
      .values({ organization_id: organization.id, user_id: user.id, member_role: 'owner' })
      .execute();
    return {
      organizationId: organization.id,
      userId: user.id,
      claims: { sub: user.id, role: 'business', organization_id: organization.id },
    };
  });
}

/**
 * `count` business users who join an existing organization: its records, each with a rate-limit
 * budget of their own. Their claims, in the order made.
 */
export async function createMembers(
  organizationId: string,
  count: number,
  memberRole: 'owner' | 'member' = 'member',
): Promise<Claims[]> {
  return asSystem(testDatabase(), async (tx) => {
    const users = await tx
      .insertInto('users')
      .values(
        Array.from({ length: count }, () => ({
          email: `member-${randomUUID()}@example.com`,
          role: 'business' as const,
          display_name: 'Member',
        })),
      )
      .returning('id')
      .execute();
    await tx
      .insertInto('organization_memberships')
      .values(
        users.map((user) => ({ organization_id: organizationId, user_id: user.id, member_role: memberRole })),
      )
      .execute();
    return users.map((user) => ({
      sub: user.id,
      role: 'business' as const,
      organization_id: organizationId,
    }));
  });
}

/** An admin account (a row, so what an admin does can name them). */
export async function createAdmin(): Promise<Claims> {
  const user = await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('users')
      .values({ email: `admin-${randomUUID()}@example.com`, role: 'admin', display_name: 'Admin' })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return { sub: user.id, role: 'admin', organization_id: null };
}

export async function createTester(): Promise<Claims> {
  const user = await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('users')
      .values({ email: `tester-${randomUUID()}@example.com`, role: 'tester', display_name: 'Tester' })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return { sub: user.id, role: 'tester', organization_id: null };
}

/** How many studies the organizations hold, read as the database's owner. */
export const studiesOf = async (organizationIds: readonly string[]): Promise<number> =>
  Number(
    (
      await testDatabase()
        .selectFrom('studies')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('organization_id', 'in', organizationIds)
        .executeTakeFirstOrThrow()
    ).count,
  );
