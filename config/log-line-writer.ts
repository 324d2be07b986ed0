import { write, writeSync } from 'node:fs';

/** How long a write that found the descriptor full (a pipe nobody has read yet) waits to retry. */
const RETRY_MS = 10;
const EXIT_WAIT_MS = 1_000;

const isBusy = (error: NodeJS.ErrnoException) => error.code === 'EAGAIN' || error.code === 'EBUSY';

/**
 * Log lines to a file descriptor, written asynchronously and together: the lines logged during one
 * turn of the event loop go out in one write after it (those logged while a write is under way, in
 * the next), so a request's log line costs it no write of its own. Lines keep their order, and what
 * is still pending is written synchronously when the process exits.
 *
 * Pino's own asynchronous destination (sonic-boom) does the same but measures its pending text's
 * length in bytes on every line, which copies the whole text each time: under load the log line was
 * the API's largest allocation (docs/decisions/operations.md, "The stack's own cost").
 */
export class LogLineWriter {
  #pending: string[] = [];
  #writing = false;
  #scheduled = false;
  /** A chunk (or its unwritten rest) waiting to retry after the descriptor was full. */
  #waiting: Buffer | undefined;

  constructor(private readonly fd: number) {
    process.once('exit', () => this.flushSync());
  }

  /** Pino's destination interface: one serialized line, newline included. */
  write(line: string): boolean {
    this.#pending.push(line);
    if (!this.#writing && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#writeNext());
    }
    return true;
  }

  /**
   * Writes what is pending now, before returning (at exit), after a chunk waiting to retry. A
   * descriptor that stays full is waited for up to EXIT_WAIT_MS in all, so a pipe nobody reads
   * cannot hold the process at its exit. A write under way at that moment is the system's: its
   * lines may land after these.
   */
  flushSync(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (!waiting && !this.#pending.length) return;
    let chunk = waiting ? Buffer.concat([waiting, this.#take()]) : this.#take();
    let waited = 0;
    while (chunk.length) {
      try {
        chunk = chunk.subarray(writeSync(this.fd, chunk));
      } catch (error) {
        if (!isBusy(error as NodeJS.ErrnoException) || waited >= EXIT_WAIT_MS) return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
        waited += RETRY_MS;
      }
    }
  }

  #take(): Buffer {
    const chunk = Buffer.from(this.#pending.join(''));
    this.#pending = [];
    return chunk;
  }

  #writeNext(): void {
    this.#scheduled = false;
    if (this.#writing || !this.#pending.length) return;
    this.#writing = true;
    this.#writeChunk(this.#take());
  }

  #writeChunk(chunk: Buffer): void {
    write(this.fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error && isBusy(error)) {
        this.#waiting = chunk;
        setTimeout(() => {
          if (this.#waiting === chunk) {
            this.#waiting = undefined;
            this.#writeChunk(chunk);
            return;
          }
          // flushSync wrote it meanwhile: the writer is free again.
          this.#writing = false;
          this.#writeNext();
        }, RETRY_MS);
        return;
      }
      // Any other failure (the reader has gone: EPIPE) ends this chunk; later lines still try.
      if (!error && written < chunk.length) {
        this.#writeChunk(chunk.subarray(written));
        return;
      }
      this.#writing = false;
      this.#writeNext();
    });
  }
}
