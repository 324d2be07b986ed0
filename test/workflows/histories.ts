import { readdir, readFile } from 'node:fs/promises';
import proto from '@temporalio/proto';
import type { Client, HistoryAndWorkflowId } from '@temporalio/client';

/** Where the recorded histories live (record-histories.ts writes them, replay.test.ts reads them). */
export const HISTORIES_DIR = new URL('./histories/', import.meta.url);

/** Every stored history (binary protobuf, as the server sends it), named by its file. */
export async function storedHistories(): Promise<HistoryAndWorkflowId[]> {
  const names = (await readdir(HISTORIES_DIR)).filter((name) => name.endsWith('.binpb')).sort();
  return Promise.all(
    names.map(async (name) => ({
      workflowId: name.replace(/\.binpb$/, ''),
      history: proto.temporal.api.history.v1.History.decode(await readFile(new URL(name, HISTORIES_DIR))),
    })),
  );
}

/** One run of a workflow's chain of runs (continue-as-new). */
export interface WorkflowRun {
  readonly runId: string;
  readonly events: number;
  readonly continuedAsNew: boolean;
}

/**
 * The runs of a workflow, first to last: from the current run back along each start's
 * `continuedExecutionRunId`, with each run's history length and whether it continued as new.
 */
export async function runsOf(client: Client, workflowId: string): Promise<WorkflowRun[]> {
  const runs: WorkflowRun[] = [];
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    const history: proto.temporal.api.history.v1.IHistory = await client.workflow
      .getHandle(workflowId, runId)
      .fetchHistory();
    const events = history.events ?? [];
    runs.unshift({
      runId,
      events: events.length,
      continuedAsNew: Boolean(events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes),
    });
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return runs;
}
