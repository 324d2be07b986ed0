// @ts-check
// The items of one signal endpoint waiting to be sent, in the order they were captured, kept in the
// extension's local storage so that neither a failed request nor the browser stopping the service
// worker loses them. Items gather in `pending` until a batch is sealed (every few seconds, or at
// SEAL_AT items); sealed batches are sent oldest first and removed only once the API accepted them.
//
// Storage keys, per kind: `outbox:<kind>:pending` (items), `outbox:<kind>:seqs` (the sealed
// batches' numbers, oldest first), `outbox:<kind>:batch:<n>` (one sealed batch's items).

/** @typedef {import('./api-client.js').SignalKind} SignalKind */
/** An outbox per kind of item: the three signals, and `screen` (the recording's chunks, sent to `snapshots`). @typedef {SignalKind | 'screen'} OutboxKind */
/** @typedef {{ seq: number, items: unknown[] }} Batch */

/** A batch is sealed and sent at once when it holds this many items. */
export const SEAL_AT = 200;
/** The API's limit per request (docs/decisions/ingestion.md, "Batch limits"); SEAL_AT stays below it. */
export const MAX_BATCH_ITEMS = 1000;

export class Outbox {
  /** @param {OutboxKind} kind @param {SignalKind} [endpoint] where its batches go; the kind's own by default */
  constructor(kind, endpoint = kind === 'screen' ? 'snapshots' : kind) {
    this.kind = kind;
    this.endpoint = endpoint;
    /** @type {unknown[]} */
    this.pending = [];
    /** @type {Batch[]} */
    this.batches = [];
    this.nextSeq = 0;
    /** Writes are chained so that storage always ends in the order they were made. */
    this.writes = Promise.resolve();
  }

  /** @param {string} name */
  key(name) {
    return `outbox:${this.kind}:${name}`;
  }

  async load() {
    const stored = await chrome.storage.local.get([this.key('pending'), this.key('seqs')]);
    this.pending = asArray(stored[this.key('pending')]);
    const seqs = /** @type {number[]} */ (asArray(stored[this.key('seqs')]));
    const keys = seqs.map((seq) => this.key(`batch:${seq}`));
    const batches = keys.length ? await chrome.storage.local.get(keys) : {};
    this.batches = seqs.map((seq, i) => ({ seq, items: asArray(batches[/** @type {string} */ (keys[i])]) }));
    this.nextSeq = seqs.length ? Math.max(...seqs) + 1 : 0;
  }

  /** Items not yet accepted by the API, sealed or not. */
  get unsent() {
    return this.pending.length + this.batches.reduce((sum, batch) => sum + batch.items.length, 0);
  }

  /**
   * Adds a captured item; seals the batch when it is full.
   * @param {unknown} item @returns {boolean} whether a batch was sealed
   */
  add(item) {
    this.pending.push(item);
    if (this.pending.length >= SEAL_AT) return this.seal();
    const pending = [...this.pending];
    this.write(() => chrome.storage.local.set({ [this.key('pending')]: pending }));
    return false;
  }

  /** Turns the pending items into the newest batch. @returns {boolean} whether there was any */
  seal() {
    if (!this.pending.length) return false;
    const batch = { seq: this.nextSeq++, items: this.pending.splice(0, MAX_BATCH_ITEMS) };
    this.batches.push(batch);
    const seqs = this.batches.map((b) => b.seq);
    const pending = [...this.pending];
    this.write(() =>
      chrome.storage.local.set({
        [this.key(`batch:${batch.seq}`)]: batch.items,
        [this.key('seqs')]: seqs,
        [this.key('pending')]: pending,
      }),
    );
    return true;
  }

  /** The oldest sealed batch, the next to send. */
  get head() {
    return this.batches[0];
  }

  /** Drops the oldest batch once the API has accepted it. */
  async shift() {
    const batch = this.batches.shift();
    if (!batch) return;
    const seqs = this.batches.map((b) => b.seq);
    this.write(async () => {
      await chrome.storage.local.set({ [this.key('seqs')]: seqs });
      await chrome.storage.local.remove(this.key(`batch:${batch.seq}`));
    });
    await this.writes;
  }

  /** Forgets everything (another session was started). */
  async clear() {
    const keys = [
      this.key('pending'),
      this.key('seqs'),
      ...this.batches.map((b) => this.key(`batch:${b.seq}`)),
    ];
    this.pending = [];
    this.batches = [];
    this.write(() => chrome.storage.local.remove(keys));
    await this.writes;
  }

  /** @param {() => Promise<void>} operation */
  write(operation) {
    this.writes = this.writes.then(operation).catch((error) => console.error('outbox write failed', error));
  }
}

/** @param {unknown} value @returns {unknown[]} */
const asArray = (value) => (Array.isArray(value) ? value : []);
