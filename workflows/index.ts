// The worker bundles this file: every workflow the service runs is exported here.
export { studyWorkflow } from './study.ts';
export { fullAuditWorkflow, instantAuditWorkflow } from './audit.ts';
