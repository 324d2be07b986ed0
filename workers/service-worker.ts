import { Worker, type NativeConnection, type WorkerPlugin, type WorkflowBundle } from '@temporalio/worker';
import { createActivities, type ActivityDependencies } from '../activities/index.ts';
import { WORKFLOWS_PATH } from './workflows-path.ts';

export { WORKFLOWS_PATH };

export interface ServiceWorkerOptions extends ActivityDependencies {
  readonly connection: NativeConnection;
  readonly namespace: string;
  readonly taskQueue: string;
  /** A pre-built bundle (tests build one per run); otherwise the worker bundles the workflows itself. */
  readonly workflowBundle?: WorkflowBundle;
  /** Temporal worker plugins: the tracing one (workers/runtime.ts) when traces are on. */
  readonly plugins?: readonly WorkerPlugin[];
}

/** The worker for the service's task queue: every workflow, every activity. */
export function createServiceWorker({
  connection,
  namespace,
  taskQueue,
  workflowBundle,
  plugins = [],
  ...deps
}: ServiceWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    plugins: [...plugins],
    ...(workflowBundle ? { workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities(deps),
  });
}
