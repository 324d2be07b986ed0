import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createAdmin, createBusiness, createTester, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { countOf, PageClient, textOfId } from './page-client.ts';

const studiesOfOrganization = async (organizationId: string) =>
  (
    await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('studies').select('id').where('organization_id', '=', organizationId).execute(),
    )
  ).length;

/** A filled-in form as a person would send it: three task rows, the second left empty. */
const goodForm = (): Record<string, string> => ({
  title: 'Booking a table',
  description: 'Can screen-reader users book a table?',
  prototypeUrl: 'https://restaurant.example/book',
  prototypeType: 'url',
  'task-1-title': 'Find a time',
  'task-1-description': 'Pick Friday at 8 pm',
  'task-1-successCriteria': '',
  'task-2-title': '',
  'task-2-description': '',
  'task-3-title': 'Book',
  'task-3-description': 'Confirm the booking',
  'task-3-successCriteria': 'The confirmation page is shown',
  'targeting-countries': 'gb, ie',
  'targeting-ageRange-min': '18',
  'targeting-ageRange-max': '70',
  'targeting-devices': 'mobile',
  'targeting-languages': 'en, ga',
  'targeting-testerCount': '4',
  'compensation-currency': 'eur',
  'compensation-amount': '30.50',
  settings: 'recordVoice',
  'settings-maxDurationMinutes': '45',
  'settings-reminderAfterHours': '',
  toneProfile: 'supportive',
  'abTest-enabled': 'on',
  'variant-1-label': ' A ',
  'variant-1-description': 'Today’s form',
  'variant-1-share': '0.25',
  'variant-2-label': 'B',
  'variant-2-description': 'One-page form',
  'variant-2-share': '0.75',
});

/** The text of the error message shown at the field named `name`. */
const errorAt = (html: string, name: string) => textOfId(html, `field-${name}-error`).replace(/^Error: /, '');

