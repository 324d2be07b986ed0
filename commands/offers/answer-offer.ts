import { WorkflowNotFoundError } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { findOffer } from '../../db/repositories/offers.ts';
import { closedOfferOutcome, type OfferAnswer } from '../../lib/offers.ts';
import { answerOfferUpdate, offerWorkflowId, type OfferAnswerReply } from '../../workflows/messages/offer.ts';
import type { CommandContext } from '../context.ts';

/** The offer's recorded end, or undefined when there is no such offer. */
async function recordedStatus(db: Db, outreachId: string): Promise<{ status: string | null } | undefined> {
  const offer = await asSystem(db, (tx) => findOffer(tx, outreachId));
  return offer && { status: offer.offer_status };
}

/**
 * The tester's answer to an offer (its outreach message's id), by whichever means it came: the
 * offer's workflow takes it while the offer is open; an offer answered, expired or withdrawn
 * answers from its record and changes nothing. Undefined when there is no such offer.
 */
export async function answerOffer(
  deps: CommandContext,
  outreachId: string,
  answer: OfferAnswer,
): Promise<OfferAnswerReply | undefined> {
  const before = await recordedStatus(deps.db, outreachId);
  if (!before) return undefined;
  if (before.status !== 'open') return { outcome: closedOfferOutcome(before.status) };
  try {
    return await deps.temporal.workflow
      .getHandle(offerWorkflowId(outreachId))
      .executeUpdate(answerOfferUpdate, { args: [answer] });
  } catch (error) {
    // The offer's workflow ended meanwhile (expired, withdrawn): its record says what became of it.
    const after = await recordedStatus(deps.db, outreachId);
    if (after && after.status !== 'open' && after.status !== null)
      return { outcome: closedOfferOutcome(after.status) };
    // Gone while its record still says open (terminated by hand): nothing can take the answer.
    if (error instanceof WorkflowNotFoundError) {
      deps.logger.warn({ outreachId }, 'an answer reached an open offer whose workflow is gone');
      return { outcome: 'closed' };
    }
    throw error;
  }
}
