import type { Client } from '@temporalio/client';
import type { EmailSender } from '../../clients/email.ts';
import type { Config } from '../../config/index.ts';
import type { Db } from '../../db/connection.ts';
import type { ApiTokenVerifier } from './api-token-verifier.ts';
import type { RevokedLogins } from './revoked-logins.ts';

/** What the authentication commands and routes are built over. */
export interface AuthDependencies {
  readonly db: Db;
  readonly config: Config;
  readonly now: () => Date;
  readonly email: EmailSender;
  /** Starts the outbox's delivery of recovery mails. */
  readonly temporal: Client;
  readonly apiTokens: ApiTokenVerifier;
  readonly revokedLogins: RevokedLogins;
  /** fetch for the OAuth providers' endpoints (replaceable only to observe calls). */
  readonly fetch?: typeof fetch;
}
