// @ts-check
// What the extension knows about the tester's session, kept in its local storage (spec, "Test
// tokens": the extension keeps the token there) and shown by the popup, which reads the same keys:
//   settings  {apiBase, sessionId, testToken} as the tester entered them
//   state     {phase, sessionStatus, message, last, totals, unsent, tasks, ...}
//   recording true only while events are captured; content scripts read this key alone

/** @typedef {import('./api-client.js').Settings} Settings */
/**
 * idle: no session started; recording; paused: by the tester, nothing captured; stopped: the API
 * refused the token or the session, nothing captured or sent until Start; completed.
 * @typedef {'idle' | 'recording' | 'paused' | 'stopped' | 'completed'} Phase
 */
/**
 * @typedef {object} SessionState
 * @property {Phase} phase
 * @property {string | null} sessionStatus the status the API last answered
 * @property {string | null} message why the last thing failed, for the tester
 * @property {{ accepted: number, rejected: number } | null} last counts of the last answered batch
 * @property {{ accepted: number, rejected: number }} totals
 * @property {number} unsent items captured and not yet accepted
 * @property {{ recordFacial: boolean, recordVoice: boolean, requireThinkAloud: boolean, recordScreen: boolean } | null} signals
 *   what the study records, as the snapshots route answered at Start; null before
 * @property {{ camera: 'granted' | 'refused' | null, microphone: 'granted' | 'refused' | null }} consent
 *   the tester's answers in the popup
 * @property {'off' | 'recording' | 'unavailable'} camera whether the camera is in use now
 * @property {'off' | 'recording' | 'unavailable'} microphone whether the microphone is in use now
 * @property {number} nextFrameIndex the next facial frame's `frameIndex`
 * @property {number} nextSegmentIndex the next voice segment's `segmentIndex`
 * @property {number} nextChunk the next screen recording chunk's number
 * @property {import('./api-client.js').SessionTask[] | null} tasks the study's tasks with this
 *   session's attempts, as the API last answered them; null before Start learnt them
 * @property {string | null} prototypeUrl where the tester does the tasks
 * @property {boolean | null} access whether the browser gave the extension the prototype's site
 *   (asked for at Start); null before the prototype is known
 * @property {TaskEnding | null} taskEnding a task the tester said they did or gave up on, waiting
 *   for their answer to the ease question before it is sent
 * @property {string | null} taskMessage why the last task report failed, for the panel
 */
/**
 * @typedef {{ order: number, outcome: 'completed' | 'abandoned', at: string }} TaskEnding
 */

/** @returns {SessionState} */
export const initialState = () => ({
  phase: 'idle',
  sessionStatus: null,
  message: null,
  last: null,
  totals: { accepted: 0, rejected: 0 },
  unsent: 0,
  signals: null,
  consent: { camera: null, microphone: null },
  camera: 'off',
  microphone: 'off',
  nextFrameIndex: 0,
  nextSegmentIndex: 0,
  nextChunk: 0,
  tasks: null,
  prototypeUrl: null,
  access: null,
  taskEnding: null,
  taskMessage: null,
});

export class SessionStore {
  constructor() {
    /** @type {Settings | undefined} */
    this.settings = undefined;
    /** @type {SessionState} */
    this.state = initialState();
    /** Called after every change (the camera follows the state). @type {() => void} */
    this.onChange = () => {};
    /** Called with every change before it is stored (what the stored change sets off). @type {() => void} */
    this.beforeChange = () => {};
  }

  async load() {
    const stored = await chrome.storage.local.get(['settings', 'state']);
    this.settings = /** @type {Settings | undefined} */ (stored.settings);
    this.state = { ...initialState(), .../** @type {Partial<SessionState>} */ (stored.state ?? {}) };
  }

  /** The session to send to while its batches may still be sent (not after a refusal). */
  get sendable() {
    const { phase } = this.state;
    return phase === 'recording' || phase === 'paused' ? this.settings : undefined;
  }

  /** @param {Settings} settings */
  async saveSettings(settings) {
    this.settings = settings;
    await chrome.storage.local.set({ settings });
  }

  /** Applies a change and stores it; `recording` follows the phase. @param {Partial<SessionState>} change */
  async update(change) {
    this.state = { ...this.state, ...change };
    this.beforeChange();
    await chrome.storage.local.set({ state: this.state, recording: this.state.phase === 'recording' });
    this.onChange();
  }
}
