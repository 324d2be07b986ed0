import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface BotCall {
  /** The bot token from the path (`/bot<token>/<method>`). */
  readonly token: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

export interface BotApiServer {
  /** The apiRoot to give the SDK: no trailing slash. */
  readonly url: string;
  readonly calls: BotCall[];
  /** Chats the server refuses as the real API does for a bot the user blocked (403). */
  readonly blockedChats: Set<string>;
  /** The first sendMessage to `chatId` that `matches`, waiting for it with a deadline. */
  waitForMessage(chatId: string, matches?: (text: string) => boolean): Promise<BotCall>;
  stop(): Promise<void>;
}

/**
 * A local server that answers like the messaging channel's bot API (POST /bot<token>/<method>,
 * JSON or form parameters, `{ok, result}` or `{ok: false, error_code, description}`), so the
 * real grammy client runs against it.
 */
export async function startBotApi(): Promise<BotApiServer> {
  const calls: BotCall[] = [];
  const blockedChats = new Set<string>();
  let nextMessageId = 1;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      const raw = Buffer.concat(chunks).toString('utf8');
      const params = parseParams(request.headers['content-type'] ?? '', raw);
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (!match) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
      const call: BotCall = { token: match[1]!, method: match[2]!, params };
      calls.push(call);
      const chatId = String(params.chat_id);
      if (call.method === 'answerCallbackQuery') return reply(200, { ok: true, result: true });
      if (call.method !== 'sendMessage') {
        return reply(404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
      }
      if (blockedChats.has(chatId)) {
        return reply(403, {
          ok: false,
          error_code: 403,
          description: 'Forbidden: bot was blocked by the user',
        });
      }
      reply(200, {
        ok: true,
        result: {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(chatId), type: 'private' },
          text: params.text,
        },
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    blockedChats,
    async waitForMessage(chatId, matches = () => true) {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const found = calls.find(
          (call) =>
            call.method === 'sendMessage' &&
            String(call.params.chat_id) === chatId &&
            matches(String(call.params.text)),
        );
        if (found) return found;
        await sleep(25);
      }
      assert.fail(`no sendMessage to chat ${chatId} arrived`);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseParams(contentType: string, raw: string): Record<string, unknown> {
  if (!raw) return {};
  if (contentType.includes('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  return Object.fromEntries(new URLSearchParams(raw));
}
