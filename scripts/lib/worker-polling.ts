import { hostname } from 'node:os';
import type { WorkflowService } from '@temporalio/client';

export interface PollingCheck {
  readonly workflowService: WorkflowService;
  readonly namespace: string;
  readonly taskQueues: readonly string[];
  /** How recent a poll must be; workers long-poll for about a minute, so allow some more. */
  readonly maxAgeMs: number;
  readonly now: number;
  /**
   * Whose polls count. The SDK's default worker identity is `<pid>@<hostname>`, so the default,
   * `@<this host name>`, means "a worker in this container", not any worker of the queue.
   */
  readonly identitySuffix?: string;
}

/** The task queues on which no worker of this host polled within `maxAgeMs` (empty: healthy). */
export async function queuesWithoutRecentPoller(check: PollingCheck): Promise<string[]> {
  const suffix = check.identitySuffix ?? `@${hostname()}`;
  const missing: string[] = [];
  for (const name of check.taskQueues) {
    // Kind and type left unset: a normal queue's workflow pollers, which every worker runs.
    const { pollers } = await check.workflowService.describeTaskQueue({
      namespace: check.namespace,
      taskQueue: { name },
    });
    const recent = (pollers ?? []).some(
      (poller) =>
        (poller.identity ?? '').endsWith(suffix) &&
        check.now - millisecondsOf(poller.lastAccessTime) <= check.maxAgeMs,
    );
    if (!recent) missing.push(name);
  }
  return missing;
}

/** A protobuf Timestamp in milliseconds; its seconds arrive as a Long. */
function millisecondsOf(timestamp: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  if (!timestamp) return 0;
  const { seconds } = timestamp;
  const whole =
    typeof seconds === 'object' && seconds !== null && 'toNumber' in seconds
      ? (seconds as { toNumber(): number }).toNumber()
      : Number(seconds ?? 0);
  return whole * 1000 + Math.floor((timestamp.nanos ?? 0) / 1e6);
}
