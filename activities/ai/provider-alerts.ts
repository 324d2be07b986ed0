import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { adminContacts } from '../../db/repositories/contacts.ts';
import type { EmailSender } from '../../clients/email.ts';
import { sendEmailOnce } from '../payments/emails-once.ts';
import type { ProviderFailure } from './errors.ts';
import type { AgentLogger } from './failover.ts';

/** The outbox kind of the alert: a provider refuses the service's requests (its key, its model). */
export const PROVIDER_REFUSED_KIND = 'ai_provider_refused';

export interface ProviderAlertDependencies {
  readonly db: Db;
  readonly email: EmailSender;
  readonly logger: AgentLogger;
  readonly now?: () => Date;
}

/**
 * Tells every admin, once a day per provider, that an AI provider refuses the service's requests:
 * a bad or revoked key, or a model it no longer serves. Other providers answer meanwhile, and the
 * agents' work is not retried against the refusal; only an operator can mend it. An alert that
 * cannot be sent is logged and does not stop the agent.
 */
export function providerRefusalAlerts({
  db,
  email,
  logger,
  now = () => new Date(),
}: ProviderAlertDependencies) {
  // While a key is bad every agent call is refused: after the first alert of the day this process
  // asks the database nothing more (the outbox's dedupe key still guards other processes).
  const alerted = new Set<string>();
  return async (failure: ProviderFailure): Promise<void> => {
    const day = now().toISOString().slice(0, 10);
    const key = `${failure.provider}:${day}`;
    if (alerted.has(key)) return;
    try {
      const admins = await asSystem(db, (tx) => adminContacts(tx));
      for (const admin of admins) {
        await sendEmailOnce(db, email, {
          dedupeKey: `${PROVIDER_REFUSED_KIND}:${failure.provider}:${day}:${admin.id}`,
          kind: PROVIDER_REFUSED_KIND,
          userId: admin.id,
          to: admin.email,
          subject: `The AI provider ${failure.provider} refuses the service's requests`,
          text: [
            `The AI provider ${failure.provider} refused a request: ${failure.reason}`,
            '',
            'This is its key (HTTP 401 or 403) or its model or request (HTTP 400, 404 or 422): asking',
            'again changes nothing. The other providers answer meanwhile; work that every provider',
            'refused has failed. Check the API key and the model in the configuration',
            '(OPENAI_*, ANTHROPIC_*, GOOGLE_AI_*), then restart the worker.',
            '',
            'You get this message at most once a day for each provider.',
          ].join('\n'),
        });
      }
      alerted.add(key);
    } catch (error) {
      logger.warn({ provider: failure.provider, error: String(error) }, 'the AI provider alert was not sent');
    }
  };
}
