// `npm run bench -- extension-signals`: the extension's models in headless Chromium on this machine,
// as a tester's browser runs them: the built extension's offscreen document with Chromium's fake
// camera playing a face and its fake microphone playing spoken sentences. Figures: milliseconds per
// analysed frame (detector, landmarks, expressions) and the real-time factor of transcription
// (seconds of recogniser compute per second of detected speech segment).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult } from '../../scripts/bench.ts';
import { launchExtensionBrowser } from '../extension/support/browser.ts';
import { smilingFaceVideo } from '../extension/support/fake-camera.ts';
import { spokenSentences } from '../extension/support/fake-microphone.ts';

/** Frames timed after the first few (which include compiling the WebAssembly and warming the nets). */
const FRAMES = 30;
const WARM_UP = 3;
/** Speech segments timed (the sentences in a loop), after the first. */
const SEGMENTS = 9;

declare const chrome: {
  runtime: {
    onMessage: {
      addListener(
        listener: (message: {
          type?: string;
          analysisMs?: number;
          computeMs?: number;
          audioMs?: number;
        }) => void,
      ): void;
    };
  };
};

export async function run(): Promise<BenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'usability-bench-camera-'));
  const browser = await launchExtensionBrowser(
    { video: await smilingFaceVideo(dir), audio: await spokenSentences(dir) },
    { service: 'http://127.0.0.1:3000' }, // no API: the offscreen document is driven directly
  );
  try {
    await browser.context.grantPermissions(['camera', 'microphone']);
    await browser.worker.evaluate(() => {
      const heard = { frames: [] as number[], speech: [] as { computeMs: number; audioMs: number }[] };
      (globalThis as unknown as { heard: typeof heard }).heard = heard;
      chrome.runtime.onMessage.addListener((message) => {
        if (message.type === 'facial-frame' && typeof message.analysisMs === 'number')
          heard.frames.push(message.analysisMs);
        if (
          message.type === 'voice-segment' &&
          message.computeMs !== undefined &&
          message.audioMs !== undefined
        )
          heard.speech.push({ computeMs: message.computeMs, audioMs: message.audioMs });
      });
    });
    // The document the extension opens while recording, opened directly: the same code and devices.
    const page = await browser.context.newPage();
    await page.goto(`chrome-extension://${browser.extensionId}/offscreen.html?camera=1&microphone=1`);
    type Heard = { frames: number[]; speech: { computeMs: number; audioMs: number }[] };
    let heard: Heard = { frames: [], speech: [] };
    const enough = () => heard.frames.length >= WARM_UP + FRAMES && heard.speech.length >= 1 + SEGMENTS;
    const deadline = Date.now() + 180_000;
    while (!enough() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      heard = await browser.worker.evaluate(() => (globalThis as unknown as { heard: Heard }).heard);
    }
    if (!enough())
      throw new Error(`only ${heard.frames.length} frames and ${heard.speech.length} segments in 3 minutes`);
    const timed = heard.frames.slice(WARM_UP).sort((a, b) => a - b);
    const median = timed[Math.floor(timed.length / 2)]!;
    const p95 = timed[Math.floor(timed.length * 0.95)]!;
    const faceMsPerFrame = Math.round(median * 10) / 10;
    const speech = heard.speech.slice(1);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const speechRealTimeFactor =
      Math.round((sum(speech.map((s) => s.computeMs)) / sum(speech.map((s) => s.audioMs))) * 1000) / 1000;
    return {
      figures: { faceMsPerFrame, faceP95MsPerFrame: Math.round(p95 * 10) / 10, speechRealTimeFactor },
      runs: FRAMES,
      targets: { faceMsPerFrame: 100, speechRealTimeFactor: 0.5 },
      meetsTargets: faceMsPerFrame < 100 && speechRealTimeFactor < 0.5,
    };
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}
