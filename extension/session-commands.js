// @ts-check
// The popup's four buttons, each a `PATCH /api/sessions/{id}` with `{status}` and the test token
// (docs/decisions/sessions.md, "`PATCH /api/sessions/:id` answer"), plus what the extension does around it:
// capture stops before a pause or a completion is asked for, and a completion is asked for only
// once every captured item has been accepted (the API takes no items after it).

import { patchStatus, postBatch, prototypeUrlIn, statusIn, tasksIn } from './api-client.js';
import { indexIn, signalsIn } from './media-capture.js';
import { initialState } from './session-state.js';

/** @typedef {import('./api-client.js').Settings} Settings */
/** @typedef {import('./session-state.js').SessionStore} SessionStore */
/** @typedef {import('./outbox.js').Outbox} Outbox */
/** @typedef {import('./uploader.js').Uploader} Uploader */

const TEST_TOKEN = /^[0-9a-f]{48}$/;

/**
 * @param {{ store: SessionStore, outboxes: Outbox[], uploaders: Uploader[], flush: () => void,
 *   lastDelivery: () => Promise<void> }} deps `lastDelivery`: waits for what the pages held when
 *   capture stopped (the screen recorder's last events)
 */
export function sessionCommands({ store, outboxes, uploaders, flush, lastDelivery }) {
  const unsent = () => outboxes.reduce((sum, outbox) => sum + outbox.unsent, 0);

  /** @param {import('./api-client.js').Answer} answer @param {Partial<import('./session-state.js').SessionState>} onRetry */
  const refused = (answer, onRetry) =>
    answer.outcome === 'stop'
      ? store.update({ phase: 'stopped', message: answer.reason, unsent: unsent() })
      : store.update({ ...onRetry, message: answer.outcome === 'retry' ? answer.reason : null });

  /** Whether the answer to "active" means the session records: 200, or already active (409). */
  const isActive = (/** @type {import('./api-client.js').Answer} */ answer) =>
    answer.outcome === 'ok' ||
    (answer.outcome === 'stop' && answer.status === 409 && /\(it is active\)/.test(answer.serverMessage));

  /**
   * An empty batch to the snapshots route: which signals the study records, and where this session's
   * frames and segments go on (never below what this browser already numbered). A device that
   * failed may try again.
   * @param {Settings} settings @returns {Promise<Partial<import('./session-state.js').SessionState>>}
   */
  async function probeSignals(settings) {
    const probe = await postBatch(settings, 'snapshots', []);
    /** @type {Partial<import('./session-state.js').SessionState>} */
    const retry = { camera: 'off', microphone: 'off' };
    if (probe.outcome !== 'ok') return retry;
    return {
      ...retry,
      ...tasksOf(probe.data),
      prototypeUrl: prototypeUrlIn(probe.data) ?? store.state.prototypeUrl,
      signals: signalsIn(probe.data),
      nextFrameIndex: Math.max(store.state.nextFrameIndex, indexIn(probe.data, 'nextFrameIndex')),
      nextSegmentIndex: Math.max(store.state.nextSegmentIndex, indexIn(probe.data, 'nextSegmentIndex')),
      nextChunk: Math.max(store.state.nextChunk, indexIn(probe.data, 'nextChunk')),
    };
  }

  return {
    /** Starts (or, after a refusal, restarts with a new token) recording the session. @param {unknown} input */
    async start(input) {
      const settings = checkSettings(input);
      const previous = store.settings;
      if (previous?.sessionId !== settings.sessionId || previous.apiBase !== settings.apiBase) {
        // Another session: what was left of the previous one can never be sent with this token.
        for (const outbox of outboxes) await outbox.clear();
        await store.update(initialState());
      }
      await store.saveSettings(settings);
      // A session is created active, so this usually answers 409 "(it is active)"; it resumes a paused one.
      const answer = await patchStatus(settings, 'active');
      if (!isActive(answer)) return refused(answer, {});
      await store.update({
        phase: 'recording',
        sessionStatus: 'active',
        message: null,
        unsent: unsent(),
        ...(await probeSignals(settings)),
      });
      for (const uploader of uploaders) uploader.kick();
    },

    /** The tester's answer to the camera or the microphone question. @param {unknown} input */
    async consent(input) {
      const answer = /** @type {Record<string, unknown>} */ (input && typeof input === 'object' ? input : {});
      const device = answer.device === 'microphone' ? 'microphone' : 'camera';
      const reason = typeof answer.reason === 'string' && answer.reason ? answer.reason : null;
      const granted = answer.allowed === true;
      await store.update({
        consent: { ...store.state.consent, [device]: granted ? 'granted' : 'refused' },
        [device]: 'off',
        message: granted
          ? null
          : `${device === 'camera' ? 'Camera' : 'Microphone'} ${reason ? `refused (${reason})` : 'not allowed'}: the session goes on without it.`,
      });
    },

    async pause() {
      const settings = requireSettings(store);
      await store.update({ phase: 'paused' }); // nothing is captured from here on
      flush();
      const answer = await patchStatus(settings, 'paused');
      if (answer.outcome === 'ok')
        return store.update({
          sessionStatus: statusIn(answer.data) ?? 'paused',
          message: null,
          ...tasksOf(answer.data),
        });
      // The API may still say active; the popup offers Pause again (docs: extension/README.md).
      return refused(answer, {});
    },

    async resume() {
      const settings = requireSettings(store);
      const answer = await patchStatus(settings, 'active');
      if (!isActive(answer)) return refused(answer, {});
      await store.update({
        phase: 'recording',
        sessionStatus: 'active',
        message: null,
        ...(answer.outcome === 'ok' ? tasksOf(answer.data) : {}),
        // Asked again when Start could not learn them.
        ...(store.state.signals ? { camera: 'off', microphone: 'off' } : await probeSignals(settings)),
      });
    },

    async complete() {
      const settings = requireSettings(store);
      const before = store.state.phase;
      await store.update({ phase: 'paused' });
      await lastDelivery(); // the API takes nothing after completion
      flush();
      const drained = (await Promise.all(uploaders.map((uploader) => uploader.drain()))).every(Boolean);
      if (!drained) {
        if (store.state.phase === 'stopped') return; // refused: the uploader said why
        return store.update({
          phase: before,
          unsent: unsent(),
          message: `${unsent()} captured items are not sent yet, and the API takes none after completion: press Complete again once it answers.`,
        });
      }
      const answer = await patchStatus(settings, 'completed');
      if (answer.outcome === 'ok')
        return store.update({
          phase: 'completed',
          sessionStatus: statusIn(answer.data) ?? 'completed',
          message: null,
          taskEnding: null,
          ...tasksOf(answer.data), // a task still open is now unfinished
        });
      return refused(answer, { phase: before });
    },
  };
}

