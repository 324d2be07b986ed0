import { pino, type Logger } from 'pino';
import type { Config } from './index.ts';

export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino({ name, level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] });
}
