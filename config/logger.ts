import { pino, type Logger } from 'pino';
import type { Config } from './index.ts';
import { LogLineWriter } from './log-line-writer.ts';

/** JSON lines to stdout, written asynchronously and together (config/log-line-writer.ts). */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino(
    { name, level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    new LogLineWriter(1),
  );
}
