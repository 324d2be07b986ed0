import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// A local HTTP server that answers like the payment provider's API for the calls the service
// makes, so the real SDK runs against it: form-encoded requests, the provider's object shapes,
// its idempotency layer (same key -> the same answer, replayed), and injected faults.

export type Fault = 'status500' | 'timeout' | 'badJson' | 'holdAfterCreate';

export interface ProviderRequest {
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  readonly account: string | undefined;
  readonly params: Record<string, unknown>;
  readonly replayed: boolean;
}

export interface CreatedObject {
  readonly path: string;
  readonly id: string;
  readonly idempotencyKey: string | undefined;
  readonly account: string | undefined;
  readonly params: Record<string, unknown>;
}

export interface FakeProvider {
  /** For STRIPE_API_BASE. */
  readonly url: string;
  readonly requests: ProviderRequest[];
  /** Distinct objects created (a replayed key creates nothing). */
  readonly created: CreatedObject[];
  createdAt(path: string): CreatedObject[];
  /** The next `times` requests to `path` meet the fault (before the idempotency layer). */
  fault(path: string, fault: Fault, times?: number): void;
  /**
   * What `GET /v1/payouts/:id` answers for a payout from now on (created `pending`); its event is
   * the test's to send, or not.
   */
  setPayoutStatus(
    payoutId: string,
    status: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled',
    failure?: { code: string; message: string },
  ): void;
  /** Resolves when a `holdAfterCreate` request has created its object and is being held. */
  nextHold(): Promise<CreatedObject>;
  stop(): Promise<void>;
}

/** `line_items[0][price_data][currency]=eur` -> nested objects and arrays. */
function expand(form: URLSearchParams): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of form) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

const number = (value: unknown) => Number(value ?? 0);

