import assert from 'node:assert/strict';
import { releaseAuditHarness } from './harness.ts';
import {
  acquireInstantClient,
  expectAdvice,
  expectIssue,
  issuesUnder,
  type InstantClient,
} from './instant-client.ts';

// The project's own form and heading checks that no other suite covers.
describe('instant audit own form and heading checks', function () {
  this.timeout(60_000);
  let client: InstantClient;

  before(async () => ({ client } = await acquireInstantClient()));
  after(() => releaseAuditHarness());

  it('a field marked aria-invalid with no message tied to it is a forms issue under 3.3.1', async () => {
    const result = await client.audit('invalid-field.html', { checkCategories: ['forms'] });
    expectIssue(result, { criterion: '3.3.1', category: 'forms', severity: 'serious', element: '#postcode' });
  });

  it('an invalid field is advice, not 3.3.1, when the page shows its error in text (only not tied to it)', async () => {
    const result = await client.audit('invalid-field-described.html', { checkCategories: ['forms'] });
    expectAdvice(result, { category: 'forms', element: '#postcode' });
    assert.deepEqual(issuesUnder(result, '3.3.1'), []);
  });

  // WCAG does not require headings: their absence or a skipped level fails no criterion.
  it('a page without any heading is headings advice under no criterion', async () => {
    const result = await client.audit('no-headings.html', { checkCategories: ['headings'] });
    expectAdvice(result, { category: 'headings', element: 'body' });
    assert.deepEqual(issuesUnder(result, '1.3.1'), []);
    assert.deepEqual(issuesUnder(result, '2.4.6'), []);
  });

  it('a page without a level-one heading is headings advice at its first heading', async () => {
    const result = await client.audit('no-h1.html', { checkCategories: ['headings'] });
    expectAdvice(result, { category: 'headings', element: '#first-heading' });
    assert.deepEqual(issuesUnder(result, '1.3.1'), []);
  });
});
