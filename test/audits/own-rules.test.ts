import { releaseAuditHarness } from './harness.ts';
import { acquireInstantClient, expectIssue, type InstantClient } from './instant-client.ts';

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

  it('a page without any heading is a headings issue under 1.3.1 and 2.4.6', async () => {
    const result = await client.audit('no-headings.html', { checkCategories: ['headings'] });
    expectIssue(result, { criterion: '1.3.1', category: 'headings', element: 'body' });
    expectIssue(result, { criterion: '2.4.6', category: 'headings', element: 'body' });
  });

  it('a page without a level-one heading is a headings issue under 1.3.1, at its first heading', async () => {
    const result = await client.audit('no-h1.html', { checkCategories: ['headings'] });
    expectIssue(result, { criterion: '1.3.1', category: 'headings', element: '#first-heading' });
  });
});
