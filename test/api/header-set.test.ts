import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { setHeadersDirectly } from '../../api/http/header-set.ts';

type Call = (response: Koa.Response) => void;

/** What a call leaves: the headers, or the error it throws (its class and code). */
function outcome(app: Koa, call: Call) {
  const request = new IncomingMessage(new Socket());
  request.method = 'GET';
  request.url = '/';
  const ctx = app.createContext(request, new ServerResponse(request));
  try {
    call(ctx.response);
    return { headers: { ...ctx.res.getHeaders() }, sent: ctx.headerSent };
  } catch (error) {
    return { error: `${(error as Error).name} ${(error as { code?: string }).code ?? ''}` };
  }
}

const CALLS: Record<string, Call> = {
  'one header': (response) => response.set('X-Request-Id', 'abc'),
  'a number': (response) => response.set('Content-Length', 12 as unknown as string),
  'a list': (response) => response.set('Set-Cookie', ['a=1', 'b=2']),
  "a singleton header's list of one": (response) => response.set('Content-Type', ['text/plain']),
  "a singleton header's list of two": (response) => response.set('Content-Type', ['text/plain', 'text/html']),
  'an object': (response) => response.set({ 'X-One': '1', 'X-Two': ['2', '3'] }),
  'an empty name': (response) => response.set('', 'x'),
  'an invalid name': (response) => response.set('Bad Name', 'x'),
  'an invalid value': (response) => response.set('X-Bad', 'a\nb'),
  'no value': (response) => (response.set as unknown as (field: string) => void).call(response, 'X-None'),
  'a value replaced': (response) => {
    response.set('RateLimit-Remaining', '5');
    response.set('ratelimit-remaining', '4');
  },
  'after the headers are sent': (response) => {
    response.set('X-Early', '1');
    response.res.writeHead(200);
    response.set('X-Late', '2');
  },
};

describe('setting headers without arrays', () => {
  const koa = new Koa();
  const direct = new Koa();
  setHeadersDirectly(direct);

  it('is installed on the app given', () => {
    assert.ok(Object.hasOwn(direct.response, 'set'));
    assert.ok(!Object.hasOwn(koa.response, 'set'));
  });

  for (const [name, call] of Object.entries(CALLS)) {
    it(`does what Koa's own does: ${name}`, () => {
      assert.deepEqual(outcome(direct, call), outcome(koa, call));
    });
  }
});
