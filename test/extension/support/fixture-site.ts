import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// The study's prototype as a tester would use it: a form, buttons without ids, an in-page route
// change, a failing script, a missing image, a link to a second page carrying an email address in
// its query, and room to scroll.

const SHOP_ONE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Checkout</title></head>
  <body>
    <main>
      <form id="order" onsubmit="event.preventDefault()">
        <label for="email">Email</label> <input id="email" type="email">
        <label>Notes <textarea name="notes"></textarea></label>
        <label for="password">Password</label> <input id="password" type="password">
        <label for="postcode">Postcode</label> <input id="postcode" required>
        <button id="place-order" type="submit">Place order</button>
      </form>
      <div class="actions"><button type="button">Back</button> <button type="button"><span class="icon">*</span> Save</button></div>
      <button id="next-step" type="button" onclick="history.pushState({}, '', '/shop/step-2')">Next step</button>
      <button id="pay" type="button" onclick="throw new Error('card declined for jane.secret')">Pay</button>
      <img id="logo" src="/missing-logo.png" alt="">
      <p><a id="to-two" href="/shop/two?email=jane.secret%40example.com#/receipt?ref=jane.secret">Receipt</a></p>
      <div style="height: 3000px"></div>
    </main>
  </body>
</html>`;

const SHOP_TWO = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Receipt</title></head>
  <body><main><h1>Thank you</h1><button id="done" type="button">Done</button></main></body>
</html>`;

const PAGES: Record<string, string> = { '/shop/one': SHOP_ONE, '/shop/two': SHOP_TWO };

export interface FixtureSite {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startFixtureSite(): Promise<FixtureSite> {
  const server = createServer((request, response) => {
    const page = PAGES[new URL(request.url ?? '/', 'http://site').pathname];
    if (!page) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
