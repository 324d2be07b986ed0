import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { constraintColumnsIn } from '../../api/http/constraint-violations.ts';
import { errorHandler } from '../../api/http/error-handler.ts';
import type { RequestState } from '../../api/http/state.ts';
import { insertStudy } from '../auth/helpers.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';

// No input answers 500 (issue 33, point 2): a value the database would round away is refused by
// validation, and a value that slips past a missing validation rule is refused by the database's
// constraint, which the error handler answers as 422 naming the field.

describe('a value the database refuses is 422 naming its field, never 500', function () {
  this.timeout(60_000);

  it('refuses an amount that would round to 0.00 in its column', async () => {
    const api: TestApi = await startTestApi({ worker: false });
    try {
      const business = await sessionToken((await createBusiness('pro')).claims);
      for (const amount of [5e-324, 0.004, 1e-10]) {
        const body = validStudyBody();
        body.compensation = { ...(body.compensation as object), amount };
        const answer = await api.request('POST', '/api/jobs', { body, token: business });
        assert.equal(answer.status, 422, `${amount}: ${answer.text}`);
        assert.match(String(answer.body.error), /^compensation\.amount: /);
      }
    } finally {
      await api.stop();
    }
  });

  describe('with a validation rule dropped (the store is reached with what validation should have refused)', () => {
    let url: string;
    let close: () => void;
    let organizationId: string;
    before(async () => {
      organizationId = (await createBusiness('pro')).organizationId;
      const app = new Koa<RequestState>();
      app.use(async (ctx, next) => {
        ctx.state.log = pino({ level: 'silent' });
        await next();
      });
      app.use(errorHandler(undefined, constraintColumnsIn(testDatabase())));
      // The store as a command reaches it, with the route's validation left out.
      app.use(async (ctx) => {
        const fields = JSON.parse(ctx.get('X-Study-Fields')) as Record<string, unknown>;
        ctx.body = { id: await insertStudy(organizationId, fields) };
      });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () => server.close();
    });
    after(() => close());

    const store = async (fields: Record<string, unknown>) => {
      const response = await fetch(url, { headers: { 'X-Study-Fields': JSON.stringify(fields) } });
      return {
        status: response.status,
        body: (await response.json()) as { success: boolean; error: string },
      };
    };

    it("a check constraint: 422 naming the request's field (nested fields by their path)", async () => {
      const amount = await store({ compensation_amount: 0 });
      assert.equal(amount.status, 422);
      assert.equal(amount.body.success, false);
      assert.match(amount.body.error, /^compensation\.amount: Not a value the service can store/);
      const testers = await store({ tester_count: 0 });
      assert.equal(testers.status, 422);
      assert.match(testers.body.error, /^targeting\.testerCount: /);
      const title = await store({ title: '' });
      assert.equal(title.status, 422);
      assert.match(title.body.error, /^title: /);
    });

    it('a not-null constraint: 422 naming the field as required', async () => {
      const answer = await store({ description: null });
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error, 'description: Required');
    });

    it('a valid row is stored as it was', async () => {
      assert.equal((await store({})).status, 200);
    });
  });
});
