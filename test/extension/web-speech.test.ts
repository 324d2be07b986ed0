import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { FULL_CHROMIUM_PATH } from '../../scripts/lib/tools.ts';

// The on-device Web Speech recogniser (extension/web-speech-recogniser.js) and the choice between it
// and the bundled one. Debian's Chromium has no on-device speech model, so the browser's
// SpeechRecognition is played here by a stand-in with the API's shape: it listens to the track it
// is started on, as Chrome's does, and answers with how long it heard sound, so the tests see
// whether the whole segment reached it.

const SOURCE_DIR = fileURLToPath(new URL('../../extension', import.meta.url));
const ORIGIN = 'http://recogniser.test';

/** The stand-in, installed before the page's scripts; `window.speechTest` steers and records it. */
const FAKE_RECOGNITION = `
window.speechTest = { availability: 'available', error: null, availableAsked: [], started: [] };
class FakeRecognition {
  lang = ''; continuous = false; interimResults = true; maxAlternatives = 1;
  onresult = null; onerror = null; onend = null; onstart = null;
  // An attribute on the prototype, as the browser's interfaces have them.
  get processLocally() { return this.local ?? false; }
  set processLocally(value) { this.local = value; }
  static async available(options) {
    window.speechTest.availableAsked.push(options);
    return window.speechTest.availability;
  }
  start(track) {
    if (!track || track.kind !== 'audio' || track.readyState !== 'live')
      throw new DOMException('not a live audio track', 'InvalidStateError');
    window.speechTest.started.push({ lang: this.lang, processLocally: this.processLocally, continuous: this.continuous });
    this.context = new AudioContext();
    const source = this.context.createMediaStreamSource(new MediaStream([track]));
    const tap = this.context.createScriptProcessor(1024, 1, 1);
    this.loudSamples = 0;
    tap.onaudioprocess = (event) => {
      for (const sample of event.inputBuffer.getChannelData(0)) if (Math.abs(sample) > 0.05) this.loudSamples++;
    };
    source.connect(tap);
    tap.connect(this.context.destination);
    setTimeout(() => this.onstart?.(), 50);
  }
  stop() {
    const seconds = this.loudSamples / this.context.sampleRate;
    void this.context.close();
    const error = window.speechTest.error;
    if (error) this.onerror?.({ error });
    else {
      const result = [{ transcript: ' heard ' + seconds.toFixed(2) + ' seconds ' }];
      result.isFinal = true;
      this.onresult?.({ resultIndex: 0, results: [result] });
    }
    this.onend?.();
  }
  abort() { this.stop(); }
}
window.SpeechRecognition = FakeRecognition;
`;

/** Runs in the page: the recogniser chosen, and its answers for tone segments of the given seconds. */
const TRANSCRIBE = `async ({ seconds, errors, backlogs }) => {
  const { chooseRecogniser, onDeviceWebSpeech } = await import('/web-speech-recogniser.js');
  const rate = 16000;
  let bundledLoads = 0;
  const recogniser = await chooseRecogniser({
    onDevice: () => onDeviceWebSpeech({ sampleRate: rate }),
    bundled: async () => {
      bundledLoads++;
      return { name: 'bundled', transcribe: async (audio) => 'bundled heard ' + (audio.length / rate) + ' seconds' };
    },
  });
  const names = [recogniser.name];
  const transcripts = [];
  for (const [i, length] of seconds.entries()) {
    window.speechTest.error = errors[i] ?? null;
    // Half a second of silence, then a loud tone to the end.
    const audio = new Float32Array(Math.round(length * rate));
    for (let s = rate / 2; s < audio.length; s++) audio[s] = 0.5 * Math.sin((2 * Math.PI * 220 * s) / rate);
    transcripts.push(await recogniser.transcribe(audio, backlogs[i] ?? 0));
    names.push(recogniser.name);
  }
  return { names, transcripts, bundledLoads, asked: window.speechTest.availableAsked, started: window.speechTest.started };
}`;

interface Outcome {
  names: string[];
  transcripts: string[];
  bundledLoads: number;
  asked: { langs: string[]; processLocally: boolean }[];
  started: { lang: string; processLocally: boolean; continuous: boolean }[];
}

