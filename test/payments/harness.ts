import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { pino } from 'pino';
import Stripe from 'stripe';
import { createEmailSender } from '../../clients/email.ts';
import { createMessagingSender } from '../../clients/messaging.ts';
import { paymentActivityDependencies } from '../../activities/payments/payment-activities.ts';
import { createApi, type Api } from '../../api/app.ts';
import type { Config } from '../../config/index.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { apiRequester, type TestApi, type TestResponse } from '../support/api.ts';
import { testConfig } from '../support/config.ts';
import { freePort } from '../support/free-port.ts';
import { serviceDatabase } from '../support/database.ts';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.ts';
import { temporalEnvironment, workflowBundle } from '../support/temporal.ts';
import { startFakeProvider, type FakeProvider } from './fake-provider.ts';
import { business, type Business } from './fixtures.ts';

export const WEBHOOK_SECRET = 'whsec_test_payments_harness_0123456789';
/** The Connect endpoint's secret: events on connected accounts (account.updated, payout.*). */
export const CONNECT_WEBHOOK_SECRET = 'whsec_test_payments_connect_0123456789';
export const SCHEDULING_SECRET = 'scheduling-test-secret-0123456789';

/** What the harness needs of a Temporal server: the suite's, the time-skipping one, or a test's own. */
export type HarnessTemporal = Pick<
  TestWorkflowEnvironment,
  'client' | 'nativeConnection' | 'namespace' | 'address'
>;

export interface PaymentsHarness {
  readonly url: string;
  readonly api: Api;
  readonly config: Config;
  /** The variables the configuration was made from (for a worker in another process). */
  readonly env: NodeJS.ProcessEnv;
  readonly taskQueue: string;
  /** Where the local messaging channel writes the tester messages it "sends". */
  readonly messagingDir: string;
  readonly temporal: HarnessTemporal;
  /** The provider's API stand-in; undefined in local mode (no credentials). */
  readonly provider: FakeProvider | undefined;
  readonly mail: MailCatcher;
  request: TestApi['request'];
  /**
   * Posts a provider event signed like the provider (the SDK's own test-header helper), with the
   * Connect endpoint's secret when the event names a connected account. A string is sent as it is; `tamper` changes the body after signing; `header` names the header the
   * signature goes in (the spec's `Payment-Signature` unless said; the provider's own is
   * `Stripe-Signature`), `null` sends none.
   */
  postPaymentEvent(
    event: unknown,
    options?: {
      secret?: string;
      timestamp?: number;
      tamper?: (raw: string) => string;
      header?: 'Payment-Signature' | 'Stripe-Signature' | null;
    },
  ): Promise<TestResponse>;
  startWorker(): Promise<{ worker: Worker; running: Promise<void> }>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** No payment credentials: the local provider (npm start's default). */
  readonly local?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** Another Temporal server than the suite's dev server (the time-skipping one, a test's own). */
  readonly temporal?: HarnessTemporal;
  /** Start the service worker on the harness's own task queue (default true). */
  readonly worker?: boolean;
  /**
   * BASE_URL is the harness's own address, so the links the service mails (offers, reviews) and
   * the local provider's pages lead back to it; otherwise the test origin, which answers nothing.
   */
  readonly ownOrigin?: boolean;
}

const signer = new Stripe('sk_test_signer');
let harnesses = 0;

/**
 * The real API on a known port (the local provider posts to its webhook route), a worker with the
 * payment activities on a task queue of its own, a mail catcher, and (with credentials) the
 * provider's API stand-in behind the real SDK.
 */
