// The workflow bundle of the study-scale benchmark (test/bench/study-scale.ts): the service's own
// study workflow and the children it may start, with the offer replaced by a stand-in that keeps
// each tester's part minimal. The stand-in does what reaches the study in production, through the
// same activities and messages: the offer goes out (`sendOffer`), the tester answers
// (`answerOffer`: an acceptance opens the session), the session's life is one transaction
// (`completeBenchSession`: completed, analysed and confirmed by its tester), and the session's
// signals go to the study through `signalStudy` (signal-with-start, as the session workflow sends
// them). A declined or refused offer tells the study `offerClosed`, as the real offer does.
import { getExternalWorkflowHandle, log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { OfferActivities } from '../../../activities/outreach/offer-activities.ts';
import type { StudyActivities } from '../../../activities/studies/study-activities.ts';
import { OFFER_WINDOW_MS } from '../../../lib/offers.ts';
import type { OfferWorkflowInput } from '../../../workflows/messages/offer.ts';
import { offerClosedSignal } from '../../../workflows/messages/recruitment.ts';
import type { BenchSessionActivities } from './activities.ts';

export { studyWorkflow } from '../../../workflows/study.ts';
export { notificationWorkflow } from '../../../workflows/notification.ts';
export { payoutWorkflow } from '../../../workflows/payout.ts';
export { agent4Workflow } from '../../../workflows/agents.ts';

const { sendOffer, answerOffer, signalStudy, completeBenchSession } = proxyActivities<
  OfferActivities & StudyActivities & BenchSessionActivities
>({
  startToCloseTimeout: '1 minute',
  retry: { maximumInterval: '10 seconds' },
});

/** One tester in twenty declines (by the message's id, so the same offer always answers alike). */
export const declines = (outreachId: string): boolean =>
  Number.parseInt(outreachId.slice(0, 8), 16) % 20 === 0;

export async function offerWorkflow({ outreachId, studyId }: OfferWorkflowInput): Promise<string> {
  const sentAt = new Date();
  const expiresAt = new Date(sentAt.getTime() + OFFER_WINDOW_MS).toISOString();
  const sent = await sendOffer({ outreachId, sentAt: sentAt.toISOString(), expiresAt });
  const { outcome, session } = sent.sent
    ? await answerOffer({
        outreachId,
        answer: declines(outreachId) ? 'decline' : 'accept',
        at: new Date().toISOString(),
      })
    : { outcome: 'withdrawn', session: undefined };
  if (session) {
    const { sessionId } = session;
    await completeBenchSession({ sessionId });
    await signalStudy({ studyId, signal: 'sessionConfirmed', sessionId });
    await signalStudy({ studyId, signal: 'sessionReported', sessionId });
    return outcome;
  }
  try {
    await getExternalWorkflowHandle(workflowInfo().parent!.workflowId).signal(offerClosedSignal, outreachId);
  } catch (error) {
    log.info('The study no longer takes the offer closing', { outreachId, error: String(error) });
  }
  return outcome;
}
