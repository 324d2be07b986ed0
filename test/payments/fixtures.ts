import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { asSystem, type Claims } from '../../db/doors.ts';
import { insertStudy } from '../../db/repositories/studies.ts';
import type { Insertable } from 'kysely';
import type { StudiesTable } from '../../db/schema.ts';
import type { Plan } from '../../lib/domain.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester, type BusinessFixture } from '../support/factories.ts';
import { plainStudyColumns, validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';
import type { PaymentsHarness } from './harness.ts';

/** Polls until `check` holds, or fails after the deadline (never a fixed sleep to wait for work). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  deadlineMs = 60_000,
): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) assert.fail(`not reached within ${deadlineMs} ms: ${what}`);
    await sleep(50);
  }
}

export interface Business extends BusinessFixture {
  readonly token: string;
  readonly email: string;
}

export async function business(plan: Plan = 'free'): Promise<Business> {
  const created = await createBusiness(plan);
  const user = await asSystem(testDatabase(), (tx) =>
    tx.selectFrom('users').select('email').where('id', '=', created.userId).executeTakeFirstOrThrow(),
  );
  return { ...created, token: await sessionToken(created.claims), email: user.email };
}

export async function tester(): Promise<Claims & { token: string; email: string }> {
  const claims = await createTester();
  const user = await asSystem(testDatabase(), (tx) =>
    tx.selectFrom('users').select('email').where('id', '=', claims.sub).executeTakeFirstOrThrow(),
  );
  return { ...claims, token: await sessionToken(claims), email: user.email };
}

export async function admin(): Promise<{ id: string; email: string; token: string }> {
  const email = `admin-${randomUUID()}@example.com`;
  const row = await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('users')
      .values({ email, role: 'admin', display_name: 'Admin' })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return {
    id: row.id,
    email,
    token: await sessionToken({ sub: row.id, role: 'admin', organization_id: null }),
  };
}

/** A draft study created through the API (its workflow runs on the harness's queue). */
export async function draftStudy(
  h: PaymentsHarness,
  owner: Business,
  compensation: { currency: string; amount: number } = { currency: 'EUR', amount: 25 },
  testerCount = 4,
): Promise<string> {
  const body = validStudyBody();
  const created = await h.request('POST', '/api/jobs', {
    token: owner.token,
    body: {
      ...body,
      targeting: { ...(body.targeting as object), testerCount },
      compensation: { ...compensation, type: 'flat' },
    },
  });
  assert.equal(created.status, 201, created.text);
  return (created.body.data as { jobId: string }).jobId;
}

export async function studyRow(jobId: string) {
  return asSystem(testDatabase(), (tx) =>
    tx.selectFrom('studies').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow(),
  );
}

/**
 * A payout account of the tester, written directly: verified (as account.updated leaves it once
 * payouts are enabled) or just created (as POST /api/billing/connect leaves it).
 */
export async function addPayoutAccount(testerId: string, accountId: string, { verified = true } = {}) {
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('payout_accounts')
      .values({
        tester_id: testerId,
        provider_account_id: accountId,
        ...(verified
          ? { status: 'verified', charges_enabled: true, payouts_enabled: true, details_submitted: true }
          : {}),
      })
      .execute(),
  );
}

/** A tester whose payout account the provider has verified. */
export async function testerWithAccount(accountId = `acct_test_${randomUUID().slice(0, 8)}`) {
  const person = await tester();
  await addPayoutAccount(person.sub, accountId);
  return { ...person, accountId };
}

export async function payoutAccountOf(testerId: string) {
  return asSystem(testDatabase(), (tx) =>
    tx.selectFrom('payout_accounts').selectAll().where('tester_id', '=', testerId).executeTakeFirstOrThrow(),
  );
}

/** The columns of a draft study of `owner`, for tests that write studies around the API. */
export function studyValues(
  owner: BusinessFixture,
  compensation: { currency: string; amount: string } = { currency: 'EUR', amount: '25.00' },
): Insertable<StudiesTable> {
  return {
    ...plainStudyColumns(),
    organization_id: owner.organizationId,
    created_by: owner.userId,
    title: 'Payments study',
    description: 'Written around the API',
    prototype_url: 'https://shop.example/',
    compensation_currency: compensation.currency,
    compensation_amount: compensation.amount,
  };
}

