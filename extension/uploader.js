// @ts-check
// Sends one outbox's sealed batches to its endpoint, one request at a time and oldest first, so
// the API receives the items in the order they were captured. A batch leaves the outbox only once
// the API answered it; a failure is retried with backoff (a batch the API stored but whose answer
// was lost is safe to send again: the API skips items it already holds, docs/decisions/ingestion.md,
// "Retries"). A refusal that no retry can fix (401, 403, 404, 409) stops the uploader
// and keeps the batches for when the tester starts again with a valid token.

import { countsIn, postBatch } from './api-client.js';

/** @typedef {import('./api-client.js').Settings} Settings */
/** @typedef {import('./api-client.js').Answer} Answer */
/** @typedef {import('./outbox.js').Outbox} Outbox */

const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/**
 * @typedef {object} UploaderHooks
 * @property {() => Settings | undefined} settings the session to send to; undefined: do not send
 * @property {(counts: { accepted: number, rejected: number }) => void} accepted an answered batch's counts
 * @property {(reason: string, delayMs: number) => void} retrying
 * @property {(answer: Extract<Answer, { outcome: 'stop' }>) => void} stopped
 */

export class Uploader {
  /** @param {Outbox} outbox @param {UploaderHooks} hooks */
  constructor(outbox, hooks) {
    this.outbox = outbox;
    this.hooks = hooks;
    this.attempt = 0;
    /** @type {Promise<void> | undefined} */
    this.running = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
  }

  /** The alarm that wakes a service worker the browser stopped while it waited to retry. */
  get alarmName() {
    return `retry:${this.outbox.kind}`;
  }

  /** Sends what is sealed, unless a send is running or a retry is waiting its turn. */
  kick() {
    if (this.retryTimer === undefined) void this.run();
  }

  /**
   * Sends now, cutting a waiting retry short; resolves when the outbox is empty, or the API failed or
   * refused. @returns {Promise<boolean>} whether every sealed batch was accepted
   */
  async drain() {
    this.cancelRetry();
    await this.run();
    return !this.outbox.batches.length;
  }

  /** Called when the retry alarm fires (the worker may have been restarted meanwhile). */
  retryNow() {
    this.cancelRetry();
    void this.run();
  }

  run() {
    this.running ??= this.sendAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async sendAll() {
    for (let batch = this.outbox.head; batch; batch = this.outbox.head) {
      const settings = this.hooks.settings();
      if (!settings) return;
      const answer = await postBatch(settings, this.outbox.endpoint, batch.items);
      if (answer.outcome === 'stop') {
        // Sent with a token replaced meanwhile (the start page handed over a fresh one): again, with it.
        const now = this.hooks.settings();
        if (now && now.testToken !== settings.testToken && now.sessionId === settings.sessionId) continue;
        this.hooks.stopped(answer);
        return;
      }
      if (answer.outcome === 'retry') {
        this.attempt += 1;
        const backoff = Math.min(FIRST_RETRY_MS * 2 ** (this.attempt - 1), LONGEST_RETRY_MS);
        const delayMs = Math.max(backoff, answer.retryAfterMs ?? 0);
        this.scheduleRetry(delayMs);
        this.hooks.retrying(answer.reason, delayMs);
        return;
      }
      this.attempt = 0;
      await this.outbox.shift();
      this.hooks.accepted(countsIn(answer.data));
    }
  }

  /** @param {number} delayMs */
  scheduleRetry(delayMs) {
    this.retryTimer = setTimeout(() => this.retryNow(), delayMs);
    void chrome.alarms.create(this.alarmName, { when: Date.now() + delayMs + 1_000 });
  }

  cancelRetry() {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    void chrome.alarms.clear(this.alarmName);
  }
}
