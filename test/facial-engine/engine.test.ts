import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { createApi, type Api } from '../../api/app.ts';
import { analyzeResponse } from '../../clients/facial/protocol.ts';
import { loadFaceModel, observeFaces, UnreadableImageError } from '../../facial-engine/face-model.ts';
import { MAX_BODY_BYTES, startFacialEngine, type RunningEngine } from '../../facial-engine/server.ts';
import { dominantEmotion } from '../../lib/dominant-emotion.ts';
import { at, recordingSession, storedRows } from '../ingestion/fixtures.ts';
import { testConfig } from '../support/config.ts';
import { serviceDatabase } from '../support/database.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { blankImage, smilingFaces } from './images.ts';

const TOKEN = 'engine-test-token';

/** The engine as facial-engine/main.ts runs it, on a free port. */
const startRealEngine = () =>
  startFacialEngine(
    {
      observe: observeFaces,
      isUnreadable: (error) => error instanceof UnreadableImageError,
      token: TOKEN,
      ready: loadFaceModel(),
    },
    { host: '127.0.0.1', port: 0 },
  );

describe('the self-hosted facial engine (clients/facial/README.md protocol)', () => {
  let engine: RunningEngine;
  before(async () => {
    engine = await startRealEngine();
  });
  after(() => engine.stop());

  const analyze = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${engine.url}/analyze`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token ${TOKEN}`, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('finds the faces of a photograph, with emotions summing to 1 and no Action Units', async () => {
    const response = await analyze({ image: (await smilingFaces()).toString('base64') });
    assert.equal(response.status, 200);
    const { faces } = analyzeResponse.parse(await response.json());
    assert.ok(faces.length >= 1, 'no face found');
    const first = faces[0]!;
    assert.equal(dominantEmotion(first.emotions), 'happy', JSON.stringify(first.emotions));
    const sum = Object.values(first.emotions).reduce((total, score) => total + score, 0);
    assert.ok(Math.abs(sum - 1) < 0.01, `emotions sum to ${sum}`);
    assert.deepEqual(Object.keys(first.emotions).sort(), [
      'angry',
      'disgust',
      'fear',
      'happy',
      'neutral',
      'sad',
      'surprise',
    ]);
    assert.deepEqual(first.actionUnits, {});
  });

  for (const format of ['png', 'jpeg', 'webp'] as const) {
    it(`answers no face for a blank ${format} image`, async () => {
      const response = await analyze({ image: (await blankImage(format)).toString('base64') });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { faces: [] });
    });
  }

  it('refuses a request without the token, or with another', async () => {
    const image = (await blankImage()).toString('base64');
    assert.equal((await analyze({ image }, { authorization: '' })).status, 401);
    assert.equal((await analyze({ image }, { authorization: `Token ${TOKEN}x` })).status, 401);
  });

  it('answers 400 for a body that is not the protocol, and for bytes that are no image', async () => {
    for (const body of ['{', '[]', { image: '' }, { image: 'not base64!' }, { picture: 'aGVsbG8=' }]) {
      const response = await analyze(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      const answer = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(answer.error.code, 'bad_request');
    }
    const noise = await analyze({ image: randomBytes(4000).toString('base64') });
    assert.equal(noise.status, 400);
    assert.match(((await noise.json()) as { error: { message: string } }).error.message, /JPEG, PNG or WebP/);
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    assert.equal((await analyze({ image: gif.toString('base64') })).status, 400);
  });

  it('answers 413 over the body limit, 415 for another media type, 405 and 404 elsewhere', async () => {
    const large = await analyze({ image: 'A'.repeat(MAX_BODY_BYTES) });
    assert.equal(large.status, 413);
    // Without a Content-Length (chunked), the limit is found while reading: still a 413, not a reset.
    const chunk = new TextEncoder().encode('A'.repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 16) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const chunked = await fetch(`${engine.url}/analyze`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token ${TOKEN}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(chunked.status, 413);
    assert.equal((await analyze('image=x', { 'content-type': 'text/plain' })).status, 415);
    const get = await fetch(`${engine.url}/analyze`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal((await fetch(`${engine.url}/elsewhere`)).status, 404);
  });

  it('reports healthy once the model is loaded, and 503 while it loads', async () => {
    const health = await fetch(`${engine.url}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const loading = await startFacialEngine(
      { observe: observeFaces, isUnreadable: () => false, token: undefined, ready: new Promise(() => {}) },
      { host: '127.0.0.1', port: 0 },
    );
    try {
      const answer = await fetch(`${loading.url}/health`);
      assert.equal(answer.status, 503);
      assert.deepEqual(await answer.json(), { status: 'loading' });
    } finally {
      await loading.stop();
    }
  });
});

describe("POST /api/sessions/:id/snapshots with the project's own engine", () => {
  let engine: RunningEngine;
  let api: Api;
  let url: string;
  before(async () => {
    engine = await startRealEngine();
    api = createApi({
      config: testConfig({ FACIAL_ENGINE_URL: engine.url, FACIAL_ENGINE_TOKEN: TOKEN }),
      db: serviceDatabase(),
      temporal: (await temporalEnvironment()).client,
      logger: pino({ level: 'silent' }),
    });
    url = await api.listen(0, '127.0.0.1');
  });
  after(async () => {
    await api.stop();
    await engine.stop();
  });

  it("stores what the engine says: the face's emotions, and no face for a blank picture", async () => {
    const s = await recordingSession();
    const item = (frameIndex: number, image: Buffer) => ({
      frameIndex,
      timestamp: at(frameIndex),
      attentionScore: 0.8,
      image: image.toString('base64'),
    });
    const response = await fetch(`${url}/api/sessions/${s.sessionId}/snapshots`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Test-Token': s.testToken },
      body: JSON.stringify({ batch: [item(0, await smilingFaces()), item(1, await blankImage())] }),
    });
    assert.equal(response.status, 200, await response.text());
    const rows = await storedRows<{
      face_detected: boolean;
      emotion: string | null;
      confidences: Record<string, number>;
      action_units: Record<string, number>;
    }>('facial_snapshots', s.sessionId);
    assert.deepEqual(
      rows.map((row) => [row.face_detected, row.emotion]),
      [
        [true, 'happy'],
        [false, null],
      ],
    );
    assert.ok(rows[0]!.confidences.happy! > 0.5, JSON.stringify(rows[0]!.confidences));
    assert.deepEqual(rows[0]!.action_units, {});
  });
});
