import type Koa from 'koa';

type AnySet = (this: Koa.Response, ...args: unknown[]) => void;

/**
 * Gives the app's responses a `set` that writes one header straight to Node's response. Koa 3's own
 * builds an entries array, a mapped array and a pair for every call, and a request sets about ten
 * headers (its id, the rate limit's three, the type, the length...): that was 11 % of all a cached
 * read allocated (`npm run bench -- stack-cost`). The one case it changes is one name and a value
 * that is not a list, where Koa's would do the same: nothing once the headers are sent, otherwise
 * `setHeader`. A list (a singleton header's is unwrapped or refused) or an object of headers goes
 * to Koa's own. `app.response` is the prototype of every request's response, there to be extended.
 */
export function setHeadersDirectly(app: Koa): void {
  // Koa's own, called with a response as `this` below.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const koaSet = app.response.set as AnySet;
  function set(
    this: Koa.Response,
    field: string | Record<string, string | string[]>,
    value?: string | string[],
  ) {
    if (typeof field === 'string' && !Array.isArray(value)) {
      if (!this.headerSent && field) this.res.setHeader(field, value!);
      return;
    }
    koaSet.call(this, field, value);
  }
  app.response.set = set;
}
