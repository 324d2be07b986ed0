import { readFile, writeFile } from 'node:fs/promises';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../../workers/workflows-path.ts';

/**
 * Where `npm test` wrote the run's workflow bundle once for all its processes (scripts/test.ts):
 * bundling takes seconds of processor, and five processes did it each.
 */
export const SUITE_BUNDLE_VARIABLE = 'SUITE_WORKFLOW_BUNDLE';

const silentLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** The service's workflows bundled, as the workers load them. */
export function bundleWorkflows(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: silentLogger });
}

/** The workflows bundled into the file at `path`. */
export async function writeWorkflowBundle(path: string): Promise<void> {
  await writeFile(path, (await bundleWorkflows()).code);
}

/** The run's bundle: the one `npm test` wrote, or bundled here when this process runs alone. */
export async function suiteWorkflowBundle(): Promise<WorkflowBundle> {
  const path = process.env[SUITE_BUNDLE_VARIABLE];
  return path ? { code: await readFile(path, 'utf8') } : bundleWorkflows();
}
