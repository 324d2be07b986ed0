// @ts-check
// The extension's service worker: takes the events the content scripts capture while a session is
// recording, batches them in an outbox per signal endpoint and sends them with the test token, and
// carries out the popup's commands. The browser may stop this worker whenever it is idle; every
// piece of state is in storage (session-state.js, outbox.js), so a restarted worker carries on.
//
// Facial frames and voice segments come from the offscreen document through media-capture.js, as
// scores and transcripts only, and go to `snapshots` and `voice`. The screen recording's events come
// from recorder.js in the prototype's pages and leave as chunks through `snapshots` too
// (screen-recording.js).

import { mediaCapture } from './media-capture.js';
import { Outbox } from './outbox.js';
import { originOf, prototypeAccess } from './prototype-access.js';
import { screenRecording } from './screen-recording.js';
import { sessionCommands } from './session-commands.js';
import { takeHandoff } from './session-handoff.js';
import { SessionStore } from './session-state.js';
import { taskCommands } from './task-commands.js';
import { Uploader } from './uploader.js';

/** @typedef {import('./api-client.js').SignalKind} SignalKind */
/** @typedef {import('./outbox.js').OutboxKind} OutboxKind */

/** The kinds captured today. @type {SignalKind[]} */
const SIGNAL_KINDS = ['events', 'snapshots', 'voice'];
/** What the task panel may ask for. */
const TASK_COMMANDS = new Set(['startTask', 'endTask', 'resumeTask', 'answerTask']);
/** Pending items are sealed into a batch this often (or sooner, at SEAL_AT items). */
const FLUSH_INTERVAL_MS = 2_000;

const store = new SessionStore();
/** @type {Map<OutboxKind, Outbox>} */
const outboxes = new Map(
  [...SIGNAL_KINDS, /** @type {const} */ ('screen')].map((kind) => [kind, new Outbox(kind)]),
);
const unsent = () => [...outboxes.values()].reduce((sum, outbox) => sum + outbox.unsent, 0);

const uploaders = [...outboxes.values()].map(
  (outbox) =>
    new Uploader(outbox, {
      settings: () => store.sendable,
      accepted: ({ accepted, rejected }) =>
        void store.update({
          last: { accepted, rejected },
          totals: {
            accepted: store.state.totals.accepted + accepted,
            rejected: store.state.totals.rejected + rejected,
          },
          unsent: unsent(),
          message: null,
        }),
      retrying: (reason, delayMs) =>
        void store.update({
          unsent: unsent(),
          message: `${reason} Trying again in ${Math.ceil(delayMs / 1000)} s; ${unsent()} items wait, none is lost.`,
        }),
      stopped: (answer) => void store.update({ phase: 'stopped', message: answer.reason, unsent: unsent() }),
    }),
);
const uploaderOf = new Map(uploaders.map((uploader) => [uploader.outbox.kind, uploader]));

/** @type {ReturnType<typeof setTimeout> | undefined} */
let flushTimer;

/** Seals every outbox's pending items into a batch and sends it. */
function flush() {
  if (flushTimer !== undefined) clearTimeout(flushTimer);
  flushTimer = undefined;
  for (const [kind, outbox] of outboxes) if (outbox.seal()) uploaderOf.get(kind)?.kick();
}

const commands = sessionCommands({
  store,
  outboxes: [...outboxes.values()],
  uploaders,
  flush,
  lastDelivery: () => screen.settled(),
});
const tasks = taskCommands({ store });
const media = mediaCapture({ store, record: (kind, item) => record(kind, item) });
const screenOutbox = /** @type {Outbox} */ (outboxes.get('screen'));
const screen = screenRecording({ store, outbox: screenOutbox, kick: () => uploaderOf.get('screen')?.kick() });
const access = prototypeAccess({ store });
/** The capture scripts (events, then the screen recorder) in line with the state and the site's access. */
const syncCapture = () => access.sync().then(() => screen.sync());
// Before the change is stored: the stored change is what stops the page's recorder, whose last
// delivery then comes at once.
store.beforeChange = () => screen.stateChanged();
store.onChange = () => {
  void media.sync();
  void syncCapture();
};
// The tester gave (or took back) the prototype's site: in access.html, the popup or the browser's settings.
const accessChanged = () => {
  access.recheck();
  void ready.then(syncCapture);
};
chrome.permissions.onAdded.addListener(accessChanged);
chrome.permissions.onRemoved.addListener(accessChanged);

