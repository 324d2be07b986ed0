import { sql } from 'kysely';
import type { Tx } from '../doors.ts';
import type { PointSignal } from '../../lib/domain.ts';

// Gamification's records (0009, 0034): the point ledger, awarded badges and each session's
// evaluation as first answered. Written through the system door.

/** The session as evaluation reads it: its tester, status, timing and the organization's rating. */
export function sessionForEvaluation(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('sessions as s')
    .innerJoin('studies as st', 'st.id', 's.study_id')
    .select([
      's.id',
      's.tester_id',
      's.status',
      's.started_at',
      's.completed_at',
      's.due_at',
      's.duration_seconds',
      's.business_rating',
      'st.max_duration_minutes',
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
}

/** Locks the tester's account row: one evaluation at a time per tester keeps the totals exact. */
export async function lockTesterAccount(tx: Tx, testerId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('users')
    .select('id')
    .where('id', '=', testerId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The answer of the session's evaluation as first given, if it was evaluated. */
export async function storedEvaluation(tx: Tx, sessionId: string): Promise<string | undefined> {
  const row = await tx
    .selectFrom('gamification_evaluations')
    .select('result')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row?.result;
}

/**
 * The statuses of the tester's finished sessions (confirmed or cancelled) that started before
 * `before`, newest first: what the streak counts back through.
 */
export async function finishedSessionStatusesBefore(
  tx: Tx,
  testerId: string,
  before: Date,
): Promise<string[]> {
  const rows = await tx
    .selectFrom('sessions')
    .select('status')
    .where('tester_id', '=', testerId)
    .where('started_at', '<', before)
    .where('status', 'in', ['confirmed', 'cancelled'])
    .orderBy('started_at', 'desc')
    .limit(100)
    .execute();
  return rows.map((row) => row.status);
}

export async function totalPoints(tx: Tx, testerId: string): Promise<number> {
  const { rows } = await sql<{ total: number }>`
    select coalesce(sum(points), 0)::int as total from point_ledger where tester_id = ${testerId}
  `.execute(tx);
  return rows[0]?.total ?? 0;
}

export interface CatalogueBadge {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly description: string;
  readonly iconUrl: string;
  readonly thresholdPoints: number;
}

export function badgeByCode(tx: Tx, code: string) {
  return tx.selectFrom('badges').select(['code', 'name']).where('code', '=', code).executeTakeFirst();
}

export async function badgeCatalogue(tx: Tx): Promise<CatalogueBadge[]> {
  const rows = await tx.selectFrom('badges').selectAll().orderBy('threshold_points').execute();
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    iconUrl: row.icon_url,
    thresholdPoints: row.threshold_points,
  }));
}

export async function heldBadgeIds(tx: Tx, testerId: string): Promise<Set<string>> {
  const rows = await tx
    .selectFrom('awarded_badges')
    .select('badge_id')
    .where('tester_id', '=', testerId)
    .execute();
  return new Set(rows.map((row) => row.badge_id));
}

/** The tester's badges with when each was awarded, in the order they came. */
export function awardedBadgesOf(tx: Tx, testerId: string) {
  return tx
    .selectFrom('awarded_badges as a')
    .innerJoin('badges as b', 'b.id', 'a.badge_id')
    .select(['b.code', 'b.name', 'b.description', 'b.icon_url', 'a.awarded_at'])
    .where('a.tester_id', '=', testerId)
    .orderBy('a.awarded_at')
    .orderBy('b.threshold_points')
    .execute();
}

export async function recordEvaluation(
  tx: Tx,
  evaluation: {
    readonly sessionId: string;
    readonly testerId: string;
    readonly ledger: readonly { readonly signal: PointSignal; readonly points: number }[];
    readonly badgeIds: readonly string[];
    readonly pointsAwarded: number;
    readonly result: string;
    readonly at: Date;
  },
): Promise<void> {
  const paid = evaluation.ledger.filter((entry) => entry.points > 0);
  if (paid.length) {
    await tx
      .insertInto('point_ledger')
      .values(
        paid.map((entry) => ({
          tester_id: evaluation.testerId,
          session_id: evaluation.sessionId,
          signal: entry.signal,
          points: entry.points,
          created_at: evaluation.at,
        })),
      )
      .execute();
  }
  if (evaluation.badgeIds.length) {
    await tx
      .insertInto('awarded_badges')
      .values(
        evaluation.badgeIds.map((badgeId) => ({
          tester_id: evaluation.testerId,
          badge_id: badgeId,
          session_id: evaluation.sessionId,
          awarded_at: evaluation.at,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  await tx
    .insertInto('gamification_evaluations')
    .values({
      session_id: evaluation.sessionId,
      tester_id: evaluation.testerId,
      points_awarded: evaluation.pointsAwarded,
      result: evaluation.result,
      evaluated_at: evaluation.at,
    })
    .execute();
}
