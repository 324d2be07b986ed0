// The finding-screenshots workflow's id and input (workflows/finding-screenshots.ts). Dependency-free.

export const findingScreenshotsWorkflowId = (sessionId: string): string => `finding-screenshots:${sessionId}`;

export interface FindingScreenshotsWorkflowInput {
  readonly sessionId: string;
  /** The audit task queue: the pictures are made where the browser is (AUDIT_TASK_QUEUE). */
  readonly captureQueue: string;
  /** How long a browser may take to make them before each finding says none did; default 3 hours. */
  readonly captureWithinMs?: number;
}
