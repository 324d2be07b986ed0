import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type {
  createFindingScreenshotActivities,
  FindingScreenshotsOutput,
} from '../activities/recordings/finding-screenshots.ts';
import type { ScreenshotRecordActivities } from '../activities/recordings/screenshot-records.ts';
import type { FindingScreenshotsWorkflowInput } from './messages/finding-screenshots.ts';

type CaptureActivities = ReturnType<typeof createFindingScreenshotActivities>;

const CAPTURE_WITHIN_MS = 3 * 60 * 60 * 1000;

const records = proxyActivities<ScreenshotRecordActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * Pictures of a tester report's findings (`finding-screenshots:<sessionId>`), started when a report
 * is asked for with `includeScreenshots`. The workflow runs with the service's; the pictures are
 * made on the audit task queue, where the browser is. When no browser has made them within a few
 * hours (no audit worker, or one that keeps failing), each finding says so rather than waiting.
 */
export async function findingScreenshotsWorkflow(
  input: FindingScreenshotsWorkflowInput,
): Promise<FindingScreenshotsOutput & { readonly unpictured: number }> {
  const capture = proxyActivities<CaptureActivities>({
    taskQueue: input.captureQueue,
    scheduleToCloseTimeout: input.captureWithinMs ?? CAPTURE_WITHIN_MS,
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: '2 minutes',
    // Until the report exists (ReportNotReady), and through a browser's crash, within the time given.
    retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
  });
  try {
    return { ...(await capture.captureFindingScreenshots({ sessionId: input.sessionId })), unpictured: 0 };
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    const unpictured = await records.recordScreenshotsMissing({ sessionId: input.sessionId });
    return { replayed: 0, reconstructed: 0, missing: 0, unpictured };
  }
}
