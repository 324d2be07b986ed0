import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  closePendingReviews,
  takeUntoldRejections,
  type CapacityReviewRow,
} from '../../db/repositories/capacity-reviews.ts';
import { findStudy } from '../../db/repositories/studies.ts';
import { queueForStudyContacts } from '../notify/queue-for-people.ts';

const segmentName = ({ segment }: CapacityReviewRow) =>
  segment.ageRange
    ? `${segment.country}, ages ${segment.ageRange.min} to ${segment.ageRange.max}`
    : segment.country;

/**
 * The business's side of a capacity review (spec: rejected stops matching for the segment and
 * tells the business by email). Each rejection is queued once, when the study's workflow next
 * looks (the admin's decision signals it; its matching recheck catches a lost signal).
 */
export function createCapacityNoticeActivities({ db, now = () => new Date() }: { db: Db; now?: () => Date }) {
  return {
    /** The study stopped recruiting: its reviews still pending are closed (no one is told). */
    async closePendingCapacityReviews({ studyId }: { studyId: string }): Promise<number> {
      return asSystem(db, (tx) => closePendingReviews(tx, studyId, now()));
    },

    /** Queues the study's untold rejections to its contacts; the ids for the workflow to deliver. */
    async noticeCapacityRejections({ studyId }: { studyId: string }): Promise<string[]> {
      return asSystem(db, async (tx) => {
        const at = now();
        const rejections = await takeUntoldRejections(tx, studyId, at);
        const study = rejections.length ? await findStudy(tx, studyId) : undefined;
        if (!study) return [];
        const ids: string[] = [];
        for (const review of rejections) {
          ids.push(
            ...(await queueForStudyContacts(
              tx,
              studyId,
              {
                kind: 'capacity_rejected',
                dedupeKey: `capacity-rejected:${review.id}`,
                subject: `No more testers in ${review.segment.country} for "${study.study.title}"`,
                body: [
                  `Your study "${study.study.title}" asked for ${review.requested_count} testers in ${segmentName(review)}, where ${review.available_count} are available.`,
                  'After review, we will not recruit further there: testers already matched stay on the study,',
                  "and the places left over go to the study's other countries, if it has any.",
                ].join('\n'),
                payload: { studyId, reviewId: review.id },
              },
              at,
            )),
          );
        }
        return ids;
      });
    },
  };
}

export type CapacityNoticeActivities = ReturnType<typeof createCapacityNoticeActivities>;
