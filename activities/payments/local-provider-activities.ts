import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { Context } from '@temporalio/activity';
import { localProviderEventWorkflow } from '../../workflows/local-payment-provider.ts';
import { localProviderEventWorkflowId } from '../../workflows/messages/local-payment-provider.ts';
import { postProviderEvent, type ProviderEvent } from '../../clients/payments/provider-events.ts';

export interface LocalProviderActivityDependencies {
  /** The webhook route the local provider posts to, and the secret it signs with. */
  readonly webhookUrl: string;
  readonly webhookSecret: string | undefined;
}

/** The local provider's event delivery: the same route, signature and retries as the real one. */
export function createLocalProviderActivities({
  webhookUrl,
  webhookSecret,
}: LocalProviderActivityDependencies) {
  return {
    async deliverLocalProviderEvent({ event }: { event: ProviderEvent }): Promise<void> {
      if (!webhookSecret) throw new Error('No webhook secret to sign local provider events with');
      await postProviderEvent(webhookUrl, webhookSecret, event);
    },
  };
}

export type LocalProviderActivities = ReturnType<typeof createLocalProviderActivities>;

/**
 * The local provider's `emitLater`, for use inside an activity: a workflow per event (its id is
 * the event's, so a retried activity schedules it once) sleeps, then delivers it.
 */
export async function emitFromActivity(event: ProviderEvent, delaySeconds: number): Promise<void> {
  const context = Context.current();
  try {
    await context.client.workflow.start(localProviderEventWorkflow, {
      workflowId: localProviderEventWorkflowId(event.id),
      taskQueue: context.info.taskQueue,
      args: [{ event, delaySeconds }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    // Delivered before: the event exists once.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
