import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { webhookDeliveryWorkflowId } from '../workflows/messages/webhook-delivery.ts';
import { webhookDeliveryWorkflow } from '../workflows/webhook-delivery.ts';

/**
 * Starts the workflow of each committed delivery (id `webhook-delivery:<deliveryId>`): a running
 * one is kept and an ended one never runs again, so a repeated start (a retried activity, the
 * reconciler) sends nothing twice.
 */
export async function startWebhookDeliveries(
  client: Client,
  taskQueue: string,
  deliveryIds: readonly string[],
): Promise<void> {
  for (const deliveryId of deliveryIds) {
    try {
      await client.workflow.start(webhookDeliveryWorkflow, {
        workflowId: webhookDeliveryWorkflowId(deliveryId),
        taskQueue,
        args: [{ deliveryId }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
}
