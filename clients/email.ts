import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface EmailMessage {
  readonly to: string | readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** Files, and images the HTML shows through `cid:` (audit reports). */
  readonly attachments?: EmailAttachment[];
}

export interface EmailAttachment {
  readonly filename: string;
  readonly content: Buffer;
  readonly contentType: string;
  /** Referenced from the HTML as `cid:<cid>`. */
  readonly cid?: string;
}

export interface EmailSettings {
  /** SMTP when set (for example smtp://user:pass@host:587); otherwise `.eml` files in `outboxDir`. */
  readonly smtpUrl: string | undefined;
  readonly from: string;
  readonly outboxDir: string;
}

export interface EmailSender {
  /** Where mail goes, for logs: `smtp` or the outbox folder. */
  readonly destination: string;
  send(message: EmailMessage): Promise<void>;
  close(): void;
}

/**
 * Sends mail through nodemailer. Without SMTP the same message is rendered to an RFC 822 file
 * in the outbox (nodemailer's stream transport), so the local default produces real mail that
 * any client can open.
 */
export function createEmailSender(settings: EmailSettings): EmailSender {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(settings.smtpUrl);
    return {
      destination: 'smtp',
      async send(message) {
        await transport.sendMail({ from: settings.from, ...message, to: recipients(message) });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    destination: settings.outboxDir,
    async send(message) {
      const info = await transport.sendMail({ from: settings.from, ...message, to: recipients(message) });
      await mkdir(settings.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      await writeFile(join(settings.outboxDir, name), info.message as Buffer);
    },
    close: () => transport.close(),
  };
}

function recipients(message: EmailMessage): string[] {
  return typeof message.to === 'string' ? [message.to] : [...message.to];
}
