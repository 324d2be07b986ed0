import { readdir, readFile } from 'node:fs/promises';
import proto from '@temporalio/proto';
import type { HistoryAndWorkflowId } from '@temporalio/client';

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