// Everything waits for the stored state: the browser may start this worker for a message or an alarm.
const ready = (async () => {
  await store.load();
  for (const outbox of outboxes.values()) await outbox.load();
  if (store.sendable) flush();
  if (store.sendable) for (const uploader of uploaders) uploader.kick();
  await media.sync();
  await access.sync();
  await screen.sync();
})();

/**
 * A captured item, kept only while the session is recording.
 * @param {SignalKind} kind @param {unknown} item
 */
function record(kind, item) {
  const outbox = outboxes.get(kind);
  if (store.state.phase !== 'recording' || !outbox) return;
  if (outbox.add(item)) uploaderOf.get(kind)?.kick();
  else flushTimer ??= setTimeout(flush, FLUSH_INTERVAL_MS);
}

/** Commands run one after another, so two quick clicks in the popup never interleave. */
/** @type {Promise<unknown>} */
let commandChain = Promise.resolve();
/** @template T @param {() => Promise<T>} command @returns {Promise<T>} */
function inChain(command) {
  const done = commandChain.then(command);
  commandChain = done.catch(() => {});
  return done;
}

chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || !message || typeof message !== 'object') return;
  const { type } = /** @type {{ type?: unknown }} */ (message);
  if (type === 'event' && sender.tab) {
    const { item } = /** @type {{ item?: unknown }} */ (message);
    // Only the prototype's pages are captured (a script left in another page after a Start stays silent).
    const from = sender.url ? new URL(sender.url).origin : null;
    void ready.then(() => from === originOf(store.state.prototypeUrl) && record('events', item));
    return;
  }
  if (type === 'screen' && sender.tab) {
    const { events, visible, typed } =
      /** @type {{ events?: unknown, visible?: unknown, typed?: unknown }} */ (message);
    ready
      .then(async () => {
        await screen.typed(sender, typed);
        return screen.received(sender, events, visible);
      })
      .then(sendResponse, () => sendResponse({}));
    return true; // answers asynchronously
  }
  if (type === 'handoff' && sender.tab) {
    // Its start runs in the command chain, like the popup's Start.
    const start = (/** @type {unknown} */ settings) => commands.start(settings);
    ready
      .then(() => takeHandoff({ store, start, syncAccess: syncCapture, run: inChain }, sender, message))
      .then(sendResponse, (error) =>
        sendResponse({ ok: false, text: `The recorder could not start the session: ${String(error)}` }),
      );
    return true;
  }
  if (type === 'screen-typed' && sender.tab) {
    ready.then(() => screen.typed(sender, [])).then(sendResponse, () => sendResponse({ typed: [] }));
    return true;
  }
  if (sender.url?.startsWith(chrome.runtime.getURL('offscreen.html'))) {
    void ready.then(() => media.received(/** @type {Record<string, unknown>} */ (message)));
    return;
  }
  const from = (/** @type {string} */ page) => sender.url?.startsWith(chrome.runtime.getURL(page)) === true;
  const { command, settings, consent, task } =
    /** @type {{ command?: unknown, settings?: unknown, consent?: unknown, task?: unknown }} */ (message);
  // The permission tab gives the tester's answer to the browser's prompt only; the access tab says
  // the prototype's site was given; the task panel (tasks.html, in the side panel) reports progress
  // on the tasks only.
  const allowed =
    from('popup.html') ||
    (from('access.html') && command === 'access') ||
    (from('permission.html') && command === 'consent') ||
    (from('tasks.html') && typeof command === 'string' && TASK_COMMANDS.has(command));
  if (type === 'command' && allowed) {
    const run = async () => {
      await ready;
      if (command === 'start') await commands.start(settings);
      else if (command === 'pause') await commands.pause();
      else if (command === 'resume') await commands.resume();
      else if (command === 'complete') await commands.complete();
      else if (command === 'consent') await commands.consent(consent);
      else if (command === 'access') {
        access.recheck(); // the page that asked knows before the browser's event comes
        await syncCapture();
      } else if (command === 'startTask') await tasks.startTask(task);
      else if (command === 'endTask') await tasks.endTask(task);
      else if (command === 'resumeTask') await tasks.resumeTask();
      else if (command === 'answerTask') await tasks.answerTask(task);
      else throw new Error(`Unknown command ${String(command)}`);
    };
    inChain(run).then(
      () => sendResponse({ ok: true }),
      (error) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return true; // answers asynchronously
  }
});

chrome.alarms.onAlarm.addListener((alarm) => {
  void ready.then(() => uploaders.find((uploader) => uploader.alarmName === alarm.name)?.retryNow());
});
