import type { CommandContext } from '../context.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import { testerContact, testerDestination } from '../../db/repositories/contacts.ts';
import {
  badgeCatalogue,
  finishedSessionStatusesBefore,
  heldBadgeIds,
  lockTesterAccount,
  recordEvaluation,
  sessionForEvaluation,
  storedEvaluation,
  totalPoints,
} from '../../db/repositories/gamification.ts';
import {
  notificationIdByDedupeKey,
  queueNotificationOnce,
} from '../../db/repositories/notification-outbox.ts';

const levelUpKey = (sessionId: string) => `level-up:${sessionId}`;
import {
  badgesDue,
  levelOf,
  nextLevelThreshold,
  pointsBreakdown,
  pointsOf,
  streakOf,
  type SessionSignals,
} from '../../lib/gamification.ts';

/** What an evaluation is asked with: the spec's request, `businessRating` null when nobody rated. */
export interface EvaluationRequest {
  readonly sessionId: string;
  readonly testerId: string;
  readonly signals: {
    readonly sessionCompleted: boolean;
    readonly businessRating: number | null;
    readonly thinkAloudScore?: number | undefined;
    readonly completedOnTime?: boolean | undefined;
    readonly previousStreakCount?: number | undefined;
  };
}

/** Why an evaluation was refused, as the API answers it. */
export class EvaluationRefused extends Error {
  constructor(
    readonly kind: 'not_found' | 'invalid' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}
const notFound = (what: string) => new EvaluationRefused('not_found', `${what} not found`);
const invalid = (message: string) => new EvaluationRefused('invalid', message);
const conflict = (message: string) => new EvaluationRefused('conflict', message);

type EvaluatedSession = NonNullable<Awaited<ReturnType<typeof sessionForEvaluation>>>;

/** On time: completed by the offer's due time, or (without one) within the study's time limit. */
function completedOnTime(session: EvaluatedSession): boolean {
  if (!session.completed_at) return false;
  if (session.due_at) return session.completed_at <= session.due_at;
  return (session.duration_seconds ?? Infinity) <= session.max_duration_minutes * 60;
}

/** Where each signal an evaluation counted came from (the answer's `signalSources`). */
export type SignalSource = 'records' | 'caller' | 'none';
type SignalSources = Record<keyof SessionSignals, SignalSource>;

/**
 * The session's signals: the records where the service knows them, whatever the caller says (the
 * records win; the answer says which came from where), the caller's otherwise.
 */
async function signalsOf(
  tx: Tx,
  session: EvaluatedSession,
  input: EvaluationRequest,
): Promise<{ signals: SessionSignals; sources: SignalSources }> {
  const given = input.signals;
  const rated = session.business_rating !== null;
  const streak = streakOf(await finishedSessionStatusesBefore(tx, session.tester_id, session.started_at));
  return {
    signals: {
      // Only a confirmed session is evaluated: it was completed.
      sessionCompleted: true,
      businessRating: session.business_rating ?? given.businessRating,
      thinkAloudScore: given.thinkAloudScore ?? null,
      completedOnTime: completedOnTime(session),
      previousStreakCount: streak,
    },
    sources: {
      sessionCompleted: 'records',
      businessRating: rated ? 'records' : given.businessRating === null ? 'none' : 'caller',
      thinkAloudScore: given.thinkAloudScore === undefined ? 'none' : 'caller',
      completedOnTime: 'records',
      previousStreakCount: 'records',
    },
  };
}

/**
 * Evaluates one confirmed session once (spec: POST /api/gamification/evaluate). A repeat, also a
 * concurrent one (the tester's account row is locked), returns the first answer unchanged. Points
 * go to the ledger per signal; badges whose cumulative threshold the new total has reached are
 * awarded (those not held yet); a level-up queues the tester's notification (its id for the caller to deliver).
 */
export async function evaluateSession(
  // The badge icons' origin: the service's own address (an activity has no configuration, only it).
  deps: Pick<CommandContext, 'db' | 'now'> & { readonly baseUrl: string },
  input: EvaluationRequest,
): Promise<{ result: string; levelUpNotification: string | null }> {
  return asSystem(deps.db, async (tx) => {
    if (!(await lockTesterAccount(tx, input.testerId))) throw notFound('Tester');
    const earlier = await storedEvaluation(tx, input.sessionId);
    const session = await sessionForEvaluation(tx, input.sessionId);
    if (!session) throw notFound('Session');
    if (session.tester_id !== input.testerId) throw invalid("testerId: Not the session's tester");
    // A repeat answers as the first did, and hands its level-up message over again: a caller that
    // failed to deliver it (a retried activity, a lost start) delivers it now; delivery is once.
    if (earlier) {
      return {
        result: earlier,
        levelUpNotification: (await notificationIdByDedupeKey(tx, levelUpKey(session.id))) ?? null,
      };
    }
    if (session.status !== 'confirmed') {
      throw conflict(`Session must be confirmed to evaluate (it is ${session.status})`);
    }
    const at = deps.now();
    const { signals, sources } = await signalsOf(tx, session, input);
    const breakdown = pointsBreakdown(signals);
    const pointsAwarded = pointsOf(breakdown);
    const before = await totalPoints(tx, session.tester_id);
    const after = before + pointsAwarded;
    const badges = badgesDue(await badgeCatalogue(tx), after, await heldBadgeIds(tx, session.tester_id));
    const previousLevel = levelOf(before);
    const currentLevel = levelOf(after);
    const result = JSON.stringify({
      testerId: session.tester_id,
      sessionId: session.id,
      pointsAwarded,
      pointsBreakdown: breakdown,
      newTotalPoints: after,
      previousLevel,
      currentLevel,
      leveledUp: currentLevel > previousLevel,
      badgesAwarded: badges.map((badge) => ({
        badgeId: badge.code,
        name: badge.name,
        description: badge.description,
        iconUrl: `${deps.baseUrl}${badge.iconUrl}`,
        awardedAt: at.toISOString(),
      })),
      nextLevelThreshold: nextLevelThreshold(after),
      pointsToNextLevel: nextLevelThreshold(after) - after,
      signalSources: sources,
    });
    await recordEvaluation(tx, {
      sessionId: session.id,
      testerId: session.tester_id,
      ledger: [
        { signal: 'session_completed', points: breakdown.sessionCompleted },
        { signal: 'business_rating', points: breakdown.businessRating },
        { signal: 'think_aloud', points: breakdown.thinkAloudScore },
        { signal: 'on_time', points: breakdown.completedOnTime },
        { signal: 'streak_bonus', points: breakdown.streakBonus },
      ],
      badgeIds: badges.map((badge) => badge.id),
      pointsAwarded,
      result,
      at,
    });
    const levelUpNotification =
      currentLevel > previousLevel ? await queueLevelUp(tx, session, currentLevel, after, at) : null;
    return { result, levelUpNotification };
  });
}

/** Spec: a level-up notifies the tester (their chat, else email), once per evaluation. */
async function queueLevelUp(tx: Tx, session: EvaluatedSession, level: number, points: number, at: Date) {
  const contact = await testerContact(tx, session.tester_id);
  return queueNotificationOnce(
    tx,
    {
      ...testerDestination(contact.messaging_chat_id, contact.email, `You reached level ${level}`),
      userId: session.tester_id,
      kind: 'level_up',
      body: `Congratulations: with ${points} points you reached level ${level}. Thank you for testing!`,
      dedupeKey: levelUpKey(session.id),
      payload: { sessionId: session.id, level },
    },
    at,
  );
}
