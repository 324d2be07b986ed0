// @ts-check
// The task panel (tasks.html, in Chrome's side panel beside the prototype): the study's tasks one
// at a time, Start, Done and "I can't do this", then the Single Ease Question. The background
// worker sends each report and keeps the tasks in storage (task-commands.js); the panel shows the
// stored state and follows its changes, announcing each change in a live region and keeping focus
// on something that exists.

import { initialState } from './session-state.js';

/** @typedef {import('./session-state.js').SessionState} SessionState */
/** @typedef {import('./api-client.js').SessionTask} SessionTask */
/**
 * @typedef {{ kind: 'waiting' }
 *   | { kind: 'ready' | 'doing', task: SessionTask, position: number }
 *   | { kind: 'questions', task: SessionTask, position: number, outcome: 'completed' | 'abandoned' }
 *   | { kind: 'finished' }} PanelView
 */

const OUTCOME_TEXT = {
  completed: 'done',
  abandoned: 'could not be done',
  unfinished: 'not finished',
  in_progress: 'in progress',
};

/** What the panel shows for the state: the one task the tester is on, or why there is none. */
export function panelView(/** @type {SessionState} */ state) {
  const { tasks } = state;
  if (!tasks || state.phase === 'idle') return /** @type {PanelView} */ ({ kind: 'waiting' });
  const at = (/** @type {SessionTask} */ task) => ({ task, position: tasks.indexOf(task) + 1 });
  const running = tasks.find((task) => task.attempt?.state === 'in_progress');
  if (state.phase === 'completed' || (!running && tasks.every((task) => task.attempt)))
    return /** @type {PanelView} */ ({ kind: 'finished' });
  if (running && state.taskEnding?.order === running.order)
    return /** @type {PanelView} */ ({
      kind: 'questions',
      ...at(running),
      outcome: state.taskEnding.outcome,
    });
  if (running) return /** @type {PanelView} */ ({ kind: 'doing', ...at(running) });
  const next = tasks.find((task) => !task.attempt);
  return /** @type {PanelView} */ (next ? { kind: 'ready', ...at(next) } : { kind: 'finished' });
}

/** @param {string} id */
const element = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));

/** @type {SessionState} */
let shown = initialState();
/** The view last shown, to announce what changed. @type {PanelView | undefined} */
let lastView;
/** A failure of the panel's own last command, shown until the next one. @type {string | null} */
let commandError = null;
let busy = false;

/** @param {SessionState} state */
function render(state) {
  shown = state;
  const view = panelView(state);
  const total = state.tasks?.length ?? 0;
  const recording = state.phase === 'recording';

  element('session-note').textContent = sessionNote(state, view);
  element('think-aloud').hidden = !(state.signals?.requireThinkAloud && view.kind !== 'finished');
  element('prototype-line').hidden =
    !state.prototypeUrl || view.kind === 'finished' || view.kind === 'waiting';
  if (state.prototypeUrl) /** @type {HTMLAnchorElement} */ (element('prototype')).href = state.prototypeUrl;

  const onTask = view.kind === 'ready' || view.kind === 'doing';
  element('task').hidden = !onTask;
  if (onTask) {
    element('task-count').textContent = `Task ${view.position} of ${total}`;
    element('task-title').textContent = view.task.title;
    element('task-description').textContent = view.task.description;
    element('task-state').textContent =
      view.kind === 'doing' ? 'In progress. Press Done when you have done it.' : 'Not started yet.';
    button('start-task').hidden = view.kind !== 'ready';
    button('done-task').hidden = view.kind !== 'doing';
    button('cannot-task').hidden = view.kind !== 'doing';
  }

  const asking = view.kind === 'questions';
  const form = /** @type {HTMLFormElement} */ (element('questions'));
  if (asking && (lastView?.kind !== 'questions' || lastView.task.order !== view.task.order)) {
    form.reset();
    element('ease-error').hidden = true;
  }
  form.hidden = !asking;
  if (asking) {
    element('questions-title').textContent =
      `Task ${view.position} of ${total}, ${view.task.title}: ${view.outcome === 'completed' ? 'done' : "can't be done"}`;
    element('reason-block').hidden = view.outcome !== 'abandoned';
  }

  element('finished').hidden = view.kind !== 'finished';
  if (view.kind === 'finished') {
    element('finished-title').textContent =
      state.phase === 'completed' ? 'The session is complete' : 'Every task is done';
    element('finished-text').textContent =
      state.phase === 'completed'
        ? 'Thank you. What you did on each task:'
        : "Thank you. Complete the session with the extension's toolbar button when you are ready.";
    element('outcomes').replaceChildren(
      ...(state.tasks ?? []).map((task) => {
        const item = document.createElement('li');
        item.textContent = `${task.title}: ${task.attempt ? OUTCOME_TEXT[task.attempt.state] : 'not started'}`;
        return item;
      }),
    );
  }

  // While a report is on its way the buttons only say so (aria-disabled): a disabled button would
  // lose the focus the tester needs to press it again.
  for (const id of ['start-task', 'done-task', 'cannot-task', 'send-answers', 'back-to-task']) {
    button(id).disabled = !recording;
    button(id).setAttribute('aria-disabled', String(busy));
  }
  // Written only when it changes: a screen reader may read an alert again when its text is replaced.
  const message = commandError ?? state.taskMessage ?? '';
  if (element('task-message').textContent !== message) element('task-message').textContent = message;

  announce(view, state);
  keepFocus(view);
  lastView = view;
}

