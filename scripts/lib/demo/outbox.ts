import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// The local email provider: without SMTP_URL the worker writes each message as an RFC 822 file
// (`.eml`) into OUTBOX_DIR. The demo reads what a tester or a business would find in their inbox.

export interface OutboxMail {
  readonly file: string;
  /** Headers and every text part, transfer encodings undone. */
  readonly text: string;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A message's headers and parts as text. Enough MIME for what nodemailer writes: a single part, or
 * parts between boundary lines, each with its own Content-Transfer-Encoding.
 */
export function mailText(raw: string): string {
  const lines = raw.split(/\r?\n/);
  const out: string[] = [];
  let at = 0;
  while (at < lines.length) {
    const headers: string[] = [];
    while (at < lines.length && lines[at] !== '') headers.push(lines[at++]!);
    at += 1;
    const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers.join('\n'))?.[1]?.toLowerCase();
    const body: string[] = [];
    while (at < lines.length && !lines[at]!.startsWith('--')) body.push(lines[at++]!);
    out.push(headers.join('\n'), decodeBody(body.join('\n'), encoding));
    at += 1;
  }
  return out.join('\n');
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A file name's time prefix, as the email sender writes it (`2026-11-25T07-46-31-000Z-<uuid>.eml`). */
const namePrefix = (at: Date) => at.toISOString().replace(/[:.]/g, '-');

/** The messages written since `since` to `to` whose text matches `pattern`, oldest first. */
export async function mailsTo(dir: string, to: string, pattern: RegExp, since: Date): Promise<OutboxMail[]> {
  let names: string[];
  try {
    const from = namePrefix(since);
    names = (await readdir(dir)).filter((name) => name.endsWith('.eml') && name >= from).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const recipient = new RegExp(`^To:.*${escaped(to)}`, 'im');
  const found: OutboxMail[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const text = mailText(await readFile(file, 'utf8'));
    if (recipient.test(text) && pattern.test(text)) found.push({ file, text });
  }
  return found;
}
