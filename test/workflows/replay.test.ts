import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type proto from '@temporalio/proto';
import { Worker, bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundle } from '../support/temporal.ts';
import { storedHistories } from './histories.ts';

const silentLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const CHANGED_WORKFLOWS = fileURLToPath(new URL('./changed/workflows.ts', import.meta.url));

// Workflows that are running when a new build is deployed replay their history on it: a change to
// the commands a workflow issues must come with patched() (docs/decisions/codebase.md, "Changing workflow code").
describe('stored workflow histories replay on the workflow code as it is', function () {
  this.timeout(120_000);

  it('the study, recruitment, offer, session, payout and notification histories (test/workflows/histories) replay without a nondeterminism error', async () => {
    const histories = await storedHistories();
    assert.deepEqual(
      histories.map((h) => h.workflowId),
      [
        'notification-test-token',
        'offer-accepted-withdrawn',
        'offer-declined',
        'payout-failed-then-paid',
        'session-paused-confirmed-reported',
        // Recorded before the study workflow continued as new: replays its old branch (no marker).
        'study-draft-to-archived-before-continue-as-new',
        'study-draft-to-archived',
        // A recruiting study's first run, which ended by continuing as new, and its last run.
        'study-recruitment-first-run',
        'study-recruitment-last-run',
      ],
    );
    const ends = (id: string) =>
      (
        histories.find((h) => h.workflowId === id)!.history as proto.temporal.api.history.v1.IHistory
      ).events?.at(-1);
    assert.ok(ends('study-recruitment-first-run')?.workflowExecutionContinuedAsNewEventAttributes);
    assert.ok(ends('study-recruitment-last-run')?.workflowExecutionCompletedEventAttributes);
    const replayed: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: await workflowBundle() },
      histories,
    )) {
      assert.equal(result.error, undefined, `${result.workflowId}: ${String(result.error)}`);
      replayed.push(result.workflowId);
    }
    assert.equal(replayed.length, histories.length);
  });

  it('a study workflow whose commands changed without a patch fails to replay its history', async () => {
    const study = (await storedHistories()).filter((h) => h.workflowId === 'study-draft-to-archived');
    const changed = await bundleWorkflowCode({ workflowsPath: CHANGED_WORKFLOWS, logger: silentLogger });
    const errors: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: changed }, study)) {
      errors.push(String(result.error));
    }
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /nondetermin/i);
  });
});
