import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { asSystem } from '../../db/doors.ts';
import { studyStatusQuery, studyWorkflowId } from '../../workflows/messages/study.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester, studiesOf, type BusinessFixture } from '../support/factories.ts';
import { abStudyBody, CREATED_STUDY_FIELDS, validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';

type Body = Record<string, unknown> & {
  tasks: Record<string, unknown>[];
  targeting: Record<string, unknown>;
  compensation: Record<string, unknown>;
};

/** A valid body with one change; the change is the rule under test. */
function bodyWith(change: (body: Body) => void, base: Record<string, unknown> = validStudyBody()): Body {
  const body = structuredClone(base) as Body;
  change(body);
  return body;
}

const orderedTasks = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    title: `Task ${index}`,
    description: 'Do it',
    order: index + 1,
  }));

/** Each rule of the create body: the change that breaks it and the exact 422 message. */
const validationCases: readonly [rule: string, change: (body: Body) => void, error: string][] = [
  ['title is required', (b) => delete b.title, 'title: Required'],
  ['description is required', (b) => delete b.description, 'description: Required'],
  ['prototypeUrl is required', (b) => delete b.prototypeUrl, 'prototypeUrl: Required'],
  ['prototypeType is required', (b) => delete b.prototypeType, 'prototypeType: Required'],
  ['tasks is required', (b) => Reflect.deleteProperty(b, 'tasks'), 'tasks: Required'],
  ['targeting is required', (b) => Reflect.deleteProperty(b, 'targeting'), 'targeting: Required'],
  ['compensation is required', (b) => Reflect.deleteProperty(b, 'compensation'), 'compensation: Required'],
  ['a task title is required', (b) => delete b.tasks[0]!.title, 'tasks[0].title: Required'],
  ['a task description is required', (b) => delete b.tasks[1]!.description, 'tasks[1].description: Required'],
  ['a task order is required', (b) => delete b.tasks[0]!.order, 'tasks[0].order: Required'],
  ['targeting.countries is required', (b) => delete b.targeting.countries, 'targeting.countries: Required'],
  ['targeting.devices is required', (b) => delete b.targeting.devices, 'targeting.devices: Required'],
  [
    'targeting.testerCount is required',
    (b) => delete b.targeting.testerCount,
    'targeting.testerCount: Required',
  ],
  [
    'compensation.currency is required',
    (b) => delete b.compensation.currency,
    'compensation.currency: Required',
  ],
  ['compensation.amount is required', (b) => delete b.compensation.amount, 'compensation.amount: Required'],
  ['compensation.type is required', (b) => delete b.compensation.type, 'compensation.type: Required'],
  ['abTest.enabled is required', (b) => (b.abTest = { variants: [] }), 'abTest.enabled: Required'],
  ['abTest.variants is required', (b) => (b.abTest = { enabled: true }), 'abTest.variants: Required'],
  ['title must not be blank', (b) => (b.title = '   '), 'title: Must not be empty'],
  [
    'title is at most 200 characters',
    (b) => (b.title = 'x'.repeat(201)),
    'title: Must be at most 200 characters',
  ],
  [
    'description is at most 5,000 characters',
    (b) => (b.description = 'x'.repeat(5001)),
    'description: Must be at most 5000 characters',
  ],
  [
    'prototypeUrl must be an http(s) URL',
    (b) => (b.prototypeUrl = 'ftp://files.example/proto'),
    'prototypeUrl: Must be an http or https URL',
  ],
  [
    'prototypeType is one of design_tool_1, design_tool_2, design_tool_3, url',
    (b) => (b.prototypeType = 'figma'),
    'prototypeType: Invalid option: expected one of "design_tool_1"|"design_tool_2"|"design_tool_3"|"url"',
  ],
  ['tasks must not be empty', (b) => (b.tasks = []), 'tasks: At least one task is required'],
  ['at most 100 tasks', (b) => (b.tasks = orderedTasks(101)), 'tasks: At most 100 tasks'],
  ['task order is 1-indexed', (b) => (b.tasks[0]!.order = 0), 'tasks[0].order: Must be 1 or more'],
  ['task order is an integer', (b) => (b.tasks[0]!.order = 1.5), 'tasks[0].order: Must be an integer'],
  [
    'tasks are numbered without gaps',
    (b) => (b.tasks[1]!.order = 3),
    'tasks[1].order: Expected 2: tasks are listed in order and numbered from 1 without gaps',
  ],
  [
    'tasks are listed in order',
    (b) => {
      b.tasks[0]!.order = 2;
      b.tasks[1]!.order = 1;
    },
    'tasks[0].order: Expected 1: tasks are listed in order and numbered from 1 without gaps',
  ],
  ...['gb', 'XX', 'GBR'].map((code): [string, (b: Body) => void, string] => [
    `countries are ISO 3166-1 alpha-2 codes (rejects ${code})`,
    (b) => (b.targeting.countries = ['GB', code]),
    'targeting.countries[1]: Must be an ISO 3166-1 alpha-2 country code (e.g. GB)',
  ]),
  [
    'countries must not be empty',
    (b) => (b.targeting.countries = []),
    'targeting.countries: At least one country is required',
  ],
  [
    'devices are desktop, mobile or tablet',
    (b) => (b.targeting.devices = ['desktop', 'watch']),
    'targeting.devices[1]: Invalid option: expected one of "desktop"|"mobile"|"tablet"',
  ],
  [
    'devices must not be empty',
    (b) => (b.targeting.devices = []),
    'targeting.devices: At least one device is required',
  ],
  ...['!!garbage!!', 'en_US', 'e', 'english'].map((tag): [string, (b: Body) => void, string] => [
    `languages are BCP 47 tags (rejects ${tag})`,
    (b) => (b.targeting.languages = ['en', tag]),
    'targeting.languages[1]: Must be a BCP 47 language tag with a registered language (e.g. en, pt-BR)',
  ]),
  [
    'testerCount is a positive integer (0)',
    (b) => (b.targeting.testerCount = 0),
    'targeting.testerCount: Must be a positive integer',
  ],
  [
    'testerCount is a positive integer (-5)',
    (b) => (b.targeting.testerCount = -5),
    'targeting.testerCount: Must be a positive integer',
  ],
  [
    'testerCount is an integer',
    (b) => (b.targeting.testerCount = 2.5),
    'targeting.testerCount: Must be an integer',
  ],
  [
    'testerCount is a number, not a string',
    (b) => (b.targeting.testerCount = '10'),
    'targeting.testerCount: Invalid input: expected number, received string',
  ],
  [
    'testerCount is at most 10,000',
    (b) => (b.targeting.testerCount = 10_001),
    'targeting.testerCount: Too big: expected number to be <=10000',
  ],
  [
    'ages are 13 or more',
    (b) => (b.targeting.ageRange = { min: 12, max: 30 }),
    'targeting.ageRange.min: Too small: expected number to be >=13',
  ],
  [
    'ageRange min does not exceed max',
    (b) => (b.targeting.ageRange = { min: 40, max: 30 }),
    'targeting.ageRange.min: min must not exceed max',
  ],
  [
    'splitRatio must sum to 1.0 (0.6 + 0.6)',
    (b) => Object.assign(b, abStudyBody(['A', 'B'], { A: 0.6, B: 0.6 })),
    'abTest.splitRatio: Proportions must sum to 1.0 (got 1.2)',
  ],
  [
    'splitRatio names every variant',
    (b) => Object.assign(b, abStudyBody(['A', 'B'], { A: 1 })),
    'abTest.splitRatio.B: Required for every variant',
  ],
  [
    'splitRatio names only variants',
    (b) => Object.assign(b, abStudyBody(['A', 'B'], { A: 0.5, B: 0.25, C: 0.25 })),
    'abTest.splitRatio.C: Not a variant label',
  ],
  [
    'each split share is above 0',
    (b) => Object.assign(b, abStudyBody(['A', 'B'], { A: 0, B: 1 })),
    'abTest.splitRatio.A: Must be above 0',
  ],
  [
    'a split share that numeric(7, 6) would round to 0 is refused',
    (b) => Object.assign(b, abStudyBody(['A', 'B'], { A: 1e-300, B: 1 })),
    'abTest.splitRatio.A: Must be at least 0.000001',
  ],
  [
    'a title with a NUL character is refused, not left to the database',
    (b) => Object.assign(b, { title: 'Checkout\u0000' }),
    'title: must not contain NUL characters',
  ],
  [
    'a title with a lone surrogate is refused, not stored as a replacement character',
    (b) => Object.assign(b, { title: 'Checkout \ud83d' }),
    'title: must be valid Unicode (it holds a lone surrogate)',
  ],
  [
    'an enabled A/B test needs at least 2 variants',
    (b) => Object.assign(b, abStudyBody(['A'])),
    'abTest.variants: An enabled A/B test needs at least 2 variants',
  ],
  [
    'an A/B test has at most 10 variants',
    (b) => Object.assign(b, abStudyBody(Array.from({ length: 11 }, (_, i) => `V${i}`))),
    'abTest.variants: At most 10 variants',
  ],
  [
    'variant labels are unique',
    (b) => Object.assign(b, abStudyBody(['A', 'B', 'A'])),
    'abTest.variants[2].label: Variant labels must be unique',
  ],
  ...['eur', 'EURO', 'XYZ'].map((code): [string, (b: Body) => void, string] => [
    `currency is an ISO 4217 code (rejects ${code})`,
    (b) => (b.compensation.currency = code),
    'compensation.currency: Must be an ISO 4217 currency code (e.g. EUR)',
  ]),
  [
    'compensation amount is above 0',
    (b) => (b.compensation.amount = 0),
    'compensation.amount: Must be above 0',
  ],
  [
    'compensation amount has at most 2 decimals',
    (b) => (b.compensation.amount = 10.555),
    'compensation.amount: At most 2 decimal places',
  ],
  [
    'compensation amount is at most 100,000',
    (b) => (b.compensation.amount = 100_001),
    'compensation.amount: Too big: expected number to be <=100000',
  ],
  [
    'compensation type is flat only',
    (b) => (b.compensation.type = 'hourly'),
    'compensation.type: Must be flat',
  ],
  [
    'maxDurationMinutes is 1 or more',
    (b) => (b.settings = { maxDurationMinutes: 0 }),
    'settings.maxDurationMinutes: Too small: expected number to be >=1',
  ],
  [
    'maxDurationMinutes is at most 1,440',
    (b) => (b.settings = { maxDurationMinutes: 1441 }),
    'settings.maxDurationMinutes: Too big: expected number to be <=1440',
  ],
  [
    'reminderAfterHours is at most 720',
    (b) => (b.settings = { reminderAfterHours: 721 }),
    'settings.reminderAfterHours: Too big: expected number to be <=720',
  ],
  [
    'settings flags are booleans',
    (b) => (b.settings = { recordScreen: 'yes' }),
    'settings.recordScreen: Invalid input: expected boolean, received string',
  ],
  [
    'toneProfile is one of standard, supportive, moderate, restorative',
    (b) => (b.toneProfile = 'harsh'),
    'toneProfile: Invalid option: expected one of "standard"|"supportive"|"moderate"|"restorative"',
  ],
];

