// @ts-check
// The task panel's commands (tasks.html): start a task, say it is done or cannot be done, answer
// the ease question. Each report goes to `PATCH /api/sessions/{id}` with `{task}` and the test
// token, whose answer carries the tasks as the session workflow recorded them
// (docs/decisions/extension.md, "The task panel").

import { patchTask, postBatch } from './api-client.js';
import { requireSettings, tasksOf } from './session-commands.js';

/** @typedef {import('./session-state.js').SessionStore} SessionStore */
/** @typedef {import('./api-client.js').TaskProgress} TaskProgress */

/** The API's longest reason (TASK_REASON_MAX in commands/sessions/session.schema.ts). */
export const REASON_MAX = 1000;

/** @param {{ store: SessionStore }} deps */
export function taskCommands({ store }) {
  /**
   * Sends one report. Refused (a task already running, a session paused meanwhile, a report the
   * API had already taken before its answer was lost), the panel shows why and the tasks as the
   * API holds them; not answered, it stays to be sent again.
   * @param {TaskProgress} task
   */
  async function report(task) {
    const settings = requireSettings(store);
    const answer = await patchTask(settings, task);
    if (answer.outcome === 'ok') {
      await store.update({ ...tasksOf(answer.data), taskEnding: null, taskMessage: null });
      return;
    }
    if (answer.outcome === 'retry') {
      await store.update({ taskMessage: `Not sent: ${answer.reason} Press the button again.` });
      return;
    }
    const probe = await postBatch(settings, 'snapshots', []);
    const refreshed = probe.outcome === 'ok' ? tasksOf(probe.data) : {};
    const ending = store.state.taskEnding;
    const attemptOf = (/** @type {number | undefined} */ order) =>
      refreshed.tasks?.find((t) => t.order === order)?.attempt;
    // The API already holds what was reported (its earlier answer was lost): nothing failed.
    const held = attemptOf(task.order)?.state === (task.state === 'started' ? 'in_progress' : task.state);
    await store.update({
      ...refreshed,
      taskEnding: attemptOf(ending?.order)?.state === 'in_progress' ? ending : null,
      taskMessage: held ? null : `Not recorded: ${answer.serverMessage || answer.reason}`,
    });
  }

  /** Only while the session records: the API refuses task progress on a paused session. */
  const requireRecording = () => {
    if (store.state.phase !== 'recording') throw new Error('Resume the session to go on with its tasks.');
  };

  return {
    /** @param {unknown} input */
    async startTask(input) {
      requireRecording();
      await report({ order: orderIn(input), state: 'started', at: new Date().toISOString() });
    },

    /**
     * Done, or "I can't do this": the moment is kept, and sent with the answers to the questions
     * that follow, so the time the tester takes over them is not time on the task.
     * @param {unknown} input
     */
    async endTask(input) {
      requireRecording();
      const { outcome } = /** @type {{ outcome?: unknown }} */ (input ?? {});
      if (outcome !== 'completed' && outcome !== 'abandoned') throw new Error('Unknown task outcome');
      await store.update({
        taskEnding: { order: orderIn(input), outcome, at: new Date().toISOString() },
        taskMessage: null,
      });
    },

    /** Back to the task from the questions: nothing was sent. */
    async resumeTask() {
      await store.update({ taskEnding: null, taskMessage: null });
    },

    /** @param {unknown} input the ease question's answer, and the reason for giving up */
    async answerTask(input) {
      requireRecording();
      const ending = store.state.taskEnding;
      if (!ending) throw new Error('No task is waiting for its answers.');
      const { ease, reason } = /** @type {{ ease?: unknown, reason?: unknown }} */ (input ?? {});
      if (typeof ease !== 'number' || !Number.isInteger(ease) || ease < 1 || ease > 7)
        throw new Error('Choose how easy the task was, from 1 (very difficult) to 7 (very easy).');
      const why = typeof reason === 'string' ? reason.trim().slice(0, REASON_MAX) : '';
      await report({
        order: ending.order,
        state: ending.outcome,
        at: ending.at,
        ease,
        ...(ending.outcome === 'abandoned' && why ? { reason: why } : {}),
      });
    },
  };
}

/** @param {unknown} input */
function orderIn(input) {
  const { order } = /** @type {{ order?: unknown }} */ (input ?? {});
  if (typeof order !== 'number' || !Number.isInteger(order) || order < 1) throw new Error('Unknown task');
  return order;
}