/**
 * The tasks an answer carries, as a state change (none when it has none).
 * @param {unknown} data @returns {Partial<import('./session-state.js').SessionState>}
 */
export function tasksOf(data) {
  const tasks = tasksIn(data);
  return tasks ? { tasks } : {};
}

/** @param {SessionStore} store */
export function requireSettings(store) {
  if (!store.settings) throw new Error('Start a session first.');
  return store.settings;
}

/** The popup's fields, checked before anything is stored or sent. @param {unknown} input @returns {Settings} */
export function checkSettings(input) {
  const fields = /** @type {Record<string, unknown>} */ (input && typeof input === 'object' ? input : {});
  const text = (/** @type {string} */ name) => (typeof fields[name] === 'string' ? fields[name].trim() : '');
  const apiBase = text('apiBase').replace(/\/+$/, '');
  /** @type {URL} */
  let url;
  try {
    url = new URL(apiBase);
  } catch {
    throw new Error('API base URL: enter the service address, such as https://usability.example');
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash)
    throw new Error('API base URL: only http(s)://host[:port], without a path');
  const sessionId = text('sessionId');
  if (!/^[\w-]{1,100}$/.test(sessionId)) throw new Error('Session id: paste the id you were given');
  const testToken = text('testToken').toLowerCase();
  if (!TEST_TOKEN.test(testToken)) throw new Error('Test token: 48 hexadecimal characters');
  return { apiBase: url.origin, sessionId, testToken };
}
