import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { stopProcess } from '../../scripts/lib/processes.ts';
import { WORKFLOWS_PATH } from '../../workers/service-worker.ts';
import { eventually } from '../audits/polling.ts';
import { createPasswordUser } from '../auth/helpers.ts';
import { freePort } from '../support/free-port.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { spawnServiceWorker } from '../support/worker-process.ts';

const API_MAIN = fileURLToPath(new URL('../../api/main.ts', import.meta.url));
const QUEUE = `tracing-test-${process.pid}`;
const require = createRequire(import.meta.url);

/** A span as OTLP/HTTP's JSON carries it, with the service that sent it. */
interface ReceivedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
}

interface OtlpBody {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: Omit<ReceivedSpan, 'service'>[] }[];
  }[];
}

/** An OpenTelemetry collector's OTLP/HTTP traces endpoint that keeps what it is sent. */
async function startCollector(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody;
        for (const resource of body.resourceSpans) {
          const service =
            resource.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value
              .stringValue ?? '';
          for (const scope of resource.scopeSpans) {
            for (const span of scope.spans)
              spans.push({ ...span, service, parentSpanId: span.parentSpanId ?? '' });
          }
        }
      }
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

// The API and the worker as the production processes run them (api/main.ts, and the service
// worker with the tracing plugin), each exporting to a local OTLP/HTTP collector.
describe('traces: one request through its workflow and activity, in one trace (OTEL_EXPORTER_OTLP_ENDPOINT)', function () {
  this.timeout(120_000);
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let dir: string;
  let worker: ChildProcess | undefined;
  let api: ChildProcess | undefined;
  let apiUrl: string;

  before(async () => {
    collector = await startCollector();
    dir = await mkdtemp(join(tmpdir(), 'tracing-'));
    // The worker's bundle with the tracing workflow interceptors, as a worker that bundles itself makes it.
    const bundle = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      workflowInterceptorModules: [
        require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
      ],
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    const bundlePath = join(dir, 'bundle.js');
    await writeFile(bundlePath, bundle.code);
    const tracingEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OUTBOX_DIR: dir };
    worker = await spawnServiceWorker({ taskQueue: QUEUE, bundlePath, env: tracingEnv });
    const temporal = await temporalEnvironment();
    const port = await freePort();
    api = spawn(process.execPath, ['--import', 'tsx', API_MAIN], {
      env: {
        ...process.env,
        ...tracingEnv,
        PORT: String(port),
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_TASK_QUEUE: QUEUE,
      },
      stdio: 'ignore',
    });
    apiUrl = `http://127.0.0.1:${port}`;
    // Not listening yet is a refused connection: asked again until it answers.
    const live = () =>
      fetch(`${apiUrl}/api/health/live`).then(
        (response) => response.ok,
        () => false,
      );
    assert.ok(await eventually(live), 'the API process answers within 30 s');
  });
  after(async () => {
    for (const child of [api, worker]) if (child) await stopProcess(child, 10_000);
    collector?.server.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('POST /api/auth/magic-link -> its notification workflow -> the delivery activity share one trace, each span the child of the one before', async () => {
    const user = await createPasswordUser('business');
    const response = await fetch(`${apiUrl}/api/auth/magic-link`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: user.email }),
    });
    assert.equal(response.status, 202, await response.text());

    const request = () =>
      collector.spans.find(
        (span) => span.service === 'usability-api' && span.name === 'POST /api/auth/magic-link',
      );
    const activity = () =>
      collector.spans.find(
        (span) => span.service === 'usability-worker' && span.name === 'RunActivity:deliverNotification',
      );
    assert.ok(await eventually(() => !!request() && !!activity()), JSON.stringify(collector.spans));
    const root = request()!;
    const trace = collector.spans.filter((span) => span.traceId === root.traceId);
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    // From the activity up to the request: every hop is the parent of the next, in one trace.
    const chain: string[] = [];
    for (let span: ReceivedSpan | undefined = activity(); span; span = byId.get(span.parentSpanId)) {
      chain.unshift(`${span.service} ${span.name}`);
    }
    assert.deepEqual(chain, [
      'usability-api POST /api/auth/magic-link',
      'usability-api StartWorkflow:notificationWorkflow',
      'usability-worker RunWorkflow:notificationWorkflow',
      'usability-worker StartActivity:deliverNotification',
      'usability-worker RunActivity:deliverNotification',
    ]);
    assert.equal(root.parentSpanId, '');
  });
});