describe('the create-study form (/dashboard/jobs/new) over the command of POST /api/jobs', function () {
  this.timeout(60_000);
  let api: TestApi;
  let business: BusinessFixture;
  const path = '/dashboard/jobs/new';

  const signedIn = async () => {
    const client = new PageClient(api.url);
    client.useSession(await sessionToken(business.claims));
    await client.get(path);
    return client;
  };

  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    business = await createBusiness();
  });
  after(() => api.stop());

  it("is a business's page, linked from its dashboard: testers and admins get the 404 page, a visitor signs in first", async () => {
    const client = await signedIn();
    assert.match(
      (await client.get('/dashboard')).html,
      /<a href="\/dashboard\/jobs\/new">Create a study<\/a>/,
    );
    const page = await client.get(path);
    assert.equal(page.status, 200);
    assert.equal(countOf(page.html, /<h1>/), 1);
    assert.equal(countOf(page.html, /name="task-\d-title"/), 3, 'three task rows to start with');
    for (const jwt of [await sessionToken(await createTester()), await sessionToken(await createAdmin())]) {
      const other = new PageClient(api.url);
      other.useSession(jwt);
      assert.equal((await other.get(path)).status, 404);
    }
    const visitor = await new PageClient(api.url).get(path);
    assert.equal(visitor.status, 303);
    assert.equal(visitor.location, `/login?next=${encodeURIComponent(path)}`);
  });

  it("refuses an empty form with the spec's message at each field, and creates nothing", async () => {
    const client = await signedIn();
    const page = await client.post(path, { 'targeting-languages': '', 'settings-maxDurationMinutes': '' });
    assert.equal(page.status, 422);
    assert.equal(errorAt(page.html, 'title'), 'Required');
    assert.equal(errorAt(page.html, 'prototypeUrl'), 'Required');
    assert.equal(errorAt(page.html, 'prototypeType'), 'Required');
    assert.equal(errorAt(page.html, 'tasks'), 'At least one task is required');
    assert.equal(errorAt(page.html, 'targeting-countries'), 'At least one country is required');
    assert.equal(errorAt(page.html, 'targeting-devices'), 'At least one device is required');
    assert.equal(errorAt(page.html, 'targeting-testerCount'), 'Required');
    assert.equal(errorAt(page.html, 'compensation-currency'), 'Required');
    assert.equal(errorAt(page.html, 'compensation-amount'), 'Required');
    assert.match(page.html, /class="error-summary" role="alert"/);
    assert.match(
      page.html,
      /<a href="#field-targeting-countries">Countries: At least one country is required<\/a>/,
    );
    assert.equal(await studiesOfOrganization(business.organizationId), 0);
  });

  it('shows each wrong value at its field, task row and variant included, keeping every value typed', async () => {
    const client = await signedIn();
    const page = await client.post(path, {
      ...goodForm(),
      'task-3-title': '',
      'targeting-countries': 'GB, XX',
      'targeting-ageRange-min': '70',
      'targeting-ageRange-max': '18',
      'compensation-amount': '30.555',
      'settings-maxDurationMinutes': 'an hour',
      'variant-2-share': '0.5',
    });
    assert.equal(page.status, 422);
    // The empty second row is left out: the third row is task 2, and its problem is shown there.
    assert.equal(errorAt(page.html, 'task-2-title'), 'Required');
    assert.match(page.html, /name="task-2-description"[^>]*>Confirm the booking<\/textarea>/);
    assert.match(errorAt(page.html, 'targeting-countries'), /ISO 3166-1/);
    assert.equal(errorAt(page.html, 'targeting-ageRange-min'), 'min must not exceed max');
    assert.equal(errorAt(page.html, 'compensation-amount'), 'At most 2 decimal places');
    assert.equal(errorAt(page.html, 'settings-maxDurationMinutes'), 'Must be a number');
    assert.equal(errorAt(page.html, 'abTest-variants'), 'Proportions must sum to 1.0 (got 0.75)');
    assert.match(page.html, /name="targeting-countries" type="text" value="GB, XX"/);
    assert.match(page.html, /name="settings-maxDurationMinutes" type="number" value="an hour"/);
    assert.match(page.html, /value="recordVoice" checked/);
    assert.match(page.html, /value="supportive" checked/);
    assert.match(page.html, /name="abTest-enabled" value="on" checked/);
    assert.match(page.html, /aria-invalid="true" aria-describedby="field-task-2-title-error"/);
    const again = await client.post(path, { ...goodForm(), 'variant-2-label': 'A' });
    assert.equal(errorAt(again.html, 'variant-2-label'), 'Variant labels must be unique');
    assert.equal(await studiesOfOrganization(business.organizationId), 0);
  });

  it('"Add another task" shows the form again with one more row and the values kept, creating nothing', async () => {
    const client = await signedIn();
    const page = await client.post(path, { ...goodForm(), add: 'task' });
    assert.equal(page.status, 200);
    assert.equal(countOf(page.html, /name="task-\d-title"/), 3, 'two filled rows and a new one');
    assert.match(page.html, /name="task-2-title" type="text" value="Book"/);
    assert.match(page.html, /name="task-3-title" type="text" value maxlength/);
    const variants = await client.post(path, { ...goodForm(), add: 'variant' });
    assert.equal(countOf(variants.html, /name="variant-\d-label"/), 3);
    assert.equal(await studiesOfOrganization(business.organizationId), 0);
  });

  it('with the A/B test off, the variant rows are ignored, whatever they hold', async () => {
    const client = await signedIn();
    const { 'abTest-enabled': _enabled, ...form } = goodForm();
    const created = await client.post(path, { ...form, 'variant-1-share': 'lots', 'variant-2-label': '' });
    assert.equal(created.status, 303, created.html);
    const jobId = /\/dashboard\/jobs\/([0-9a-f-]{36})/.exec(created.location!)![1]!;
    const study = await api.request('GET', `/api/jobs/${jobId}`, {
      token: await sessionToken(business.claims),
    });
    assert.equal((study.body.data as { abTest: { enabled: boolean } }).abTest.enabled, false);
  });

  it('creates the draft study from every field and goes to its page; the same form sent twice makes one study', async () => {
    const client = await signedIn();
    const form = goodForm();
    const created = await client.post(path, form);
    assert.equal(created.status, 303, created.html);
    const jobId = /^\/dashboard\/jobs\/([0-9a-f-]{36})\?done=created$/.exec(created.location!)?.[1];
    assert.ok(jobId, `went to the study's page: ${created.location}`);
    assert.match((await client.get(created.location!)).html, /Study created as a draft/);

    const study = await api.request('GET', `/api/jobs/${jobId}`, {
      token: await sessionToken(business.claims),
    });
    const data = study.body.data as Record<string, unknown>;
    assert.equal(data.status, 'draft');
    assert.equal(data.title, 'Booking a table');
    assert.deepEqual(data.tasks, [
      { title: 'Find a time', description: 'Pick Friday at 8 pm', successCriteria: null, order: 1 },
      {
        title: 'Book',
        description: 'Confirm the booking',
        successCriteria: 'The confirmation page is shown',
        order: 2,
      },
    ]);
    assert.deepEqual(data.targeting, {
      countries: ['GB', 'IE'],
      ageRange: { min: 18, max: 70 },
      devices: ['mobile'],
      languages: ['en', 'ga'],
      testerCount: 4,
    });
    assert.deepEqual(data.compensation, { currency: 'EUR', amount: 30.5, type: 'flat' });
    assert.deepEqual(data.settings, {
      requireThinkAloud: false,
      recordScreen: false,
      recordFacial: false,
      recordVoice: true,
      maxDurationMinutes: 45,
      reminderAfterHours: null,
    });
    assert.equal(data.toneProfile, 'supportive');
    assert.deepEqual(data.abTest, {
      enabled: true,
      variants: [
        { label: 'A', description: 'Today’s form' },
        { label: 'B', description: 'One-page form' },
      ],
      splitRatio: { A: 0.25, B: 0.75 },
    });

    // The button pressed again (the same form, its key with it): the same study, not a second.
    const before = await studiesOfOrganization(business.organizationId);
    const repeat = await client.post(path, { ...form, idempotencyKey: 'the-same-key-1' });
    const repeated = await client.post(path, { ...form, idempotencyKey: 'the-same-key-1' });
    assert.equal(repeated.location, repeat.location);
    assert.equal(await studiesOfOrganization(business.organizationId), before + 1);
    const changed = await client.post(path, { ...form, title: 'Another', idempotencyKey: 'the-same-key-1' });
    assert.equal(changed.status, 422);
    assert.match(changed.html, /This form already made a study with other values/);
    assert.doesNotMatch(changed.html, /value="the-same-key-1"/, 'a new key for the next press');
  });
});
