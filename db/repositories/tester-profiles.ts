import type { Tx } from '../doors.ts';
import type { AccessNeed, AssistiveTechnology, Device, TesterStatus } from '../../lib/domain.ts';
import { existingUserId } from './users.ts';

// Testers' profiles as the messaging channel uses them: the chat linked to each tester (0027).

export async function hasTesterProfile(tx: Tx, userId: string): Promise<boolean> {
  const profile = await tx
    .selectFrom('tester_profiles')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return profile !== undefined;
}

/** The chat linked to the tester, or null (no chat, or no profile). */
export async function messagingChatOf(tx: Tx, testerId: string): Promise<string | null> {
  const profile = await tx
    .selectFrom('tester_profiles')
    .select('messaging_chat_id')
    .where('user_id', '=', testerId)
    .executeTakeFirst();
  return profile?.messaging_chat_id ?? null;
}

/** Makes `chatId` the tester's chat. A chat belongs to one tester: any other tester's link to it ends. */
export async function linkChatToTester(tx: Tx, userId: string, chatId: string, at: Date): Promise<void> {
  await tx
    .updateTable('tester_profiles')
    .set({ messaging_chat_id: null, updated_at: at })
    .where('messaging_chat_id', '=', chatId)
    .where('user_id', '<>', userId)
    .execute();
  await tx
    .updateTable('tester_profiles')
    .set({ messaging_chat_id: chatId, updated_at: at })
    .where('user_id', '=', userId)
    .execute();
}

/** A new tester account's profile: pending and empty until the tester fills it in (0031). */
export async function insertEmptyTesterProfile(tx: Tx, userId: string): Promise<void> {
  await tx
    .insertInto('tester_profiles')
    .values({ user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The profile with its account's email and name, as its tester (or an admin) reads it. */
export function testerProfileView(tx: Tx, userId: string) {
  return tx
    .selectFrom('tester_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select(['u.email', 'u.display_name'])
    .where('p.user_id', '=', userId)
    .executeTakeFirst();
}

export type TesterProfileView = NonNullable<Awaited<ReturnType<typeof testerProfileView>>>;

export interface TesterProfileChange {
  readonly country?: string | undefined;
  readonly birth_year?: number | null | undefined;
  readonly devices?: Device[] | undefined;
  readonly languages?: string[] | undefined;
  readonly assistive_technologies?: AssistiveTechnology[] | undefined;
  readonly access_needs?: AccessNeed[] | undefined;
}

/** The tester's own fields (never status or quiz result: the table's guard refuses those to testers). */
export async function updateTesterProfile(
  tx: Tx,
  userId: string,
  change: TesterProfileChange,
  at: Date,
): Promise<boolean> {
  const defined = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  const rows = await tx
    .updateTable('tester_profiles')
    .set({ ...defined, updated_at: at })
    .where('user_id', '=', userId)
    .returning('user_id')
    .execute();
  return rows.length > 0;
}

/** The profile locked for a quiz attempt: one attempt at a time per tester. */
export function lockTesterProfile(tx: Tx, userId: string) {
  return tx
    .selectFrom('tester_profiles')
    .selectAll()
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Records an attempt's result on the profile (through the system door: testers may not). A pass
 * makes a pending profile active; a suspended one stays suspended.
 */
export async function recordQuizResult(
  tx: Tx,
  userId: string,
  result: { readonly quizId: string; readonly score: number; readonly passed: boolean; readonly at: Date },
): Promise<void> {
  await tx
    .updateTable('tester_profiles')
    .set((eb) => ({
      quiz_id: result.quizId,
      quiz_score: result.score,
      quiz_passed: result.passed,
      quiz_completed_at: result.at,
      status: result.passed
        ? eb
            .case()
            .when('status', '=', 'pending')
            .then('active' as TesterStatus)
            .else(eb.ref('status'))
            .end()
        : eb.ref('status'),
      updated_at: result.at,
    }))
    .where('user_id', '=', userId)
    .execute();
}

/** A tester's profile status beside their account's, locked for an admin's change. */
export function lockTesterStanding(tx: Tx, testerId: string) {
  return tx
    .selectFrom('tester_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.user_id', 'p.status', 'p.country', 'p.devices', 'u.status as account_status'])
    .where('p.user_id', '=', testerId)
    .where('u.role', '=', 'tester')
    .forUpdate()
    .executeTakeFirst();
}

/** An admin qualifies a pending tester (as a passed quiz does). */
export async function approveTester(tx: Tx, testerId: string, approvedBy: string, at: Date): Promise<void> {
  await tx
    .updateTable('tester_profiles')
    .set({ status: 'active', approved_by: existingUserId(approvedBy), approved_at: at, updated_at: at })
    .where('user_id', '=', testerId)
    .execute();
}

/**
 * Suspends or reinstates the tester's account; 0015's triggers carry it to the profile (and 0027's
 * ends the logins of a suspended account). Answers the profile's status after it.
 */
export async function setTesterAccountStatus(
  tx: Tx,
  testerId: string,
  status: 'active' | 'suspended',
): Promise<TesterStatus> {
  await tx.updateTable('users').set({ status }).where('id', '=', testerId).execute();
  const profile = await tx
    .selectFrom('tester_profiles')
    .select('status')
    .where('user_id', '=', testerId)
    .executeTakeFirstOrThrow();
  return profile.status;
}

export async function recordTesterStatusChange(
  tx: Tx,
  change: {
    readonly testerId: string;
    readonly from: TesterStatus;
    readonly to: TesterStatus;
    readonly reason: string;
    readonly changedBy: string;
    readonly at: Date;
  },
): Promise<void> {
  await tx
    .insertInto('tester_status_changes')
    .values({
      tester_id: change.testerId,
      from_status: change.from,
      to_status: change.to,
      reason: change.reason,
      changed_by: existingUserId(change.changedBy),
      changed_at: change.at,
    })
    .execute();
}

/** The tester's sessions still under way (active or paused): a suspension cancels them. */
export function liveSessionsOf(tx: Tx, testerId: string): Promise<{ id: string }[]> {
  return tx
    .selectFrom('sessions')
    .select('id')
    .where('tester_id', '=', testerId)
    .where('status', 'in', ['active', 'paused'])
    .execute();
}

/** The tester's offers still running: open ones, and accepted ones whose reminders go on. */
export function runningOffersOf(tx: Tx, testerId: string): Promise<{ id: string }[]> {
  return tx
    .selectFrom('outreach_messages')
    .select('id')
    .where('tester_id', '=', testerId)
    .where('offer_status', 'in', ['open', 'accepted'])
    .execute();
}