export async function startPaymentsHarness(options: HarnessOptions = {}): Promise<PaymentsHarness> {
  const provider = options.local ? undefined : await startFakeProvider();
  const mail = await startMailCatcher();
  const port = await freePort();
  const taskQueue = `payments-${process.pid}-${(harnesses += 1)}`;
  const env: NodeJS.ProcessEnv = {
    TEMPORAL_TASK_QUEUE: taskQueue,
    SMTP_URL: mail.url,
    PAYMENTS_WEBHOOK_URL: `http://127.0.0.1:${port}/api/webhooks/payments`,
    ...(options.ownOrigin ? { BASE_URL: `http://127.0.0.1:${port}` } : {}),
    SCHEDULING_WEBHOOK_SECRET: SCHEDULING_SECRET,
    ...(provider
      ? {
          STRIPE_SECRET_KEY: 'sk_test_harness',
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
          STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_WEBHOOK_SECRET,
          STRIPE_API_BASE: provider.url,
          STRIPE_MAX_NETWORK_RETRIES: '0',
        }
      : {}),
    ...options.env,
  };
  const config = testConfig(env);
  const messagingDir = await mkdtemp(join(tmpdir(), 'payments-messaging-'));
  const messaging = createMessagingSender({
    botToken: undefined,
    apiRoot: undefined,
    outboxDir: messagingDir,
  });
  const temporal = options.temporal ?? (await temporalEnvironment());
  const db = serviceDatabase();
  const apiEmail = createEmailSender(config.email);
  const api = createApi({
    config,
    db,
    temporal: temporal.client,
    logger: pino({ level: 'silent' }),
    email: apiEmail,
  });
  const url = await api.listen(port, '127.0.0.1');
  const workerEmail = createEmailSender(config.email);
  const workers: { worker: Worker; running: Promise<void> }[] = [];

  const startWorker = async () => {
    const worker = await createServiceWorker({
      connection: temporal.nativeConnection,
      namespace: temporal.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      db,
      messaging,
      // Its own origin: every message the worker sends goes where the configuration says, with
      // answer links to this API (otherwise the suite's local defaults).
      ...(options.ownOrigin
        ? {
            email: workerEmail,
            offerLinks: { baseUrl: config.http.baseUrl, secret: config.auth.jwtSecret },
          }
        : {}),
      payments: paymentActivityDependencies(config, db, workerEmail),
      webhooks: {
        urlPolicy: { allowPrivate: config.audits.allowPrivateUrls, allowedHosts: config.audits.allowedHosts },
      },
    });
    const running = worker.run();
    workers.push({ worker, running });
    return { worker, running };
  };
  if (options.worker !== false) await startWorker();

  const request = apiRequester(url);

  // As the provider signs them: events on a connected account come from the Connect endpoint.
  const signingSecretOf = (event: unknown): string => {
    const onAccount = typeof event === 'object' && event !== null && 'account' in event;
    return (onAccount ? env.STRIPE_CONNECT_WEBHOOK_SECRET : undefined) ?? config.payments.webhookSecret;
  };

  return {
    url,
    api,
    config,
    env,
    taskQueue,
    messagingDir,
    temporal,
    provider,
    mail,
    request,
    postPaymentEvent(
      event,
      { secret = signingSecretOf(event), timestamp, tamper, header = 'Payment-Signature' } = {},
    ) {
      const payload = typeof event === 'string' ? event : JSON.stringify(event);
      const signature = signer.webhooks.generateTestHeaderString({
        payload,
        secret,
        ...(timestamp === undefined ? {} : { timestamp }),
      });
      return request('POST', '/api/webhooks/payments', {
        rawBody: tamper ? tamper(payload) : payload,
        headers: header === null ? { 'Content-Type': 'application/json' } : { [header]: signature },
      });
    },
    startWorker,
    async stop() {
      for (const { worker, running } of workers) {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running.catch(() => undefined);
      }
      await api.stop();
      apiEmail.close();
      workerEmail.close();
      await mail.stop();
      await provider?.stop();
    },
  };
}

/** A harness with the default options and a business to own the suite's studies. */
export async function startPaymentsHarnessWithOwner(): Promise<{ h: PaymentsHarness; owner: Business }> {
  const h = await startPaymentsHarness();
  return { h, owner: await business() };
}
