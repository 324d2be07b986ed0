// The worker bundles this file: every workflow the service runs is exported here.
export { studyWorkflow } from './study.ts';
export { sessionWorkflow } from './session.ts';
export { fullAuditWorkflow, instantAuditWorkflow } from './audit.ts';
