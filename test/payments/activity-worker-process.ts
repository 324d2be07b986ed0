// A service worker with activities only, in a process of its own, so a test can kill it with
// SIGKILL in the middle of an activity (test/payments/payout-worker-kill.test.ts). Arguments: one
// JSON object {address, namespace, taskQueue, env}; prints "ready" once it polls.
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createEmailSender } from '../../clients/email.ts';
import { createActivities } from '../../activities/index.ts';
import { paymentActivityDependencies } from '../../activities/payments/payment-activities.ts';
import { connectDatabase } from '../../db/connection.ts';
import { testConfig } from '../support/config.ts';

const { address, namespace, taskQueue, env } = JSON.parse(process.argv[2]!) as {
  address: string;
  namespace: string;
  taskQueue: string;
  env: NodeJS.ProcessEnv;
};
Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} } });
const config = testConfig(env);
// The service login, as the worker in production logs in.
const { db } = connectDatabase(config.database.serviceUrl, { poolSize: 2 });
const connection = await NativeConnection.connect({ address });
const worker = await Worker.create({
  connection,
  namespace,
  taskQueue,
  activities: createActivities({
    db,
    payments: paymentActivityDependencies(config, db, createEmailSender(config.email)),
  }),
});
const running = worker.run();
console.log('ready');
await running;
