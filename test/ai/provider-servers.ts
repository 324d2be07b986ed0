import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderName } from '../../clients/ai/types.ts';

/** How a local provider behaves: answers, or one of the failures failover must survive. */
export type ProviderMode =
  | 'ok'
  | 'error500'
  | 'timeout'
  | 'rateLimited'
  | 'overloaded'
  | 'badKey'
  | 'modelRetired'
  | 'notJson'
  | 'fenced'
  | 'unknownIds';

export interface ModelRequest {
  readonly provider: ProviderName;
  readonly model: string;
  readonly system: string;
  readonly prompt: string;
  /** The JSON schema the request asked the answer to follow, where each API takes it. */
  readonly schema: Record<string, unknown> | undefined;
  /** OpenAI only: whether the schema was sent in strict mode. */
  readonly strict?: boolean;
}

/** What the "model" says: the text of its answer. */
export type Model = (request: ModelRequest) => string;

export interface LocalProvider {
  readonly name: ProviderName;
  readonly url: string;
  mode: ProviderMode;
  /** Modes for the next requests, one each, before `mode` applies again. */
  readonly nextModes: ProviderMode[];
  /** The Retry-After a rate-limited answer carries (seconds). */
  retryAfterSeconds: number;
  /** Every request that reached the wire protocol's endpoint, parsed. */
  readonly requests: ModelRequest[];
  /** Environment variables pointing the service at this server. */
  env(): NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

const KEY: Readonly<Record<ProviderName, string>> = {
  openai: 'sk-local-openai',
  anthropic: 'sk-ant-local',
  google: 'local-google-key',
};

/**
 * An HTTP server answering like one provider's API, so the real SDK runs against it: OpenAI's
 * POST /v1/chat/completions, Anthropic's POST /v1/messages, Gemini's POST
 * /v1/models/<model>:generateContent (or /v1beta/, the older version). It checks the API key the SDK sends.
 */
export async function startLocalProvider(name: ProviderName, model: Model): Promise<LocalProvider> {
  const requests: ModelRequest[] = [];
  const held = new Set<ServerResponse>();
  const state = { mode: 'ok' as ProviderMode, retryAfterSeconds: 30 };
  const nextModes: ProviderMode[] = [];

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: Error) => json(res, 500, { error: { message: error.message } }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const parsed = parseRequest(name, req, raw);
    if (!parsed) return json(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    if (!authorised(name, req)) return json(res, 401, { error: { message: 'invalid api key' } });
    requests.push(parsed);
    switch (nextModes.shift() ?? state.mode) {
      case 'error500':
        return json(res, 500, { error: { message: 'internal error', type: 'server_error' } });
      case 'rateLimited':
        res.setHeader('retry-after', String(state.retryAfterSeconds));
        return json(res, 429, { error: { message: 'rate limit exceeded', type: 'rate_limit_error' } });
      case 'overloaded':
        // Anthropic's own status for an overloaded API; the others answer 503.
        return json(res, name === 'anthropic' ? 529 : 503, {
          error: { message: 'overloaded', type: 'overloaded_error' },
        });
      case 'badKey':
        return json(res, 401, { error: { message: 'invalid x-api-key', type: 'authentication_error' } });
      case 'modelRetired':
        return json(res, 404, {
          error: { message: `model ${parsed.model} not found`, type: 'not_found_error' },
        });
      case 'timeout':
        held.add(res); // never answered: the client's timeout must fire
        return;
      case 'notJson':
        return json(res, 200, wrap(name, parsed.model, 'Sure! Here is what I found: the session went fine.'));
      case 'fenced':
        // Right JSON in a Markdown fence: not what a structured-output answer is.
        return json(res, 200, wrap(name, parsed.model, `\`\`\`json\n${model(parsed)}\n\`\`\``));
      case 'unknownIds':
        return json(res, 200, wrap(name, parsed.model, withUnknownIds(model(parsed))));
      case 'ok':
        return json(res, 200, wrap(name, parsed.model, model(parsed)));
    }
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prefix = { openai: 'OPENAI', anthropic: 'ANTHROPIC', google: 'GOOGLE_AI' }[name];
  return {
    name,
    url,
    get mode() {
      return state.mode;
    },
    set mode(mode: ProviderMode) {
      state.mode = mode;
    },
    nextModes,
    get retryAfterSeconds() {
      return state.retryAfterSeconds;
    },
    set retryAfterSeconds(seconds: number) {
      state.retryAfterSeconds = seconds;
    },
    requests,
    env: () => ({
      [`${prefix}_API_KEY`]: KEY[name],
      [`${prefix}_BASE_URL`]: name === 'openai' ? `${url}/v1` : url,
      [`${prefix}_MODEL`]: `${name}-local-model`,
    }),
    stop: () => {
      held.forEach((res) => res.destroy());
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The environment pointing the service at these servers, in order. */
export function envOf(
  servers: Readonly<Record<ProviderName, LocalProvider>>,
  names: readonly ProviderName[],
): NodeJS.ProcessEnv {
  return names.reduce<NodeJS.ProcessEnv>((env, name) => ({ ...env, ...servers[name].env() }), {});
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Exactly what each SDK sends, and nothing else passes. The installed @anthropic-ai/sdk (1.x) sends
 * the key as `Authorization: Bearer <key>` beside its `anthropic-version` header, and no
 * `x-api-key`; a request without both is refused as the real API would.
 */
function authorised(name: ProviderName, req: IncomingMessage): boolean {
  if (name === 'openai') return req.headers.authorization === `Bearer ${KEY.openai}`;
  if (name === 'anthropic') {
    return (
      req.headers.authorization === `Bearer ${KEY.anthropic}` &&
      /^\d{4}-\d{2}-\d{2}$/.test(String(req.headers['anthropic-version'] ?? ''))
    );
  }
  const url = new URL(req.url ?? '/', 'http://local');
  return req.headers['x-goog-api-key'] === KEY.google || url.searchParams.get('key') === KEY.google;
}

type JsonSchema = Record<string, unknown>;
interface OpenAiBody {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: JsonSchema } };
}
interface AnthropicBody {
  model: string;
  system?: string;
  messages: { role: string; content: string }[];
  output_config?: { format?: { type: string; schema: JsonSchema } };
}
interface GeminiBody {
  contents: { parts: { text: string }[] }[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: JsonSchema };
}

function parseRequest(name: ProviderName, req: IncomingMessage, raw: string): ModelRequest | undefined {
  const path = new URL(req.url ?? '/', 'http://local').pathname;
  if (req.method !== 'POST') return undefined;
  if (name === 'openai' && path === '/v1/chat/completions') {
    const body = JSON.parse(raw) as OpenAiBody;
    const text = (role: string) =>
      body.messages
        .filter((m) => m.role === role)
        .map((m) => m.content)
        .join('\n');
    const format =
      body.response_format?.type === 'json_schema' ? body.response_format.json_schema : undefined;
    return {
      provider: name,
      model: body.model,
      system: text('system'),
      prompt: text('user'),
      schema: format?.schema,
      strict: format?.strict === true,
    };
  }
  if (name === 'anthropic' && path === '/v1/messages') {
    const body = JSON.parse(raw) as AnthropicBody;
    return {
      provider: name,
      model: body.model,
      system: body.system ?? '',
      prompt: body.messages.map((m) => m.content).join('\n'),
      schema:
        body.output_config?.format?.type === 'json_schema' ? body.output_config.format.schema : undefined,
    };
  }
  const gemini = /^\/v1(?:beta)?\/models\/([^/:]+):generateContent$/.exec(path);
  if (name === 'google' && gemini) {
    const body = JSON.parse(raw) as GeminiBody;
    return {
      provider: name,
      model: gemini[1]!,
      system: body.systemInstruction?.parts.map((p) => p.text).join('\n') ?? '',
      prompt: body.contents.flatMap((c) => c.parts.map((p) => p.text)).join('\n'),
      schema:
        body.generationConfig?.responseMimeType === 'application/json'
          ? body.generationConfig.responseJsonSchema
          : undefined,
    };
  }
  return undefined;
}

/** The provider's response envelope around the model's text. */
function wrap(name: ProviderName, model: string, text: string): unknown {
  if (name === 'openai') {
    return {
      id: 'chatcmpl-local',
      object: 'chat.completion',
      created: 1_700_000_000,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
  }
  if (name === 'anthropic') {
    return {
      id: 'msg_local',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
  }
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  };
}

/** A well-formed answer that refers to things the material never named. */
function withUnknownIds(text: string): string {
  return text.replace(/"(momentId|findingId|patternId|criterion)":"[^"]*"/g, '"$1":"made-up-id"');
}
