import assert from 'node:assert/strict';
import { fullAuditBody, MAX_PAGES_LIMIT } from '../../commands/audits/audit.schema.ts';

describe('POST /api/audits/full body', () => {
  const url = 'https://shop.example/';

  it('crawls 5 pages when maxPages is left out (the spec default)', () => {
    assert.equal(fullAuditBody.parse({ url, crawl: true }).maxPages, 5);
  });

  it(`takes 1 to ${MAX_PAGES_LIMIT} pages and refuses the rest`, () => {
    assert.equal(
      fullAuditBody.parse({ url, crawl: true, maxPages: MAX_PAGES_LIMIT }).maxPages,
      MAX_PAGES_LIMIT,
    );
    for (const maxPages of [0, MAX_PAGES_LIMIT + 1, 2.5]) {
      assert.equal(fullAuditBody.safeParse({ url, crawl: true, maxPages }).success, false, String(maxPages));
    }
  });
});
