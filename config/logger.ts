import { pino, type Logger } from 'pino';
import type { Config } from './index.ts';

/**
 * JSON lines to stdout, written asynchronously: under load the lines that pile up while one write
 * is under way go out in the next write together (a request's log line no longer costs it a write
 * of its own), and an idle process still writes each line at once. Pino flushes what is pending
 * when the process exits.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino(
    { name, level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    pino.destination({ dest: 1, sync: false }),
  );
}
