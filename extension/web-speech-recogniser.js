// @ts-check
// The browser's own speech recognition, used only where it runs on this computer: Chrome's Web
// Speech API with `processLocally` (an on-device model the browser already has). Without
// `processLocally` Chrome sends the sound to a server, which the extension must never do, so a
// browser that cannot promise local processing, or has no local model for the language installed,
// gets none of it (the extension never asks the browser to download one). A segment is played
// into an audio track, which the recogniser hears as it would a microphone.

/** @typedef {import('./speech-recogniser.js').Recogniser} Recogniser */

/** The language of the transcripts (the bundled recogniser and the sentiment word list are English). */
export const SPEECH_LANGUAGE = 'en-US';
/** After the segment has been played: time for the last words' results. */
const TAIL_MS = 800;
/** The longest wait for the recogniser to say it listens before the segment is played anyway. */
const START_WAIT_MS = 1_000;
/** A recognition that has not ended this long after its segment has hung. */
const HANG_MS = 15_000;
/** After aborting a hung recognition: how long its end event is waited for. */
const ABORT_GRACE_MS = 1_000;
/**
 * Segments waiting behind this one beyond which the bundled recogniser takes it: the on-device
 * recogniser hears a segment in real time (plus its start and tail), so steady talk would leave it
 * further and further behind.
 */
export const MAX_REAL_TIME_BACKLOG = 2;

/**
 * The Web Speech recognition interface as far as it is used here (not in TypeScript's DOM types).
 * @typedef {{
 *   lang: string, continuous: boolean, interimResults: boolean, maxAlternatives: number,
 *   processLocally: boolean,
 *   start(track?: MediaStreamTrack): void, stop(): void, abort(): void,
 *   onresult: ((event: { resultIndex: number, results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }> }) => void) | null,
 *   onerror: ((event: { error: string, message?: string }) => void) | null,
 *   onstart: (() => void) | null,
 *   onend: (() => void) | null,
 * }} SpeechRecognitionLike
 * @typedef {{
 *   new (): SpeechRecognitionLike,
 *   prototype: object,
 *   available?: (options: { langs: string[], processLocally: boolean }) => Promise<string>,
 * }} SpeechRecognitionClass
 */

/** Errors that mean "nothing was said", not a recogniser that failed. */
const NOTHING_HEARD = new Set(['no-speech', 'aborted']);

/**
 * The on-device recogniser, or null where the browser offers none.
 * @param {{ sampleRate: number }} audio the segments' sample rate
 * @returns {Promise<Recogniser | null>}
 */
export async function onDeviceWebSpeech({ sampleRate }) {
  const scope =
    /** @type {{ SpeechRecognition?: SpeechRecognitionClass, webkitSpeechRecognition?: SpeechRecognitionClass }} */ (
      /** @type {unknown} */ (globalThis)
    );
  const Recognition = scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
  if (!Recognition || typeof Recognition.available !== 'function') return null;
  if (!('processLocally' in Recognition.prototype)) return null;
  const availability = await Recognition.available({ langs: [SPEECH_LANGUAGE], processLocally: true }).catch(
    () => 'unavailable',
  );
  if (availability !== 'available') return null;

  return {
    name: 'web-speech-on-device',
    async transcribe(segment) {
      const context = new AudioContext({ sampleRate });
      try {
        // An offscreen document may start its audio contexts suspended.
        await context.resume();
        const buffer = context.createBuffer(1, segment.length, sampleRate);
        buffer.getChannelData(0).set(segment);
        const source = context.createBufferSource();
        source.buffer = buffer;
        const destination = context.createMediaStreamDestination();
        source.connect(destination);
        const [track] = destination.stream.getAudioTracks();
        if (!track) throw new Error('no audio track to play the segment into');
        return await recognise(new Recognition(), track, source, (segment.length / sampleRate) * 1000);
      } finally {
        await context.close();
      }
    },
  };
}

/**
 * Plays the segment into `track` and resolves with what the recogniser heard in it.
 * @param {SpeechRecognitionLike} recognition @param {MediaStreamTrack} track
 * @param {AudioBufferSourceNode} source @param {number} durationMs
 * @returns {Promise<string>}
 */
function recognise(recognition, track, source, durationMs) {
  recognition.lang = SPEECH_LANGUAGE;
  recognition.processLocally = true;
  recognition.continuous = true;
  recognition.interimResults = false;
  recognition.maxAlternatives = 1;
  return new Promise((resolve, reject) => {
    /** @type {string[]} */
    const heard = [];
    /** @type {Error | null} */
    let failure = null;
    let settled = false;
    /** Settles once: at the recogniser's end, or when it never comes. */
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(hung);
      track.stop();
      if (failure) reject(failure);
      else resolve(heard.filter(Boolean).join(' '));
    };
    // A recogniser that hangs must not hold up every later segment: abort it, and give up on it
    // even if it never reports its end.
    const hung = setTimeout(
      () => {
        failure = new Error('the on-device recogniser did not finish');
        recognition.abort();
        setTimeout(finish, ABORT_GRACE_MS);
      },
      durationMs + START_WAIT_MS + TAIL_MS + HANG_MS,
    );
    recognition.onresult = (event) => {
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i];
        if (result?.isFinal && result[0]) heard.push(result[0].transcript.trim());
      }
    };
    recognition.onerror = (event) => {
      if (!NOTHING_HEARD.has(event.error)) failure ??= new Error(`on-device recognition: ${event.error}`);
    };
    recognition.onend = finish;
    source.onended = () => setTimeout(() => recognition.stop(), TAIL_MS);
    // The segment is played once the recogniser listens, so that its first words are heard.
    let playing = false;
    const play = () => {
      if (playing || settled) return;
      playing = true;
      source.start();
    };
    recognition.onstart = play;
    try {
      recognition.start(track);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      finish();
      return;
    }
    // A recogniser that never says it started still gets the segment.
    setTimeout(play, START_WAIT_MS);
  });
}

/**
 * The on-device recogniser where the browser has one, the bundled one otherwise. The bundled one is
 * loaded only when needed: at once without an on-device recogniser; when the on-device one first
 * fails (that segment and all later ones go to it); or for a segment with more than
 * MAX_REAL_TIME_BACKLOG others waiting behind it.
 * @param {{ onDevice: () => Promise<Recogniser | null>, bundled: () => Promise<Recogniser> }} choices
 * @returns {Promise<Recogniser>}
 */
export async function chooseRecogniser({ onDevice, bundled }) {
  const local = await onDevice().catch(() => null);
  if (!local) return bundled();
  /** @type {Promise<Recogniser> | null} */
  let loaded = null;
  // A load that failed is tried again at the next segment that needs it.
  const bundledOne = () =>
    (loaded ??= bundled().catch((error) => {
      loaded = null;
      throw error;
    }));
  let localFailed = false;
  let name = local.name;
  return {
    get name() {
      return name;
    },
    async transcribe(audio, backlog = 0) {
      if (!localFailed && backlog <= MAX_REAL_TIME_BACKLOG) {
        try {
          return await local.transcribe(audio);
        } catch (error) {
          console.warn('on-device speech recognition failed; the bundled recogniser takes over', error);
          localFailed = true;
        }
      }
      const recogniser = await bundledOne();
      if (localFailed) name = recogniser.name;
      return recogniser.transcribe(audio);
    },
  };
}
