import { asUser, type Tx } from '../../db/doors.ts';
import { awardedBadgesOf, totalPoints } from '../../db/repositories/gamification.ts';
import { latestQuizAttempt } from '../../db/repositories/quizzes.ts';
import {
  testerProfileView,
  updateTesterProfile,
  type TesterProfileView,
} from '../../db/repositories/tester-profiles.ts';
import { levelOf } from '../../lib/gamification.ts';
import { QUIZ_RETRY_COOLDOWN_MS } from '../../lib/quiz-scoring.ts';
import type { Principal } from '../principal.ts';
import { notFound } from '../../lib/errors.ts';
import type { TesterProfileInput } from './tester.schema.ts';
import type { CommandContext } from '../context.ts';

type LatestAttempt = Awaited<ReturnType<typeof latestQuizAttempt>>;

/** When a failed attempt's cool-down ends, or null when an attempt is allowed (or not needed). */
export function nextQuizAttemptAt(
  profile: { quiz_passed: boolean | null },
  latest: LatestAttempt,
  now: Date,
) {
  if (profile.quiz_passed || !latest || latest.passed) return null;
  const next = new Date(latest.created_at.getTime() + QUIZ_RETRY_COOLDOWN_MS);
  return next > now ? next : null;
}

interface Standing {
  readonly points: number;
  readonly badges: Awaited<ReturnType<typeof awardedBadgesOf>>;
  readonly baseUrl: string;
}

function toProfile(row: TesterProfileView, latest: LatestAttempt, standing: Standing, now: Date) {
  const next = nextQuizAttemptAt(row, latest, now);
  return {
    testerId: row.user_id,
    email: row.email,
    displayName: row.display_name,
    status: row.status,
    country: row.country,
    birthYear: row.birth_year,
    devices: row.devices,
    languages: row.languages,
    assistiveTechnologies: row.assistive_technologies,
    accessNeeds: row.access_needs,
    quiz:
      row.quiz_score !== null && row.quiz_completed_at && latest
        ? {
            passed: row.quiz_passed ?? false,
            score: row.quiz_score,
            version: latest.quiz_version,
            completedAt: row.quiz_completed_at.toISOString(),
          }
        : null,
    nextQuizAttemptAt: next?.toISOString() ?? null,
    points: standing.points,
    level: levelOf(standing.points),
    badges: standing.badges.map((badge) => ({
      badgeId: badge.code,
      name: badge.name,
      description: badge.description,
      iconUrl: `${standing.baseUrl}${badge.icon_url}`,
      awardedAt: badge.awarded_at.toISOString(),
    })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function readProfile(tx: Tx, testerId: string, baseUrl: string, now: Date) {
  const row = await testerProfileView(tx, testerId);
  if (!row) throw notFound('Tester profile');
  const standing = {
    points: await totalPoints(tx, testerId),
    badges: await awardedBadgesOf(tx, testerId),
    baseUrl,
  };
  return toProfile(row, await latestQuizAttempt(tx, testerId), standing, now);
}

/** The caller's own profile, through the user door (a tester reads only their own). */
/** The tester's own profile as the API answers it. */
export type TesterProfile = Awaited<ReturnType<typeof ownProfile>>;

export function ownProfile(deps: CommandContext, principal: Principal) {
  return asUser(deps.db, principal.claims, (tx) =>
    readProfile(tx, principal.claims.sub, deps.config.http.baseUrl, deps.now()),
  );
}

/** Changes the caller's own fields; status and quiz result are not theirs to change. */
export function editOwnProfile(deps: CommandContext, principal: Principal, input: TesterProfileInput) {
  const now = deps.now();
  return asUser(deps.db, principal.claims, async (tx) => {
    const changed = await updateTesterProfile(
      tx,
      principal.claims.sub,
      {
        country: input.country,
        birth_year: input.birthYear,
        devices: input.devices,
        languages: input.languages,
        assistive_technologies: input.assistiveTechnologies,
        access_needs: input.accessNeeds,
      },
      now,
    );
    if (!changed) throw notFound('Tester profile');
    return readProfile(tx, principal.claims.sub, deps.config.http.baseUrl, now);
  });
}
