import type { Db } from '../../db/connection.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import {
  eligibleTesters,
  insertProposals,
  lockStudyForMatching,
  placesHeldByCountry,
  placesTaken,
  type CandidateRow,
} from '../../db/repositories/matching.ts';
import {
  capacityReviewsOf,
  createCapacityReviews,
  type NewCapacityReview,
} from '../../db/repositories/capacity-reviews.ts';
import { liveSessionCount } from '../../db/repositories/sessions.ts';
import { findStudy } from '../../db/repositories/studies.ts';
import { pickAcrossSegments, planSegments } from './segment-plan.ts';
import { rankCandidates, soughtNeeds, type MatchCandidate, type RankedCandidate } from './rank-candidates.ts';

/** Proposals made beyond the tester count, for the testers who will decline or not answer. */
export const OVERBOOKING = 0.25;

export interface MatchingOutcome {
  /** Places the study wants filled: its tester count plus the over-booking margin. */
  readonly wanted: number;
  /** Testers holding a place before this run (live sessions, pending or accepted proposals). */
  readonly taken: number;
  readonly eligible: number;
  readonly proposed: number;
  /** The study's capacity reviews waiting for an admin's decision after this run. */
  readonly pendingReviews: number;
}

export const placesWanted = (testerCount: number): number => Math.ceil(testerCount * (1 + OVERBOOKING));

const toCandidate = (row: CandidateRow): MatchCandidate => ({
  testerId: row.tester_id,
  devices: row.devices,
  languages: row.languages,
  accessNeeds: row.access_needs,
  assistiveTechnologies: row.assistive_technologies,
  completedSessions: row.completed_sessions,
  meanRating: row.mean_rating === null ? null : Number(row.mean_rating),
  lastActiveAt: row.last_active_at,
});

export interface RankedForStudy {
  readonly study: { readonly id: string; readonly organizationId: string };
  readonly ranked: RankedCandidate[];
  readonly eligible: number;
  readonly taken: number;
  readonly wanted: number;
  /** Short segments without a review yet: the reviews to create. */
  readonly reviews: NewCapacityReview[];
  readonly pendingReviews: number;
}

/**
 * The study's best candidates for its free places, best first, from every eligible tester: each
 * segment (country) gets up to its share of the places (`planSegments`), and the study no more
 * than its places (`placesWanted` less those taken). Undefined when the study is gone.
 */
export async function rankTestersFor(
  tx: Tx,
  studyId: string,
  now: Date,
): Promise<RankedForStudy | undefined> {
  const record = await findStudy(tx, studyId);
  if (!record) return undefined;
  const { study, tasks } = record;
  const taken = await placesTaken(tx, studyId);
  // A study whose sessions already reach its tester count is full: an offer now could only be refused.
  const full = (await liveSessionCount(tx, studyId)) >= study.tester_count;
  const rows = await eligibleTesters(tx, {
    studyId,
    countries: study.target_countries,
    devices: study.target_devices,
    languages: [...new Set(study.target_languages.map((code) => code.split('-')[0]!.toLowerCase()))],
    ageMin: study.target_age_min,
    ageMax: study.target_age_max,
    year: now.getUTCFullYear(),
  });
  const held = await placesHeldByCountry(tx, studyId);
  const byCountry = new Map<string, CandidateRow[]>();
  for (const row of rows) {
    const group = byCountry.get(row.country) ?? [];
    group.push(row);
    byCountry.set(row.country, group);
  }
  const reviews = new Map((await capacityReviewsOf(tx, studyId)).map((row) => [row.segment.country, row]));
  const plans = planSegments(
    study.tester_count,
    study.target_countries.map((country) => {
      const review = reviews.get(country);
      return {
        country,
        eligible: byCountry.get(country)?.length ?? 0,
        held: held.get(country) ?? 0,
        ...(review
          ? {
              review: {
                status: review.status,
                requestedCount: review.requested_count,
                adjustedCount: review.adjusted_count,
              },
            }
          : {}),
      };
    }),
    placesWanted,
  );
  const matchStudy = {
    devices: study.target_devices,
    languages: study.target_languages,
    soughtNeeds: soughtNeeds([
      study.title,
      study.description,
      ...tasks.flatMap((task) => [task.title, task.description, task.success_criteria ?? '']),
    ]),
    abTestEnabled: study.ab_test_enabled,
  };
  const ranked = pickAcrossSegments(
    plans.map((plan) => ({
      plan,
      candidates: rankCandidates(
        (byCountry.get(plan.country) ?? []).map(toCandidate),
        matchStudy,
        plan.open,
        now,
      ),
    })),
    full ? 0 : placesWanted(study.tester_count) - taken,
  );
  const ageRange =
    study.target_age_min !== null && study.target_age_max !== null
      ? { min: study.target_age_min, max: study.target_age_max }
      : null;
  return {
    study: { id: study.id, organizationId: study.organization_id },
    ranked,
    eligible: rows.length,
    taken,
    wanted: placesWanted(study.tester_count),
    // A full study has no shortage left to review.
    reviews: full
      ? []
      : plans.flatMap((plan) =>
          plan.review ? [{ segment: { country: plan.country, ageRange }, ...plan.review }] : [],
        ),
    pendingReviews: [...reviews.values()].filter((review) => review.status === 'pending').length,
  };
}

const NOTHING: MatchingOutcome = { wanted: 0, taken: 0, eligible: 0, proposed: 0, pendingReviews: 0 };

/** Matching: the study workflow's step that turns eligible testers into pending proposals. */
export function createMatchingActivities({ db, now = () => new Date() }: { db: Db; now?: () => Date }) {
  return {
    /**
     * Proposes the best eligible testers until the study's places (tester count plus OVERBOOKING)
     * are held by sessions and pending or accepted proposals; never two proposals for one tester.
     * The study's row is locked, so two runs (a retry, a second signal) never both fill a place; a
     * study that is no longer active gets none.
     */
    async proposeTesters(input: { studyId: string }): Promise<MatchingOutcome> {
      return asSystem(db, async (tx) => {
        // Paused or completed while this run was on its way: no new proposals (the workflow asks
        // again after a resume).
        if ((await lockStudyForMatching(tx, input.studyId)) !== 'active') return NOTHING;
        const at = now();
        const match = await rankTestersFor(tx, input.studyId, at);
        if (!match) return NOTHING;
        const created = await createCapacityReviews(tx, input.studyId, match.reviews, at);
        const proposed = await insertProposals(
          tx,
          match.study,
          match.ranked.map((candidate) => ({
            testerId: candidate.testerId,
            score: candidate.score,
            reasons: candidate.reasons,
          })),
          at,
        );
        return {
          wanted: match.wanted,
          taken: match.taken,
          eligible: match.eligible,
          proposed,
          pendingReviews: match.pendingReviews + created,
        };
      });
    },
  };
}

export type MatchingActivities = ReturnType<typeof createMatchingActivities>;
