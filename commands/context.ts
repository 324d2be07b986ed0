import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { EmailSender } from '../clients/email.ts';
import type { FacialEngine } from '../clients/facial/facial-engine-client.ts';
import type { PaymentProvider } from '../clients/payments/provider.ts';
import type { Config } from '../config/index.ts';
import type { Db } from '../db/connection.ts';

/**
 * What every command runs over, whoever calls it (a REST route, a page, an activity): the database,
 * opened through its doors (`asUser` on a caller's behalf, `asSystem` for the service), the Temporal
 * client, the configuration, a logger, the clock, and the outside systems commands reach.
 */
export interface CommandContext {
  readonly db: Db;
  readonly temporal: Client;
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly email: EmailSender;
  readonly payments: PaymentProvider;
  readonly facialEngine: FacialEngine;
}

/** The task queue the service's workflows run on. */
export const serviceTaskQueue = (ctx: Pick<CommandContext, 'config'>): string =>
  ctx.config.temporal.taskQueue;