/** @param {SessionState} state @param {PanelView} view */
function sessionNote(state, view) {
  if (view.kind === 'waiting')
    return "Start the session with the extension's toolbar button: its tasks appear here.";
  if (state.phase === 'paused')
    return "The session is paused: resume it with the extension's toolbar button to go on with the tasks.";
  if (state.phase === 'stopped') return "Recording stopped: the extension's toolbar button says why.";
  return '';
}

/** Tells a screen reader what changed since the last view (not on the first one). */
function announce(/** @type {PanelView} */ view, /** @type {SessionState} */ state) {
  if (!lastView || sameView(lastView, view)) return;
  let before = '';
  if (lastView.kind === 'questions' || lastView.kind === 'doing') {
    const { order } = lastView.task;
    const ended = state.tasks?.find((task) => task.order === order)?.attempt?.state;
    if (ended && ended !== 'in_progress')
      before = `Task ${lastView.position} recorded as ${OUTCOME_TEXT[ended]}. `;
  }
  const resumed =
    lastView.kind === 'questions' && view.kind === 'doing' && lastView.task.order === view.task.order;
  const text = resumed ? `Back to task ${view.position}: ${view.task.title}.` : viewText(view, state);
  const announcement = `${before}${text}`;
  if (element('announce').textContent !== announcement) element('announce').textContent = announcement;
}

/** What a view says when it appears. @param {PanelView} view @param {SessionState} state */
function viewText(view, state) {
  const total = state.tasks?.length ?? 0;
  switch (view.kind) {
    case 'ready':
      return `Task ${view.position} of ${total}: ${view.task.title}.`;
    case 'doing':
      return `Task ${view.position} started: ${view.task.title}.${state.signals?.requireThinkAloud ? ' Remember to think aloud.' : ''}`;
    case 'questions':
      return 'How difficult or easy was this task?';
    case 'finished':
      return state.phase === 'completed' ? 'The session is complete.' : 'Every task is done.';
    default:
      return '';
  }
}

/** @param {PanelView} a @param {PanelView} b */
const sameView = (a, b) =>
  a.kind === b.kind && ('task' in a ? a.task.order : 0) === ('task' in b ? b.task.order : 0);

/**
 * After a change of view, focus goes where the tester goes on (Done after Start, the question
 * after Done, the next task after the answers); a focused control the change hid is replaced too.
 */
function keepFocus(/** @type {PanelView} */ view) {
  const active = document.activeElement;
  const lost = !active || active === document.body || !isShown(/** @type {HTMLElement} */ (active));
  if (!lastView || (!lost && sameView(lastView, view))) return;
  if (!lost && !document.hasFocus()) return; // the tester is on the prototype: leave the panel be
  const target = {
    waiting: null,
    ready: 'task-title',
    doing: 'done-task',
    questions: 'questions-title',
    finished: 'finished-title',
  }[view.kind];
  if (!target) return;
  // A disabled control (the session paused) takes no focus: the view's heading does.
  const wanted = element(target);
  (isShown(wanted) ? wanted : element(view.kind === 'finished' ? 'finished-title' : 'task-title')).focus();
}

/** @param {HTMLElement} node */
const isShown = (node) =>
  node.isConnected && !node.closest('[hidden]') && !(/** @type {HTMLButtonElement} */ (node).disabled);

/** @param {string} command @param {Record<string, unknown>} [task] */
async function send(command, task) {
  if (busy) return;
  busy = true;
  commandError = null;
  render(shown);
  try {
    const answer = /** @type {{ ok: boolean, error?: string } | undefined} */ (
      await chrome.runtime.sendMessage({ type: 'command', command, ...(task ? { task } : {}) })
    );
    commandError = answer && !answer.ok ? (answer.error ?? 'Failed') : null;
  } catch (error) {
    commandError = `The extension did not answer: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    busy = false;
  }
  const stored = await chrome.storage.local.get('state');
  render(/** @type {SessionState | undefined} */ (stored.state) ?? shown);
}

const currentOrder = () => {
  const view = panelView(shown);
  return 'task' in view ? view.task.order : 0;
};

button('start-task').addEventListener('click', () => void send('startTask', { order: currentOrder() }));
button('done-task').addEventListener(
  'click',
  () => void send('endTask', { order: currentOrder(), outcome: 'completed' }),
);
button('cannot-task').addEventListener(
  'click',
  () => void send('endTask', { order: currentOrder(), outcome: 'abandoned' }),
);
button('back-to-task').addEventListener('click', () => void send('resumeTask'));
element('questions').addEventListener('submit', (event) => {
  event.preventDefault();
  const chosen = /** @type {HTMLInputElement | null} */ (
    document.querySelector('input[name="ease"]:checked')
  );
  if (!chosen) {
    const error = element('ease-error');
    error.textContent = 'Choose how difficult or easy the task was, from 1 to 7.';
    error.hidden = false;
    /** @type {HTMLInputElement} */ (document.getElementById('ease-1')).focus();
    return;
  }
  element('ease-error').hidden = true;
  const reason = /** @type {HTMLTextAreaElement} */ (document.getElementById('reason')).value;
  void send('answerTask', { ease: Number(chosen.value), reason });
});

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && changes.state && !busy)
    render(/** @type {SessionState} */ (changes.state.newValue));
});

const stored = await chrome.storage.local.get('state');
render(/** @type {SessionState | undefined} */ (stored.state) ?? initialState());
