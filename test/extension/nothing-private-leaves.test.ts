import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import sharp from 'sharp';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { smilingFaceVideo } from './support/fake-camera.ts';
import { spokenSentences } from './support/fake-microphone.ts';
import { startForwardProxy, type ForwardProxy } from './support/forward-proxy.ts';
import { allowDevice } from './support/media.ts';
import { privateBytesIn } from './support/private-bytes.ts';
import { MODEL_LOAD_MS, popupShows } from './support/session.ts';
import { openedTab, startFromItsPage } from './support/start-page.ts';
import { extensionSuite } from './support/suite.ts';

// Issue 32, point 5: a whole session with the camera, the microphone and the screen recording on,
// started from its start page as an accepted offer leads there, every request the browser sends kept
// by a proxy in front of all of it: no picture, no sound, no typed character in any of them.

// Not the fixture page's own address (its link carries jane.secret@example.com): what the tester types.
const EMAIL = 'robin.private@example.org';
const PASSWORD = 'hunter2-very-secret';

describe('the check for private bytes in a request', () => {
  it('finds pictures and sounds raw, in base64, in gzip in base64, and data URLs', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const jpeg = await sharp(png).jpeg().toBuffer();
    const wav = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(64)]);
    const json = (value: unknown) => Buffer.from(JSON.stringify(value));
    assert.deepEqual(privateBytesIn(png, []), ['body: PNG bytes']);
    assert.deepEqual(privateBytesIn(json({ image: jpeg.toString('base64') }), []), [
      'body > base64: JPEG bytes',
    ]);
    assert.deepEqual(privateBytesIn(json({ audio: wav.toString('base64') }), []), [
      'body > base64: WAV bytes',
    ]);
    const packed = gzipSync(json([{ text: `Receipt to ${EMAIL}`, src: `data:image/png;base64,AAAA` }]));
    assert.deepEqual(privateBytesIn(json({ recording: packed.toString('base64') }), [EMAIL]), [
      'body > base64 > gzip: a data URL of media',
      `body > base64 > gzip: the typed "${EMAIL}"`,
    ]);
    assert.deepEqual(
      privateBytesIn(Buffer.from(`/shop?email=${encodeURIComponent(EMAIL)}`), [EMAIL], 'url'),
      [`url: the typed "${EMAIL}"`],
    );
    // What the extension does send: scores, text, masked recordings.
    const masked = gzipSync(json([{ type: 3, data: { source: 5, text: '*'.repeat(EMAIL.length) } }]));
    assert.deepEqual(
      privateBytesIn(
        json({
          batch: [
            { frameIndex: 1, emotions: { happy: 1 } },
            { chunk: 0, recording: masked.toString('base64') },
          ],
        }),
        [EMAIL],
      ),
      [],
    );
  });
});

describe('Browser extension: nothing private leaves the machine', function () {
  this.timeout(300_000);
  let dir = '';
  let proxy: ForwardProxy | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'usability-private-'));
    proxy = await startForwardProxy();
  });
  after(async () => {
    await proxy?.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const suite = extensionSuite(
    async () => ({ video: await smilingFaceVideo(dir), audio: await spokenSentences(dir) }),
    { proxy: () => proxy!.url },
  );
  before(async () => {
    await asSystem(testDatabase(), (tx) =>
      sql`update studies set record_screen = true, record_facial = true, record_voice = true,
            prototype_url = ${`${suite.site.url}/shop/one`}
          where id = ${suite.study.jobId}`.execute(tx),
    );
  });

  const stored = async (sessionId: string) =>
    asSystem(testDatabase(), async (tx) => {
      const count = async (table: 'facial_snapshots' | 'voice_segments' | 'session_recording_chunks') =>
        Number(
          (
            await tx
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('session_id', '=', sessionId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      return {
        frames: await count('facial_snapshots'),
        segments: await count('voice_segments'),
        chunks: await count('session_recording_chunks'),
      };
    });

  it('a session with the camera, the microphone and the screen recording sends no picture, no sound and nothing typed', async () => {
    // Started as an accepted offer leads: the start page hands the session over, the prototype opens.
    const { sessionId } = await startFromItsPage(suite, { afterAccept: true });
    const session = { sessionId };
    const page = await openedTab(suite.browser.context, (url) => url.startsWith(suite.site.url));
    await page.waitForLoadState();
    const popup = await suite.browser.openPopup();
    await popupShows(popup, '#phase', 'recording');
    await allowDevice(popup, 'camera');
    await allowDevice(popup, 'microphone');
    await popupShows(popup, '#camera', /^on: expression scores only/, MODEL_LOAD_MS);
    await popupShows(popup, '#microphone', /^on: transcripts only/, MODEL_LOAD_MS);
    await page.click('#email');
    await page.keyboard.type(EMAIL);
    await page.click('#password');
    await page.keyboard.type(PASSWORD);
    await page.click('#to-two');
    await page.waitForURL(/\/shop\/two/);
    // Every signal has been sent before the session ends: frames, words, the recording.
    for (const deadline = Date.now() + 120_000; ;) {
      const counts = await stored(session.sessionId);
      if (counts.frames >= 3 && counts.segments >= 1 && counts.chunks >= 2) break;
      assert.ok(Date.now() < deadline, `stored so far: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await popup.getByRole('button', { name: 'Complete' }).click();
    await popupShows(popup, '#phase', /^completed/, 60_000);

    const requests = proxy!.requests;
    // The extension reaches the API through the suite's recording proxy, its API base.
    const toApi = requests.filter((request) => request.url.startsWith(suite.proxy.url));
    assert.ok(
      toApi.some(
        (request) => request.method === 'POST' && request.url.endsWith(`/sessions/${sessionId}/start`),
      ),
      "the start page's button was pressed through the proxy too",
    );
    for (const path of ['/snapshots', '/voice', '/events'])
      assert.ok(
        toApi.some((request) => new URL(request.url).pathname.endsWith(path)),
        `the proxy saw no request to ${path}`,
      );
    assert.ok(
      toApi.some((request) => request.body.includes('"recording"')),
      'the proxy saw no chunk of the recording',
    );
    const found = requests.flatMap((request) => [
      ...privateBytesIn(Buffer.from(request.url), [EMAIL, PASSWORD], `${request.method} ${request.url}`),
      ...privateBytesIn(request.body, [EMAIL, PASSWORD], `${request.method} ${request.url} body`),
    ]);
    assert.deepEqual(found, []);
    // Chromium's own services (autofill, sign-in, updates) ask for TLS tunnels the proxy cannot
    // read: they are refused, so nothing passes through them; the extension and pages ask for none.
    const tunnels = requests.filter((request) => request.method === 'CONNECT').map((request) => request.url);
    assert.deepEqual(
      tunnels.filter(
        (host) => !/^[a-z0-9.-]+\.(google\.com|googleapis\.com|gstatic\.com|gvt1\.com):443$/.test(host),
      ),
      [],
      "a tunnel to anything but the browser's own services",
    );
  });
});
