import assert from 'node:assert/strict';
import type { ZodObject } from 'zod';
import {
  eventItem,
  facialItem,
  noFaceFrame,
  recordingChunkItem,
  snapshotItem,
  voiceItem,
} from '../../commands/ingestion/items.schema.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

type Json = Record<string, unknown>;
interface ItemSchema {
  type: string;
  anyOf?: ItemSchema[];
  required: string[];
  properties: Record<string, Json>;
}
interface Operation {
  security: Record<string, string[]>[];
  requestBody: {
    content: { 'application/json': { schema: { properties: { batch: { items: ItemSchema } } } } };
  };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Json> };
}

/** The item tables of the spec ("Ingestion items"): which fields each item must carry. */
const REQUIRED = {
  events: ['eventType', 'targetSelector', 'timestamp'],
  facial: ['attentionScore', 'emotions', 'frameIndex', 'timestamp'],
  voice: ['endTime', 'segmentIndex', 'sentiment', 'sentimentScore', 'startTime', 'transcript'],
  snapshots: ['attentionScore', 'frameIndex', 'image', 'timestamp'],
  noFace: ['attentionScore', 'faceDetected', 'frameIndex', 'timestamp'],
  recording: ['chunk', 'recording'],
};

describe('OpenAPI document of the ingestion endpoints', () => {
  let api: TestApi;
  let document: OpenApiDocument;
  before(async () => {
    api = await startTestApi({ worker: false });
    document = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as OpenApiDocument;
  });
  after(() => api.stop());

  const itemsOf = (path: string): ItemSchema => {
    const operation = document.paths[path]?.post;
    assert.ok(operation, `POST ${path} is documented`);
    // Any value is taken and rejected alone: the item's table, or anything else (said so).
    const { anyOf } = operation.requestBody.content['application/json'].schema.properties.batch
      .items as unknown as {
      anyOf: [ItemSchema, { description: string }];
    };
    assert.equal(anyOf.length, 2, path);
    assert.match(anyOf[1].description, /rejected alone/);
    return anyOf[0];
  };
  const fieldsOf = (schema: ZodObject) => Object.keys(schema.shape).sort();

  it("documents each batch's items with the fields of the spec's item table", () => {
    const cases = [
      ['/api/data/events', eventItem, REQUIRED.events],
      ['/api/sessions/{id}/events', eventItem, REQUIRED.events],
      ['/api/data/facial', facialItem, REQUIRED.facial],
      ['/api/data/voice', voiceItem, REQUIRED.voice],
      ['/api/sessions/{id}/voice', voiceItem, REQUIRED.voice],
    ] as const;
    for (const [path, schema, required] of cases) {
      const items = itemsOf(path);
      assert.equal(items.type, 'object', path);
      assert.deepEqual(Object.keys(items.properties).sort(), fieldsOf(schema as unknown as ZodObject), path);
      assert.deepEqual([...items.required].sort(), required, path);
    }
    // The extension's route takes an image, a frame analysed on the tester's machine, no face, or a
    // chunk of the DOM recording.
    const snapshotKinds = itemsOf('/api/sessions/{id}/snapshots').anyOf ?? [];
    const kinds = [
      [snapshotItem, REQUIRED.snapshots],
      [facialItem, REQUIRED.facial],
      [noFaceFrame, REQUIRED.noFace],
      [recordingChunkItem, REQUIRED.recording],
    ] as const;
    assert.equal(snapshotKinds.length, kinds.length);
    kinds.forEach(([schema, required], index) => {
      const items = snapshotKinds[index]!;
      assert.equal(items.type, 'object');
      assert.deepEqual(Object.keys(items.properties).sort(), fieldsOf(schema as unknown as ZodObject));
      assert.deepEqual([...items.required].sort(), required);
    });
    const event = itemsOf('/api/data/events').properties;
    assert.deepEqual(event.eventType!.enum, [
      'click',
      'scroll',
      'input',
      'focus',
      'blur',
      'navigation',
      'error',
    ]);
    assert.equal(event.timestamp!.format, 'date-time');
    const voice = itemsOf('/api/data/voice').properties;
    assert.deepEqual(voice.sentiment!.enum, ['positive', 'neutral', 'negative']);
    assert.deepEqual([voice.sentimentScore!.minimum, voice.sentimentScore!.maximum], [-1, 1]);
  });

  it('the four test-token endpoints accept the X-Test-Token header scheme, and no other endpoint does', () => {
    assert.deepEqual(document.components.securitySchemes.testToken, {
      type: 'apiKey',
      in: 'header',
      name: 'X-Test-Token',
    });
    const withTestToken = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => (operation.security ?? []).some((scheme) => 'testToken' in scheme))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(withTestToken.sort(), [
      'PATCH /api/sessions/{id}',
      'POST /api/sessions/{id}/events',
      'POST /api/sessions/{id}/snapshots',
      'POST /api/sessions/{id}/voice',
    ]);
    const patch = document.paths['/api/sessions/{id}']!.patch!;
    assert.deepEqual(patch.security, [{ bearerJwt: [] }, { sessionCookie: [] }, { testToken: [] }]);
  });
});