interface CreatedStudy {
  jobId: string;
  title: string;
  status: string;
  testerCount: number;
  abTestEnabled: boolean;
  variants: string[];
  estimatedLaunchDate: string;
  createdAt: string;
}

describe('POST /api/jobs', () => {
  let api: TestApi;
  let business: BusinessFixture;
  let token: string;

  before(async () => {
    api = await startTestApi();
    business = await createBusiness('pro');
    token = await sessionToken(business.claims);
  });
  after(() => api.stop());

  const create = (body: unknown, headers?: Record<string, string>, as = token) =>
    api.request('POST', '/api/jobs', { body, token: as, ...(headers ? { headers } : {}) });

  describe('validation: 422 naming the first violation', () => {
    for (const [rule, change, error] of validationCases) {
      it(`${rule}: 422 "${error}"`, async () => {
        const before = await studiesOf([business.organizationId]);
        const response = await create(bodyWith(change));
        assert.equal(response.status, 422);
        assert.equal(response.body.success, false);
        assert.equal(response.body.data, null);
        assert.equal(response.body.error, error);
        assert.equal(await studiesOf([business.organizationId]), before);
      });
    }
  });

  describe('success', () => {
    it('answers 201 with exactly the spec fields: jobId, title, status draft, testerCount, abTestEnabled, variants, estimatedLaunchDate, createdAt', async () => {
      const response = await create(validStudyBody());
      assert.equal(response.status, 201);
      assert.equal(response.body.success, true);
      assert.equal(response.body.error, null);
      const data = response.body.data as CreatedStudy;
      assert.deepEqual(Object.keys(data).sort(), CREATED_STUDY_FIELDS);
      assert.match(data.jobId, /^[0-9a-f-]{36}$/);
      assert.equal(data.title, 'Checkout flow study');
      assert.equal(data.status, 'draft');
      assert.equal(data.testerCount, 10);
      assert.equal(data.abTestEnabled, false);
      assert.deepEqual(data.variants, []);
      assert.equal(new Date(data.createdAt).toISOString(), data.createdAt);
      assert.ok(Date.parse(data.estimatedLaunchDate) > Date.parse(data.createdAt));
    });

    it('defaults are visible through GET /api/jobs/:id: languages ["en"], settings with maxDurationMinutes 60, toneProfile moderate', async () => {
      const created = await create(validStudyBody());
      const { jobId } = created.body.data as CreatedStudy;
      const read = await api.request('GET', `/api/jobs/${jobId}`, { token });
      assert.equal(read.status, 200);
      const study = read.body.data as {
        targeting: { languages: string[]; countries: string[]; ageRange: unknown };
        settings: Record<string, unknown>;
        toneProfile: string;
        abTest: unknown;
        tasks: { order: number; title: string; successCriteria: string | null }[];
      };
      assert.deepEqual(study.targeting.languages, ['en']);
      assert.deepEqual(study.targeting.countries, ['GB', 'DE']);
      assert.equal(study.targeting.ageRange, null);
      assert.deepEqual(study.settings, {
        requireThinkAloud: false,
        recordScreen: false,
        recordFacial: false,
        recordVoice: false,
        maxDurationMinutes: 60,
        reminderAfterHours: null,
      });
      assert.equal(study.toneProfile, 'moderate');
      assert.deepEqual(study.abTest, { enabled: false, variants: [], splitRatio: {} });
      assert.deepEqual(
        study.tasks.map((t) => [t.order, t.title, t.successCriteria]),
        [
          [1, 'Find a product', null],
          [2, 'Pay', 'Order page shown'],
        ],
      );
    });

    it('stores given languages, settings and toneProfile instead of the defaults', async () => {
      const body = bodyWith((b) => {
        b.targeting.languages = ['pt-BR', 'de'];
        b.settings = { recordScreen: true, maxDurationMinutes: 30, reminderAfterHours: 24 };
        b.toneProfile = 'supportive';
      });
      const { jobId } = (await create(body)).body.data as CreatedStudy;
      const study = (await api.request('GET', `/api/jobs/${jobId}`, { token })).body.data as {
        targeting: { languages: string[] };
        settings: { recordScreen: boolean; maxDurationMinutes: number; reminderAfterHours: number };
        toneProfile: string;
      };
      assert.deepEqual(study.targeting.languages, ['pt-BR', 'de']);
      assert.equal(study.settings.recordScreen, true);
      assert.equal(study.settings.maxDurationMinutes, 30);
      assert.equal(study.settings.reminderAfterHours, 24);
      assert.equal(study.toneProfile, 'supportive');
    });

    it('an A/B test without splitRatio gets an equal split; the response lists the variant labels', async () => {
      const response = await create(abStudyBody(['A', 'B']));
      assert.equal(response.status, 201);
      const data = response.body.data as CreatedStudy;
      assert.equal(data.abTestEnabled, true);
      assert.deepEqual(data.variants, ['A', 'B']);
      const study = (await api.request('GET', `/api/jobs/${data.jobId}`, { token })).body.data as {
        abTest: { splitRatio: Record<string, number> };
      };
      assert.deepEqual(study.abTest.splitRatio, { A: 0.5, B: 0.5 });
    });

    it('an A/B test keeps a given splitRatio summing to 1.0', async () => {
      const response = await create(abStudyBody(['A', 'B'], { A: 0.7, B: 0.3 }));
      assert.equal(response.status, 201);
      const { jobId } = response.body.data as CreatedStudy;
      const study = (await api.request('GET', `/api/jobs/${jobId}`, { token })).body.data as {
        abTest: { splitRatio: Record<string, number> };
      };
      assert.deepEqual(study.abTest.splitRatio, { A: 0.7, B: 0.3 });
    });

    it('a disabled A/B test stores no variants', async () => {
      const body = { ...abStudyBody(['A', 'B']), abTest: { enabled: false, variants: [{ label: 'A' }] } };
      const data = (await create(body)).body.data as CreatedStudy;
      assert.equal(data.abTestEnabled, false);
      assert.deepEqual(data.variants, []);
    });

    it('starts a RUNNING workflow study:<jobId> whose status query answers draft', async () => {
      const { jobId } = (await create(validStudyBody())).body.data as CreatedStudy;
      const handle = (await temporalEnvironment()).client.workflow.getHandle(studyWorkflowId(jobId));
      assert.equal(studyWorkflowId(jobId), `study:${jobId}`);
      const description = await handle.describe();
      assert.equal(description.status.name, 'RUNNING');
      assert.equal(description.type, 'studyWorkflow');
      assert.equal(await handle.query(studyStatusQuery), 'draft');
    });
  });

  describe('Idempotency-Key', () => {
    it('a retry with the same key and body returns the same jobId and creates no new row', async () => {
      const owner = await createBusiness('pro');
      const ownerToken = await sessionToken(owner.claims);
      const headers = { 'Idempotency-Key': `key-${randomUUID()}` };
      const first = await create(validStudyBody(), headers, ownerToken);
      const second = await create(validStudyBody(), headers, ownerToken);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(first.headers.get('Idempotent-Replayed'), null);
      assert.equal(second.headers.get('Idempotent-Replayed'), 'true');
      assert.deepEqual(second.body.data, first.body.data);
      assert.equal(await studiesOf([owner.organizationId]), 1);
    });

    it('the same key with another body is 422 naming Idempotency-Key', async () => {
      const owner = await createBusiness('pro');
      const ownerToken = await sessionToken(owner.claims);
      const headers = { 'Idempotency-Key': `key-${randomUUID()}` };
      assert.equal((await create(validStudyBody(), headers, ownerToken)).status, 201);
      const other = await create(
        bodyWith((b) => (b.title = 'Another study')),
        headers,
        ownerToken,
      );
      assert.equal(other.status, 422);
      assert.equal(other.body.error, 'Idempotency-Key: already used with a different request body');
      assert.equal(await studiesOf([owner.organizationId]), 1);
    });

    it('an A/B study answers its variants in the order given on create, replay, GET /api/jobs/:id and the list', async () => {
      const owner = await createBusiness('pro');
      const ownerToken = await sessionToken(owner.claims);
      const labels = ['Redesign', 'Current', 'Minimal'];
      const body = abStudyBody(labels, { Redesign: 0.5, Current: 0.3, Minimal: 0.2 });
      const headers = { 'Idempotency-Key': `key-${randomUUID()}` };
      const first = await create(body, headers, ownerToken);
      const replay = await create(body, headers, ownerToken);
      assert.equal(first.status, 201, first.text);
      assert.equal(replay.headers.get('Idempotent-Replayed'), 'true');
      assert.deepEqual((first.body.data as CreatedStudy).variants, labels);
      assert.deepEqual((replay.body.data as CreatedStudy).variants, labels);

      const { jobId } = first.body.data as CreatedStudy;
      const read = await api.request('GET', `/api/jobs/${jobId}`, { token: ownerToken });
      const abTest = (read.body.data as { abTest: { variants: { label: string }[]; splitRatio: object } })
        .abTest;
      assert.deepEqual(
        abTest.variants.map((variant) => variant.label),
        labels,
      );
      assert.deepEqual(Object.keys(abTest.splitRatio), labels);
      const listed = await api.request('GET', '/api/jobs', { token: ownerToken });
      assert.deepEqual(
        (listed.body.data as CreatedStudy[]).find((study) => study.jobId === jobId)?.variants,
        labels,
      );
    });

    it('a retry whose splitRatio lists the same shares with its keys in another order is a replay, not a 422', async () => {
      const owner = await createBusiness('pro');
      const ownerToken = await sessionToken(owner.claims);
      const headers = { 'Idempotency-Key': `key-${randomUUID()}` };
      const first = await create(abStudyBody(['B', 'A'], { B: 0.7, A: 0.3 }), headers, ownerToken);
      const retry = await create(abStudyBody(['B', 'A'], { A: 0.3, B: 0.7 }), headers, ownerToken);
      assert.equal(first.status, 201, first.text);
      assert.equal(retry.status, 201, retry.text);
      assert.equal(retry.headers.get('Idempotent-Replayed'), 'true');
      assert.deepEqual(retry.body.data, first.body.data);
      assert.equal(await studiesOf([owner.organizationId]), 1);
    });

    it('a blank Idempotency-Key, or one over 255 characters, is 422 naming the header and stores nothing', async () => {
      const owner = await createBusiness('pro');
      const ownerToken = await sessionToken(owner.claims);
      for (const [key, error] of [
        ['', 'Idempotency-Key: Must not be empty'],
        ['   ', 'Idempotency-Key: Must not be empty'],
        ['k'.repeat(300), 'Idempotency-Key: Must be at most 255 characters'],
      ] as const) {
        const response = await create(validStudyBody(), { 'Idempotency-Key': key }, ownerToken);
        assert.equal(response.status, 422, `key of ${key.length} characters: ${response.text}`);
        assert.equal(response.body.error, error);
      }
      assert.equal(await studiesOf([owner.organizationId]), 0);
    });

    it('concurrent retries with one key create one study', async () => {
      const owner = await createBusiness('pro');
      const ownerToken = await sessionToken(owner.claims);
      const headers = { 'Idempotency-Key': `key-${randomUUID()}` };
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => create(validStudyBody(), headers, ownerToken)),
      );
      assert.deepEqual(
        responses.map((r) => r.status),
        responses.map(() => 201),
      );
      const ids = new Set(responses.map((r) => (r.body.data as CreatedStudy).jobId));
      assert.equal(ids.size, 1);
      assert.equal(await studiesOf([owner.organizationId]), 1);
    });

    it('a key is scoped to its organization: another organization using it gets its own study', async () => {
      const key = `key-${randomUUID()}`;
      const first = await createBusiness('pro');
      const second = await createBusiness('pro');
      const a = await create(validStudyBody(), { 'Idempotency-Key': key }, await sessionToken(first.claims));
      const b = await create(validStudyBody(), { 'Idempotency-Key': key }, await sessionToken(second.claims));
      assert.equal(a.status, 201);
      assert.equal(b.status, 201);
      assert.notEqual((a.body.data as CreatedStudy).jobId, (b.body.data as CreatedStudy).jobId);
      assert.equal(await studiesOf([second.organizationId]), 1);
    });

    it('without a key every request creates a study', async () => {
      const owner = await createBusiness('pro');
      const ownerToken = await sessionToken(owner.claims);
      await create(validStudyBody(), undefined, ownerToken);
      await create(validStudyBody(), undefined, ownerToken);
      assert.equal(await studiesOf([owner.organizationId]), 2);
    });
  });

  describe('authentication and roles', () => {
    it('401 without a token', async () => {
      const response = await api.request('POST', '/api/jobs', { body: validStudyBody() });
      assert.equal(response.status, 401);
      assert.equal(response.body.error, 'Authentication required');
    });

    it('401 with a token signed by another key', async () => {
      const forged = await new SignJWT({ role: 'business', organization_id: business.organizationId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(business.userId)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-another-secret-0123456'));
      const response = await create(validStudyBody(), undefined, forged);
      assert.equal(response.status, 401);
      assert.equal(response.body.error, 'Invalid session token');
    });

    it('401 with an expired token', async () => {
      const expired = await sessionToken(business.claims, new Date('2020-01-01T00:00:00Z'), 60);
      const response = await create(validStudyBody(), undefined, expired);
      assert.equal(response.status, 401);
      assert.equal(response.body.error, 'Session token expired');
    });

    it('403 for a tester token, and no study is stored', async () => {
      const tester = await createTester();
      const response = await create(validStudyBody(), undefined, await sessionToken(tester));
      assert.equal(response.status, 403);
      assert.equal(response.body.error, 'This endpoint requires the role business');
      const rows = await asSystem(testDatabase(), (tx) =>
        tx.selectFrom('studies').select('id').where('created_by', '=', tester.sub).execute(),
      );
      assert.equal(rows.length, 0);
    });

    it('403 for a business user outside any organization', async () => {
      const response = await create(
        validStudyBody(),
        undefined,
        await sessionToken({ sub: randomUUID(), role: 'business', organization_id: null }),
      );
      assert.equal(response.status, 403);
      assert.equal(response.body.error, 'Creating a study requires membership of an organization');
    });
  });
});