export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: ProviderRequest[] = [];
  const created: CreatedObject[] = [];
  const answers = new Map<string, { path: string; params: string; body: unknown }>();
  const faults: { path: string; fault: Fault }[] = [];
  const holdWaiters: ((object: CreatedObject) => void)[] = [];
  const payoutStates = new Map<string, { status: string; failure?: { code: string; message: string } }>();
  const heldSockets = new Set<Socket>();
  let sequence = 0;
  // Ids are unique across servers too, as the provider's are: a test run starts several.
  const instance = randomBytes(4).toString('hex');
  const nextId = (prefix: string) => `${prefix}_test_${instance}${String((sequence += 1)).padStart(6, '0')}`;
  const now = () => Math.floor(Date.now() / 1000);

  function build(path: string, params: Record<string, unknown>, account: string | undefined): unknown {
    switch (path) {
      case '/v1/checkout/sessions': {
        const items = Object.values((params.line_items ?? {}) as Record<string, Record<string, unknown>>);
        const total = items.reduce(
          (sum, item) =>
            sum + number(item.quantity) * number((item.price_data as Record<string, unknown>).unit_amount),
          0,
        );
        const currency = (items[0]?.price_data as Record<string, unknown> | undefined)?.currency;
        const id = nextId('cs');
        return {
          id,
          object: 'checkout.session',
          mode: params.mode,
          url: `https://checkout.provider.test/pay/${id}`,
          amount_total: total,
          currency,
          client_reference_id: params.client_reference_id ?? null,
          metadata: params.metadata ?? {},
          customer_email: params.customer_email ?? null,
          payment_status: 'unpaid',
          status: 'open',
          expires_at: now() + 24 * 3600,
        };
      }
      case '/v1/accounts':
        return {
          id: nextId('acct'),
          object: 'account',
          type: params.type,
          email: params.email,
          charges_enabled: false,
          payouts_enabled: false,
          details_submitted: false,
          metadata: params.metadata ?? {},
        };
      case '/v1/account_links':
        return {
          object: 'account_link',
          url: `https://connect.provider.test/setup/${String(params.account)}/${nextId('link')}`,
          created: now(),
          expires_at: now() + 300,
        };
      case '/v1/transfers':
        return {
          id: nextId('tr'),
          object: 'transfer',
          amount: number(params.amount),
          currency: params.currency,
          destination: params.destination,
          metadata: params.metadata ?? {},
        };
      case '/v1/payouts':
        return {
          id: nextId('po'),
          object: 'payout',
          amount: number(params.amount),
          currency: params.currency,
          status: 'pending',
          arrival_date: now() + 2 * 24 * 3600,
          destination: `ba_${account ?? 'platform'}`,
          metadata: params.metadata ?? {},
        };
      default:
        return undefined;
    }
  }

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Request-Id': `req_${sequence}`,
      ...headers,
    });
    res.end(JSON.stringify(body));
  };

  /** A payout read back on the account it was made on, with the status the test gave it. */
  function retrieve(res: ServerResponse, path: string, account: string | undefined) {
    const id = /^\/v1\/payouts\/([^/]+)$/.exec(path)?.[1];
    const made = id ? created.find((object) => object.id === id && object.account === account) : undefined;
    const answer = made?.idempotencyKey ? answers.get(made.idempotencyKey) : undefined;
    requests.push({ path, idempotencyKey: undefined, account, params: {}, replayed: false });
    if (!id || !answer) {
      return send(res, 404, {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such payout: '${id}'`,
        },
      });
    }
    const state = payoutStates.get(id) ?? { status: 'pending' };
    send(res, 200, {
      ...(answer.body as object),
      status: state.status,
      failure_code: state.failure?.code ?? null,
      failure_message: state.failure?.message ?? null,
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const params = expand(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const path = (req.url ?? '').split('?')[0]!;
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    const account = req.headers['stripe-account'] as string | undefined;

    if (req.method === 'GET') return retrieve(res, path, account);

    const faultIndex = faults.findIndex((f) => f.path === path);
    const fault = faultIndex >= 0 ? faults.splice(faultIndex, 1)[0]!.fault : undefined;
    if (fault === 'status500') {
      requests.push({ path, idempotencyKey, account, params, replayed: false });
      return send(res, 500, { error: { type: 'api_error', message: 'Injected failure' } });
    }
    if (fault === 'timeout') {
      requests.push({ path, idempotencyKey, account, params, replayed: false });
      heldSockets.add(req.socket);
      return; // never answers; the client's timeout ends it
    }
    if (fault === 'badJson') {
      requests.push({ path, idempotencyKey, account, params, replayed: false });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end('{"id": "cs_broken", "object": ');
    }

    const fingerprint = JSON.stringify([path, account, params]);
    if (idempotencyKey && answers.has(idempotencyKey)) {
      const previous = answers.get(idempotencyKey)!;
      requests.push({ path, idempotencyKey, account, params, replayed: true });
      if (previous.params !== fingerprint) {
        return send(res, 400, {
          error: {
            type: 'idempotency_error',
            message: 'Keys for idempotent requests can only be used with the same parameters',
          },
        });
      }
      return send(res, 200, previous.body, { 'Idempotent-Replayed': 'true' });
    }
    requests.push({ path, idempotencyKey, account, params, replayed: false });
    const body = build(path, params, account);
    if (!body)
      return send(res, 404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (POST: ${path})` },
      });
    const object = { path, id: (body as { id?: string }).id ?? '', idempotencyKey, account, params };
    created.push(object);
    if (idempotencyKey) answers.set(idempotencyKey, { path, params: fingerprint, body });
    if (fault === 'holdAfterCreate') {
      heldSockets.add(req.socket);
      holdWaiters.shift()?.(object);
      return; // created at the provider, never answered: the caller dies waiting
    }
    send(res, 200, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) =>
      send(res, 500, { error: { type: 'api_error', message: error.message } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    created,
    createdAt: (path) => created.filter((object) => object.path === path),
    fault(path, fault, times = 1) {
      for (let i = 0; i < times; i += 1) faults.push({ path, fault });
    },
    setPayoutStatus(payoutId, status, failure) {
      payoutStates.set(payoutId, failure ? { status, failure } : { status });
    },
    nextHold: () => new Promise((resolve) => holdWaiters.push(resolve)),
    async stop() {
      for (const socket of heldSockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
