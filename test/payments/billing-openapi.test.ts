import assert from 'node:assert/strict';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

type Operation = {
  parameters: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, unknown>;
};

describe('billing and webhooks in the OpenAPI document', () => {
  let h: PaymentsHarness;
  let paths: Record<string, Record<string, Operation>>;
  before(async () => {
    h = await startPaymentsHarness({ worker: false });
    paths = ((await (await fetch(`${h.url}/api/openapi.json`)).json()) as { paths: typeof paths }).paths;
  });
  after(() => h.stop());

  it('documents the three billing endpoints with their bodies, from the schemas that validate them', () => {
    for (const [path, field] of [
      ['/api/billing/checkout', 'jobId'],
      ['/api/billing/connect', 'returnUrl'],
      ['/api/billing/payout', 'jobId'],
    ] as const) {
      const operation = paths[path]?.post;
      assert.ok(operation, `${path} documented`);
      assert.ok(
        operation.requestBody?.content['application/json']?.schema.properties?.[field],
        `${path} body names ${field}`,
      );
    }
    assert.ok(paths['/api/billing/payout']?.post?.responses['202']);
  });

  it('documents the webhooks with their signature headers and 401', () => {
    const payments = paths['/api/webhooks/payments']?.post;
    const documents = (operation: typeof payments, name: string) =>
      operation?.parameters.some((p) => p.in === 'header' && p.name === name);
    assert.ok(documents(payments, 'Payment-Signature'));
    assert.ok(documents(payments, 'Stripe-Signature'), "the provider's own header");
    assert.ok(payments?.responses['401']);
    const scheduling = paths['/api/webhooks/scheduling']?.post;
    assert.ok(documents(scheduling, 'Scheduling-Webhook-Signature'));
    assert.ok(documents(scheduling, 'Calendly-Webhook-Signature'), "the provider's own header");
    assert.ok(scheduling?.requestBody?.content['application/json']);
  });
});