/**
 * A paid study stored in draft with no workflow yet (its one task: pay), recruiting `testers` in
 * `country`; the caller starts its workflow and signals the payment.
 */
export async function insertPaidDraftStudy(
  owner: BusinessFixture,
  study: { title: string; country: string; testers: number },
  compensation?: { currency: string; amount: string },
): Promise<string> {
  return asSystem(testDatabase(), async (tx) => {
    const row = await insertStudy(
      tx,
      {
        ...studyValues(owner, compensation),
        title: study.title,
        target_countries: [study.country],
        tester_count: study.testers,
        status: 'draft',
        paid_at: new Date(),
      },
      [{ position: 1, title: 'Pay', description: 'Complete the purchase', success_criteria: null }],
      [],
    );
    return row!.id;
  });
}

/**
 * A completed study of `owner` with one confirmed session per tester, written directly (the
 * session life is issue 5's; here only its end state matters). Payments are not yet queued:
 * POST /api/billing/payout queues any that are missing.
 */
export async function completedStudy(
  owner: Business,
  testers: readonly { sub: string }[],
  compensation: { currency: string; amount: string } = { currency: 'EUR', amount: '25.00' },
  /** `active`: every session is confirmed but the study workflow has not counted them yet. */
  status: 'completed' | 'active' = 'completed',
): Promise<{ jobId: string; sessionIds: string[] }> {
  return asSystem(testDatabase(), async (tx) => {
    const study = await tx
      .insertInto('studies')
      .values({
        ...studyValues(owner, compensation),
        title: 'Completed payout study',
        description: 'Sessions confirmed, testers to be paid',
        tester_count: testers.length,
        status,
        paid_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sessionIds: string[] = [];
    for (const person of testers) {
      const at = new Date();
      const session = await tx
        .insertInto('sessions')
        .values({
          study_id: study.id,
          organization_id: owner.organizationId,
          tester_id: person.sub,
          status: 'confirmed',
          started_at: new Date(at.getTime() - 3_600_000),
          completed_at: new Date(at.getTime() - 1_800_000),
          confirmed_at: at,
          notes_confirmed: true,
          notes_confirmed_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      sessionIds.push(session.id);
    }
    return { jobId: study.id, sessionIds };
  });
}

export async function paymentsOf(jobId: string) {
  return asSystem(testDatabase(), (tx) =>
    tx.selectFrom('payments').selectAll().where('study_id', '=', jobId).orderBy('queued_at').execute(),
  );
}

export async function providerEvent(provider: 'payments' | 'scheduling', id: string) {
  return asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('provider_events')
      .selectAll()
      .where('provider', '=', provider)
      .where('id', '=', id)
      .executeTakeFirst(),
  );
}

/** An event in the provider's shape, with a fresh id. */
export function event(type: string, object: Record<string, unknown>, account?: string) {
  return {
    id: `evt_test_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    ...(account ? { account } : {}),
    data: { object },
  };
}

/** The provider's account.updated about a connected account, carrying `fields` of the account. */
export function accountUpdated(accountId: string, fields: Record<string, unknown>) {
  return event('account.updated', { id: accountId, object: 'account', ...fields }, accountId);
}

/** A payout event on the connected account; `fields` add to (or replace) the payout's own. */
export function payoutEvent(
  type: 'payout.paid' | 'payout.failed',
  payoutId: string,
  accountId: string,
  fields: Record<string, unknown> = {},
) {
  return event(
    type,
    {
      id: payoutId,
      object: 'payout',
      status: type === 'payout.paid' ? 'paid' : 'failed',
      ...(type === 'payout.failed'
        ? { failure_code: 'account_closed', failure_message: 'The bank account has been closed' }
        : {}),
      ...fields,
    },
    accountId,
  );
}
