// @ts-check
// Facial frames: the background worker's side of the camera. The camera is held by the offscreen
// document (offscreen.js), which exists exactly while the session records, the study asks for
// facial frames and the tester allowed the camera; closing the document stops the camera at once.
// Each analysed frame arrives here as scores and becomes the spec's facial frame item (or a frame
// without a face) for `POST /api/sessions/{id}/snapshots`; nothing else crosses.

/** @typedef {import('./session-state.js').SessionStore} SessionStore */
/** @typedef {{ emotions: Record<string, number>, attentionScore: number, gazeX: number, gazeY: number }} Scores */

const OFFSCREEN_URL = 'offscreen.html';

/**
 * @param {{ store: SessionStore, record: (item: unknown) => void }} deps
 */
export function facialCapture({ store, record }) {
  /** Serialises opening and closing, so that a quick pause after a start never leaves a camera on. */
  let chain = Promise.resolve();

  const wanted = () => {
    const { phase, signals, consent, camera } = store.state;
    return (
      phase === 'recording' &&
      signals?.recordFacial === true &&
      consent.camera === 'granted' &&
      camera !== 'unavailable'
    );
  };

  const isOpen = async () =>
    (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length > 0;

  async function apply() {
    const open = await isOpen();
    if (wanted() && !open) {
      await chrome.offscreen.createDocument({
        url: OFFSCREEN_URL,
        reasons: ['USER_MEDIA'],
        justification: 'Facial expression scores for the usability session, computed on this computer',
      });
    } else if (!wanted() && open) {
      await chrome.offscreen.closeDocument();
      if (store.state.camera !== 'off') await store.update({ camera: 'off' });
    }
    await showIndicator();
  }

  async function showIndicator() {
    const recording = store.state.camera === 'recording' && wanted();
    await chrome.action.setBadgeText({ text: recording ? 'CAM' : '' });
    if (recording) await chrome.action.setBadgeBackgroundColor({ color: '#b00020' });
    await chrome.action.setTitle({
      title: recording
        ? 'Usability session: the camera is on (only expression scores are sent)'
        : 'Usability session',
    });
  }

  return {
    /** Opens or closes the camera to match the state; called after every change of it. */
    sync() {
      chain = chain.then(apply, apply).catch(() => undefined);
      return chain;
    },

    /** A message of the offscreen document. @param {Record<string, unknown>} message */
    async received(message) {
      if (message.type === 'facial-started') {
        // A start that arrives after a pause closed the document is no longer true.
        if (!wanted()) return;
        await store.update({ camera: 'recording' });
        return showIndicator();
      }
      if (message.type === 'facial-unavailable') {
        const reason = String(message.reason);
        // A refused permission is the tester's answer; anything else (a busy camera, the model)
        // may pass: Pause and Resume try again.
        const refusedByBrowser = reason === 'NotAllowedError' || reason === 'SecurityError';
        await store.update({
          camera: 'unavailable',
          ...(refusedByBrowser ? { consent: { ...store.state.consent, camera: 'refused' } } : {}),
          message: refusedByBrowser
            ? `The camera was refused (${reason}): the session goes on with interaction events only.`
            : `The camera could not be used (${reason}): the session goes on with interaction events only; Pause and Resume try again.`,
        });
        return this.sync();
      }
      if (message.type === 'facial-frame' && wanted()) {
        const frameIndex = store.state.nextFrameIndex;
        await store.update({ nextFrameIndex: frameIndex + 1 });
        const timestamp = String(message.timestamp);
        const scores = /** @type {Scores | null} */ (message.scores);
        record(
          scores
            ? { frameIndex, timestamp, ...scores }
            : { frameIndex, timestamp, faceDetected: false, attentionScore: 0 },
        );
      }
    },
  };
}

/** The snapshots route's `nextFrameIndex`: where this session's frames go on (0 when not said). @param {unknown} data */
export function nextFrameIndexIn(data) {
  const next =
    data && typeof data === 'object'
      ? /** @type {{ nextFrameIndex?: unknown }} */ (data).nextFrameIndex
      : undefined;
  return typeof next === 'number' && Number.isInteger(next) && next >= 0 ? next : 0;
}

/** The study's signal settings in an answer of the snapshots route, when it names them. @param {unknown} data */
export function signalsIn(data) {
  const signals =
    data && typeof data === 'object' ? /** @type {{ signals?: unknown }} */ (data).signals : undefined;
  if (!signals || typeof signals !== 'object') return null;
  const { recordFacial, recordVoice, requireThinkAloud } = /** @type {Record<string, unknown>} */ (signals);
  return {
    recordFacial: recordFacial === true,
    recordVoice: recordVoice === true,
    requireThinkAloud: requireThinkAloud === true,
  };
}
