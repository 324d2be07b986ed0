import assert from 'node:assert/strict';
import { z } from 'zod';
import { ApiError } from '../../lib/errors.ts';
import { paginationQuery } from '../../lib/validation/pagination.ts';
import { queryInteger } from '../../lib/validation/query-integer.ts';
import { validateHeader, validateQuery } from '../../lib/validation/validate.ts';

/** The ApiError `run` throws: its status and message. */
function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return { status: error.status, message: error.message };
  }
  assert.fail('expected a refusal');
}

describe('validateQuery (the one path every query string takes)', () => {
  const proposalsQuery = z.object({ jobId: z.uuid(), page: queryInteger({ min: 1 }).default(1) });

  it('a missing required parameter is 422 naming it, not a malformed query', () => {
    assert.deepEqual(
      refusal(() => validateQuery(proposalsQuery, {})),
      { status: 422, message: 'jobId: Required' },
    );
  });

  it('a repeated single-valued parameter is 400 naming it', () => {
    const { status, message } = refusal(() => validateQuery(proposalsQuery, { jobId: ['a', 'b'] }));
    assert.equal(status, 400);
    assert.match(message, /^Malformed query parameter jobId: /);
  });

  it('integers are plain decimal digits: exponent, hex, binary, fractions, blanks and spaces are 400', () => {
    for (const page of ['1e2', '0x10', '0b1', '1.5', '', ' 7', '7 ', '+3', 'Infinity']) {
      assert.deepEqual(
        refusal(() => validateQuery(paginationQuery, { page })),
        { status: 400, message: 'Malformed query parameter page: Expected an integer in decimal digits' },
        `page=${JSON.stringify(page)}`,
      );
    }
  });

  it('a well-written integer outside its bounds is 422 naming the parameter', () => {
    assert.deepEqual(
      refusal(() => validateQuery(paginationQuery, { limit: '101' })),
      {
        status: 422,
        message: 'limit: Too big: expected number to be <=100',
      },
    );
    assert.equal(refusal(() => validateQuery(paginationQuery, { page: '-1' })).status, 422);
  });

  it('decimal integers are read as numbers, with the defaults for absent ones', () => {
    assert.deepEqual(validateQuery(paginationQuery, { page: '3', limit: '007' }), { page: 3, limit: 7 });
    assert.deepEqual(validateQuery(paginationQuery, {}), { page: 1, limit: 20 });
  });
});

describe('validateHeader', () => {
  it('names the header in the 422', () => {
    const key = z.string().trim().min(1, 'Must not be empty');
    assert.deepEqual(
      refusal(() => validateHeader('Idempotency-Key', key, '  ')),
      {
        status: 422,
        message: 'Idempotency-Key: Must not be empty',
      },
    );
  });
});
