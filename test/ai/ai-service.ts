import type { ScheduleHandle } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { createAgents } from '../../activities/ai/agents.ts';
import { configuredProviders } from '../../clients/ai/configured.ts';
import { ensureAiRetrySchedule } from '../../workers/ai-retry-schedule.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import type { AiRetrySummary, aiRetryWorkflow } from '../../workflows/ai-retry.ts';
import { waitFor } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testConfig } from '../support/config.ts';
import { serviceDatabase } from '../support/database.ts';
import { temporalEnvironment, workflowBundle } from '../support/temporal.ts';

/** The service with its AI providers configured by `env` (the local provider servers), on a queue of its own. */
export interface AiService {
  readonly api: TestApi;
  readonly taskQueue: string;
  /** The suite's own copy of the `ai-retry` Schedule, paused: runs happen when a test triggers them. */
  readonly schedule: ScheduleHandle;
  /** Triggers the schedule once and answers that run's summary. */
  runSchedule(): Promise<AiRetrySummary>;
  stop(): Promise<void>;
}

/**
 * `now`: the AI activities' clock (due times, leases, the age of a job), so a test moves time for
 * the retry queue instead of rewriting its rows.
 */
export async function startAiService(
  name: string,
  env: NodeJS.ProcessEnv,
  options: { readonly now?: () => Date } = {},
): Promise<AiService> {
  const taskQueue = `${name}-${process.pid}`;
  const config = testConfig(env);
  const temporal = await temporalEnvironment();
  const worker: Worker = await createServiceWorker({
    connection: temporal.nativeConnection,
    namespace: temporal.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(),
    db: serviceDatabase(),
    agents: createAgents({ providers: configuredProviders(config.ai) }),
    ...(options.now ? { aiClock: options.now } : {}),
  });
  const running = worker.run();
  const api = await startTestApi({ env: { ...env, TEMPORAL_TASK_QUEUE: taskQueue } });
  // Paused, so that no quarter hour passing during the run starts one by itself.
  await ensureAiRetrySchedule(temporal.client, taskQueue, { scheduleId: taskQueue, paused: true });
  const schedule = temporal.client.schedule.getHandle(taskQueue);

  return {
    api,
    taskQueue,
    schedule,
    async runSchedule() {
      const before = (await schedule.describe()).info.recentActions.length;
      await schedule.trigger();
      await waitFor(async () => (await schedule.describe()).info.recentActions.length > before);
      const { workflow } = (await schedule.describe()).info.recentActions.at(-1)!.action;
      return temporal.client.workflow
        .getHandle<typeof aiRetryWorkflow>(workflow.workflowId, workflow.firstExecutionRunId)
        .result();
    },
    async stop() {
      await schedule.delete();
      await api.stop();
      worker.shutdown();
      await running;
    },
  };
}
