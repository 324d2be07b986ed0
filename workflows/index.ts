// The worker bundles this file: every workflow the service runs is exported here.
export { studyWorkflow } from './study.ts';
export { sessionWorkflow } from './session.ts';
export { fullAuditWorkflow, instantAuditWorkflow } from './audit.ts';
export { notificationWorkflow } from './notification.ts';
export { payoutWorkflow } from './payout.ts';
export { paymentEventWorkflow } from './payment-events.ts';
export { billingPeriodWorkflow } from './billing-period.ts';
export { localProviderEventWorkflow } from './local-payment-provider.ts';
export { agent1Workflow, agent4Workflow } from './agents.ts';
export { aiRetryWorkflow } from './ai-retry.ts';
export { lifecycleReconcileWorkflow } from './reconcile.ts';
export { offerWorkflow } from './offer.ts';
export { gamificationWorkflow } from './gamification.ts';
export { communityStatsRefreshWorkflow } from './community-stats.ts';
export { findingScreenshotsWorkflow } from './finding-screenshots.ts';
export { webhookDeliveryWorkflow } from './webhook-delivery.ts';