describe('Browser extension: the on-device Web Speech recogniser', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await chromium.launch({
      executablePath: FULL_CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required'],
    });
  });
  after(() => browser?.close());

  /** A page at ORIGIN serving the extension's sources, with the stand-in set up by `setup`. */
  async function open(setup = ''): Promise<void> {
    page = await browser.newPage();
    await page.route(`${ORIGIN}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/')
        return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>t</title>' });
      return route.fulfill({ path: join(SOURCE_DIR, path), contentType: 'text/javascript' });
    });
    await page.addInitScript(FAKE_RECOGNITION + setup);
    await page.goto(`${ORIGIN}/`);
  }
  afterEach(() => page?.close());

  const transcribe = (seconds: number[], errors: (string | null)[] = [], backlogs: number[] = []) =>
    page.evaluate<Outcome>(`(${TRANSCRIBE})(${JSON.stringify({ seconds, errors, backlogs })})`);

  it('is chosen where the browser has an English model on this computer, and hears each segment whole', async () => {
    await open();
    const outcome = await transcribe([2, 1.5]);
    assert.deepEqual(outcome.asked, [{ langs: ['en-US'], processLocally: true }]);
    assert.equal(outcome.names[0], 'web-speech-on-device');
    assert.equal(outcome.bundledLoads, 0, 'the bundled recogniser was loaded although not needed');
    assert.deepEqual(
      outcome.started.map((started) => started.processLocally),
      [true, true],
      'recognition may run only on this computer',
    );
    assert.ok(outcome.started.every((started) => started.lang === 'en-US' && started.continuous));
    // Each segment: 0.5 s of silence, then tone: 1.5 s and 1 s of sound reached the recogniser.
    const heard = outcome.transcripts.map((text) => Number(/^heard ([\d.]+) seconds$/.exec(text)?.[1]));
    assert.ok(Math.abs(heard[0]! - 1.5) < 0.2, `first segment: ${outcome.transcripts[0]}`);
    assert.ok(Math.abs(heard[1]! - 1) < 0.2, `second segment: ${outcome.transcripts[1]}`);
  });

  for (const [availability, why] of [
    ['downloadable', 'a model the browser would have to download'],
    ['unavailable', 'no model for the language'],
  ] as const) {
    it(`is not used with ${why} ("${availability}"): the bundled recogniser is`, async () => {
      await open(`window.speechTest.availability = '${availability}';`);
      const outcome = await transcribe([1]);
      assert.equal(outcome.names[0], 'bundled');
      assert.deepEqual(outcome.transcripts, ['bundled heard 1 seconds']);
      assert.deepEqual(outcome.started, [], 'the browser recogniser was started');
    });
  }

  for (const [browserKind, setup] of [
    // Chrome before on-device recognition: the interface sends the sound to a server.
    [
      'cannot promise local processing',
      'window.SpeechRecognition = class { static available = FakeRecognition.available; };',
    ],
    ['cannot say whether a model is installed', 'delete FakeRecognition.available;'],
    ['has no speech recognition', 'delete window.SpeechRecognition; delete window.webkitSpeechRecognition;'],
  ] as const) {
    it(`is not used by a browser that ${browserKind}: the bundled recogniser is`, async () => {
      await open(setup);
      const outcome = await transcribe([1]);
      assert.equal(outcome.names[0], 'bundled');
      assert.deepEqual(outcome.transcripts, ['bundled heard 1 seconds']);
      assert.deepEqual(outcome.started, []);
    });
  }

  it('leaves a segment with more than two waiting behind it to the bundled recogniser, which keeps up', async () => {
    await open();
    const outcome = await transcribe([1, 1, 1], [], [3, 2, 0]);
    assert.deepEqual(outcome.transcripts.slice(0, 1), ['bundled heard 1 seconds']);
    assert.match(outcome.transcripts[1] ?? '', /^heard /);
    assert.match(outcome.transcripts[2] ?? '', /^heard /);
    assert.equal(outcome.started.length, 2, 'the on-device recogniser heard the segments with a short queue');
  });

  it('hands over to the bundled recogniser when it fails, from that segment on; silence is no failure', async () => {
    await open();
    const outcome = await transcribe([1, 1, 1, 1], ['no-speech', 'network', null, null]);
    assert.deepEqual(outcome.transcripts, [
      '',
      'bundled heard 1 seconds',
      'bundled heard 1 seconds',
      'bundled heard 1 seconds',
    ]);
    assert.equal(outcome.bundledLoads, 1);
    assert.equal(outcome.started.length, 2, 'the failed on-device recogniser was asked again');
    assert.deepEqual(outcome.names, [
      'web-speech-on-device',
      'web-speech-on-device',
      'bundled',
      'bundled',
      'bundled',
    ]);
  });
});
