import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Bot, GrammyError } from 'grammy';

/** The local default, as for email (config's OUTBOX_DIR). */
export const LOCAL_OUTBOX_DIR = '.data/outbox';

export interface MessagingSettings {
  /** The bot's token; without it messages are written to `outboxDir` instead of sent. */
  readonly botToken: string | undefined;
  /** The bot API's origin; unset means the SDK's default. Tests point it at a local server. */
  readonly apiRoot: string | undefined;
  readonly outboxDir: string;
}

export interface ChatMessage {
  /** The chat the bot writes to (tester_profiles.messaging_chat_id). */
  readonly chatId: string;
  readonly text: string;
}

export interface MessagingSender {
  /** Where messages go, for logs and records: `bot-api` or `local-outbox:<folder>`. */
  readonly destination: string;
  /** True when nothing leaves the machine (no bot token): logs name it as local delivery. */
  readonly local: boolean;
  send(message: ChatMessage): Promise<void>;
}

/**
 * Sends chat messages through grammy's bot API client. Without a bot token the same call is
 * written to the outbox folder as JSON (`sendMessage` with its parameters), named as local
 * delivery, so the service runs its whole job locally and a developer can read what was sent.
 */
export function createMessagingSender(settings: MessagingSettings): MessagingSender {
  if (settings.botToken) {
    const bot = new Bot(settings.botToken, settings.apiRoot ? { client: { apiRoot: settings.apiRoot } } : {});
    return {
      destination: 'bot-api',
      local: false,
      async send({ chatId, text }) {
        await bot.api.sendMessage(chatId, text);
      },
    };
  }
  return {
    destination: `local-outbox:${settings.outboxDir}`,
    local: true,
    async send({ chatId, text }) {
      await mkdir(settings.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.messaging.json`;
      const call = { method: 'sendMessage', chat_id: chatId, text };
      await writeFile(join(settings.outboxDir, name), `${JSON.stringify(call, null, 2)}\n`);
    },
  };
}

/**
 * Whether a failed send can never succeed as it is: the bot API refused the request itself (an
 * unknown chat, a bot the tester blocked). Rate limits (429) and server errors are worth retrying.
 */
export function isPermanentMessagingFailure(error: unknown): boolean {
  return (
    error instanceof GrammyError &&
    error.error_code >= 400 &&
    error.error_code < 500 &&
    error.error_code !== 429
  );
}
