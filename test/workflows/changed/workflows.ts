// A study workflow changed without a patch: one timer before everything the stored history
// recorded. The replay test replays the stored history against it to show that such a change fails.
import { sleep } from '@temporalio/workflow';
import type { StudyWorkflowInput } from '../../../workflows/messages/study.ts';
import { studyWorkflow as studyWorkflowAsItIs } from '../../../workflows/study.ts';

export async function studyWorkflow(input: StudyWorkflowInput): Promise<void> {
  await sleep('1 second');
  return studyWorkflowAsItIs(input);
}
