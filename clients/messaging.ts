import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Bot, GrammyError, InlineKeyboard } from 'grammy';
import type { ChatButton } from '../lib/offer-messages.ts';

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
  /** Inline keyboard buttons in one row; a press comes back as a callback query to the webhook. */
  readonly buttons?: readonly ChatButton[];
}

/** The bot API's `reply_markup` for the buttons (grammy's InlineKeyboard), or none. */
function replyMarkup(buttons: readonly ChatButton[] | undefined): InlineKeyboard | undefined {
  if (!buttons?.length) return undefined;
  return buttons.reduce((keyboard, button) => keyboard.text(button.text, button.data), new InlineKeyboard());
}

export interface MessagingSender {
  /** Where messages go, for logs and records: `bot-api` or `local-outbox:<folder>`. */
  readonly destination: string;
  /** True when nothing leaves the machine (no bot token): logs name it as local delivery. */
  readonly local: boolean;
  send(message: ChatMessage): Promise<void>;
  /** Tells the chat a pressed button was taken (`answerCallbackQuery`): its spinner stops. */
  answerCallback(callbackQueryId: string): Promise<void>;
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
      async send({ chatId, text, buttons }) {
        const markup = replyMarkup(buttons);
        await bot.api.sendMessage(chatId, text, markup ? { reply_markup: markup } : {});
      },
      async answerCallback(callbackQueryId) {
        await bot.api.answerCallbackQuery(callbackQueryId);
      },
    };
  }
  return {
    destination: `local-outbox:${settings.outboxDir}`,
    local: true,
    async send({ chatId, text, buttons }) {
      await mkdir(settings.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.messaging.json`;
      const markup = replyMarkup(buttons);
      const call = {
        method: 'sendMessage',
        chat_id: chatId,
        text,
        ...(markup ? { reply_markup: markup } : {}),
      };
      await writeFile(join(settings.outboxDir, name), `${JSON.stringify(call, null, 2)}\n`);
    },
    // Without a bot no chat shows a button, so no press waits for an answer.
    async answerCallback() {},
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
