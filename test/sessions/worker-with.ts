import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { serviceDatabase } from '../support/database.ts';
import { temporalEnvironment, workflowBundle } from '../support/temporal.ts';

export type Activities = ReturnType<typeof createActivities>;

/**
 * The service's workflows and activities on a task queue of the test's own, with some activities
 * replaced (an agent that fails, or waits for the test), so a test can drive the failure paths.
 */
export async function workerWith(
  taskQueue: string,
  replace: (real: Activities) => Partial<Activities>,
): Promise<{ stop(): Promise<void> }> {
  const env = await temporalEnvironment();
  const real = createActivities({ db: serviceDatabase() });
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: { ...real, ...replace(real) },
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}
