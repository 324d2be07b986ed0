import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

/** One word the recogniser read, in the picture's pixels. */
export interface ReadWord {
  readonly text: string;
  /** How sure the recogniser is, 0 to 100. */
  readonly confidence: number;
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

// English's trained data as the registry ships it (@tesseract.js-data/eng, the fast LSTM model):
// nothing is downloaded at run time, and the engine's WebAssembly comes from tesseract.js-core.
const LANG_PATH = join(
  dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0',
);

/**
 * An idle recogniser ends its thread after this long: a burst of audits shares one start, and a
 * process that audits no more gives the memory back (and can exit: the thread holds it open).
 */
const IDLE_MS = 30_000;
/** Time a recognize() call is given to post its job before its thread may be ended (a buffer is read at once). */
const POSTING_MS = 250;

/**
 * Tesseract (tesseract.js, in a worker thread of its own) reading the words in pictures. One per
 * process: it reads one picture at a time, and the thread with its model takes about a second
 * and some 100 MB to start, so it is started on first use and kept while pictures keep coming.
 */
class TextRecognizer {
  private worker: Promise<Worker> | undefined;
  /** When recognize() was last called (see close()). */
  private lastCall = 0;
  private reading = 0;
  private idle: NodeJS.Timeout | undefined;

  /**
   * The words read in `png`, the sparse way (text anywhere in the picture, not a page of lines),
   * within `timeoutMs` (the thread's start and any reading queued before it included). A read that
   * runs out ends the thread, which may have hung: tesseract.js never settles a job its thread dropped.
   */
  async read(png: Buffer, timeoutMs: number): Promise<ReadWord[]> {
    clearTimeout(this.idle);
    this.reading += 1;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void this.close();
        reject(new Error(`text recognition took over ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const current = this.started();
      const reading = current.then((worker) => {
        // Ended meanwhile (another read ran out of time): a job sent to an ended thread fails where
        // nobody can catch it.
        if (this.worker !== current) throw new Error('the text recogniser was closed');
        this.lastCall = Date.now();
        return worker.recognize(png, {}, { text: false, blocks: true });
      });
      reading.catch(() => undefined);
      const { data } = await Promise.race([reading, timedOut]);
      const words: ReadWord[] = [];
      for (const block of data.blocks ?? [])
        for (const paragraph of block.paragraphs)
          for (const line of paragraph.lines)
            for (const word of line.words)
              words.push({
                text: word.text,
                confidence: word.confidence,
                left: word.bbox.x0,
                top: word.bbox.y0,
                right: word.bbox.x1,
                bottom: word.bbox.y1,
              });
      return words;
    } finally {
      clearTimeout(timer);
      this.reading -= 1;
      this.idleLater();
    }
  }

  /** Ends the thread; the next picture starts another. */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    // tesseract.js reads a picture (awaited) before it posts the job to the thread, and posting to
    // an ended thread rejects a promise of its own that nobody handles: a call just made is let post.
    const posting = this.lastCall + POSTING_MS - Date.now();
    if (posting > 0) await new Promise((resolve) => setTimeout(resolve, posting));
    try {
      await (await worker).terminate();
    } catch {
      // It never started, or is gone already.
    }
  }

  private started(): Promise<Worker> {
    if (!this.worker) {
      const starting = createWorker('eng', OEM.LSTM_ONLY, {
        langPath: LANG_PATH,
        gzip: true,
        // The model is read from the package each start; a cache would be a file in the work tree.
        cacheMethod: 'none',
        // A failure inside the thread rejects the picture's promise; the default handler throws.
        errorHandler: () => undefined,
      }).then(async (worker) => {
        // A screenshot carries no resolution: without one Tesseract guesses it and says so on stdout.
        await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '96' });
        return worker;
      });
      this.worker = starting;
      // A thread that failed to start is tried again on the next picture.
      starting.catch(() => {
        if (this.worker === starting) this.worker = undefined;
      });
    }
    return this.worker;
  }

  private idleLater(): void {
    clearTimeout(this.idle);
    // A closed recogniser has no thread to end (a read that finished after close() must not keep
    // the process alive with a timer).
    if (this.reading === 0 && this.worker) this.idle = setTimeout(() => void this.close(), IDLE_MS);
  }
}

/** The process's recogniser (the audit worker closes it when it stops, the suite after its last test). */
export const textRecognizer = new TextRecognizer();
