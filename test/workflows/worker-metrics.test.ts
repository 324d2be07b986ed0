import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetricCounter, MetricHistogram, MetricMeter, MetricTags } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { askInOrder, silentLogger } from '../../activities/ai/failover.ts';
import { createAuditActivities } from '../../activities/audits/audit-activities.ts';
import type { BrowserPool } from '../../activities/audits/browser-pool.ts';
import type { AiProvider } from '../../clients/ai/types.ts';
import { serviceDatabase } from '../support/database.ts';
import { freePort } from '../support/free-port.ts';
import { workflowBundle } from '../support/temporal.ts';
import { spawnServiceWorker } from '../support/worker-process.ts';

/** A meter that keeps what was recorded, as `name{tags} value` lines. */
function recordingMeter(): MetricMeter & { readonly lines: string[] } {
  const lines: string[] = [];
  const line = (name: string, value: number, tags: MetricTags = {}) =>
    lines.push(`${name}${JSON.stringify(tags)} ${value}`);
  const counter = (name: string): MetricCounter => ({
    name,
    kind: 'counter',
    valueType: 'int',
    add: (value, tags) => line(name, value, tags),
    withTags: () => counter(name),
  });
  const histogram = (name: string): MetricHistogram => ({
    name,
    kind: 'histogram',
    valueType: 'float',
    record: (value, tags) => line(name, value, tags),
    withTags: () => histogram(name),
  });
  const meter: MetricMeter & { lines: string[] } = {
    lines,
    createCounter: counter,
    createHistogram: histogram,
    createGauge: () => assert.fail('no gauge expected'),
    createUpDownCounter: () => assert.fail('no up-down counter expected'),
    withTags: () => meter,
  };
  return meter;
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

const failing: AiProvider = {
  name: 'openai',
  complete: () => Promise.reject(Object.assign(new Error('rate limited'), { status: 429 })),
};
const answering: AiProvider = { name: 'anthropic', complete: () => Promise.resolve('{"ok":true}') };
const request = {
  system: 's',
  prompt: 'p',
  answer: { name: 'agent1_answer', schema: z.object({ ok: z.boolean() }) },
};

describe("the worker's metrics: AI calls, failovers and audits beside the Temporal SDK's", () => {
  it('an agent records each provider call by outcome, and a failover, on its activity meter', async () => {
    const meter = recordingMeter();
    await new MockActivityEnvironment({}, { metricMeter: meter, logger: quiet }).run(() =>
      askInOrder([failing, answering], request, (text) => JSON.parse(text) as unknown, silentLogger, {
        agent: 'agent1',
      }),
    );
    // The activity's meter adds its namespace, task queue and type to every series.
    const activity = '"namespace":"test","taskQueue":"test","activityType":"unknown"';
    assert.deepEqual(meter.lines, [
      `ai_provider_calls{${activity},"provider":"openai","outcome":"busy"} 1`,
      `ai_provider_calls{${activity},"provider":"anthropic","outcome":"answered"} 1`,
      `ai_failovers{${activity},"agent":"agent1"} 1`,
    ]);
  });

  it('an audited page records its duration by kind and outcome', async () => {
    const meter = recordingMeter();
    const activities = createAuditActivities({
      db: serviceDatabase(),
      pool: {} as BrowserPool, // never reached: the address is refused first
      email: { destination: 'nowhere', send: () => Promise.resolve(), close() {} },
      urlPolicy: { allowPrivate: false, allowedHosts: [] },
      serviceTaskQueue: 'unused',
      credentialsSecret: 'unused',
    });
    await assert.rejects(
      // No schedule-to-close deadline: the instant audit's own budget applies.
      new MockActivityEnvironment({ scheduleToCloseTimeoutMs: 0 }, { metricMeter: meter, logger: quiet }).run(
        () =>
          activities.runInstantAudit({
            url: 'http://169.254.169.254/latest/meta-data/',
            viewport: { width: 1280, height: 800 },
            categories: ['contrast'],
          }),
      ),
    );
    assert.equal(meter.lines.length, 1);
    assert.match(
      meter.lines[0]!,
      /^audit_duration_seconds\{.*"kind":"instant","outcome":"BlockedUrlError"\} [\d.]+$/,
    );
  });

  it('with WORKER_METRICS_PORT the worker process serves the SDK metrics at /metrics', async () => {
    const bundlePath = join(tmpdir(), `usability-workflows-metrics-${process.pid}.js`);
    await writeFile(bundlePath, (await workflowBundle()).code);
    const port = await freePort();
    let child: ChildProcess | undefined;
    try {
      child = await spawnServiceWorker({
        taskQueue: `worker-metrics-${process.pid}`,
        bundlePath,
        env: { WORKER_METRICS_PORT: String(port) },
      });
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(response.status, 200);
      const text = await response.text();
      // The SDK's worker metrics (polls, slots), with the names Prometheus expects.
      assert.match(text, /^temporal_\w+/m);
      assert.match(text, /task_queue="worker-metrics-/);
    } finally {
      if (child) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await rm(bundlePath, { force: true });
    }
  });
});
