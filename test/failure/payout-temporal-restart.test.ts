import assert from 'node:assert/strict';
import { Client, type Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { connectApiToTemporal } from '../../clients/temporal-connection.ts';
import { business, completedStudy, eventually, paymentsOf, testerWithAccount } from '../payments/fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from '../payments/harness.ts';
import { startRestartableTemporal, type RestartableTemporal } from '../support/restartable-temporal.ts';
import { terminateServiceBackends } from './terminate-backends.ts';

describe('the Temporal server restarted in the middle of a payout', function () {
  this.timeout(180_000);
  let server: RestartableTemporal;
  let connection: Connection;
  let workerConnection: NativeConnection;
  let h: PaymentsHarness;

  before(async function () {
    this.timeout(120_000);
    server = await startRestartableTemporal();
    connection = connectApiToTemporal(server.address);
    workerConnection = await NativeConnection.connect({ address: server.address });
    h = await startPaymentsHarness({
      temporal: {
        client: new Client({ connection, namespace: 'default' }),
        nativeConnection: workerConnection,
        namespace: 'default',
        address: server.address,
      },
    });
  });
  after(async function () {
    this.timeout(60_000);
    try {
      await h?.stop();
      await workerConnection?.close();
      await connection?.close();
    } finally {
      await server?.dispose();
    }
  });

  it('a payout the provider made while the server went away is recorded once, from the same idempotency key, once it is back', async () => {
    const person = await testerWithAccount();
    const owner = await business();
    const { jobId } = await completedStudy(owner, [person]);

    // The provider makes the payout and holds its answer; the server goes away meanwhile.
    h.provider!.fault('/v1/payouts', 'holdAfterCreate');
    const held = h.provider!.nextHold();
    const asked = await h.request('POST', '/api/billing/payout', { token: owner.token, body: { jobId } });
    assert.equal(asked.status, 202, asked.text);
    const made = await held;
    await server.stop();
    const refused = await h.request('POST', '/api/billing/payout', { token: owner.token, body: { jobId } });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.error, 'Unavailable: temporal unreachable, try again later');

    // The database's connections end too: the retried payout finds them new.
    assert.ok((await terminateServiceBackends()) > 0);
    await server.start();
    const [payment] = await eventually(
      async () => {
        const rows = await paymentsOf(jobId);
        return rows[0]?.status === 'processing' && rows;
      },
      'payout recorded once the server is back',
      90_000,
    );
    assert.equal((await paymentsOf(jobId)).length, 1, 'one payment for the one session');
    assert.equal(payment!.provider_payout_id, made.id);
    const payouts = h.provider!.createdAt('/v1/payouts').filter((p) => p.account === person.accountId);
    assert.equal(payouts.length, 1, 'the provider made one payout');
    const keys = new Set(
      h
        .provider!.requests.filter((r) => r.path === '/v1/payouts' && r.account === person.accountId)
        .map((r) => r.idempotencyKey),
    );
    assert.deepEqual([...keys], [`payout:${payment!.id}:1:payout`], 'every attempt sent the same key');
  });
});
