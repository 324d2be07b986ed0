import assert from 'node:assert/strict';
import { mock } from 'node:test';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { sendOverRunSwitch, updateOrConflict } from '../../commands/update-or-conflict.ts';
import { ApiError } from '../../lib/errors.ts';
import { INVALID_STUDY_TRANSITION, STUDY_RUN_SWITCHING } from '../../lib/failures.ts';

const refusal = (type: string) =>
  new WorkflowUpdateFailedError('Workflow Update failed', ApplicationFailure.create({ type, message: type }));

/** Runs `attempt` to its end on mocked timers, moving the clock a second at a time. */
async function onMockedClock<T>(attempt: () => Promise<T>): Promise<{ value?: T; error?: unknown }> {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  try {
    let outcome: { value?: T; error?: unknown } | undefined;
    attempt().then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { error }),
    );
    // setImmediate is not mocked: it lets the pending promises settle between ticks.
    for (let second = 0; !outcome && second < 120; second++) {
      await new Promise((resolve) => setImmediate(resolve));
      mock.timers.tick(1_000);
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(outcome, 'still sending after two minutes');
    return outcome;
  } finally {
    mock.timers.reset();
  }
}

// A study run that is continuing as new refuses new updates; the commands send them again until
// the next run takes them, and answer 503 after 30 s (docs/decisions/studies.md).
describe('sending an update over a study run switch (commands/update-or-conflict.ts)', () => {
  it('sends again while the run is switching, and answers what the next run answers', async () => {
    let calls = 0;
    const { value } = await onMockedClock(() =>
      sendOverRunSwitch(() =>
        ++calls <= 3 ? Promise.reject(refusal(STUDY_RUN_SWITCHING)) : Promise.resolve('taken'),
      ),
    );
    assert.equal(value, 'taken');
    assert.equal(calls, 4);
  });

  it('a run that switches for more than 30 s: 503 unavailable with Retry-After, and no more sends', async () => {
    let calls = 0;
    let lastCallAt = 0;
    const { error } = await onMockedClock(() =>
      sendOverRunSwitch(() => {
        calls++;
        lastCallAt = Date.now();
        return Promise.reject(refusal(STUDY_RUN_SWITCHING));
      }),
    );
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 503);
    assert.equal(error.code, 'unavailable');
    assert.ok(Number(error.headers['Retry-After']) > 0);
    // 50 ms doubling to 1 s: five quick sends, then one a second until 30 s have passed.
    assert.ok(lastCallAt > 30_000 && lastCallAt <= 32_000, `last send at ${lastCallAt} ms`);
    assert.ok(calls >= 30 && calls <= 36, `${calls} sends`);
  });

  it('any other failure is not sent again', async () => {
    let calls = 0;
    const { error } = await onMockedClock(() =>
      sendOverRunSwitch(() => {
        calls++;
        return Promise.reject(new Error('the server is away'));
      }),
    );
    assert.equal((error as Error).message, 'the server is away');
    assert.equal(calls, 1);
  });

  it("a refused transition after a switch is the route's 409", async () => {
    let calls = 0;
    const { error } = await onMockedClock(() =>
      updateOrConflict(INVALID_STUDY_TRANSITION, () =>
        Promise.reject(refusal(++calls === 1 ? STUDY_RUN_SWITCHING : INVALID_STUDY_TRANSITION)),
      ),
    );
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 409);
    assert.equal(calls, 2);
  });
});
