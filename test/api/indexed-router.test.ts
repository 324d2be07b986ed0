import assert from 'node:assert/strict';
import Router from '@koa/router';
import { indexedRouter } from '../../api/http/indexed-router.ts';
import { startTestApi } from '../support/api.ts';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];
const UUID = '0b8e4f0e-7e47-4b7e-9a59-8f0d2c3a1f00';

type AnyRouter = Router;

/** Each layer the router matched, by its place in the stack. */
function placesOf(router: AnyRouter, result: ReturnType<AnyRouter['match']>) {
  const place = (layer: (typeof router.stack)[number]) => router.stack.indexOf(layer);
  return {
    path: result.path.map(place),
    pathAndMethod: result.pathAndMethod.map(place),
    route: result.route,
  };
}

/** Paths around each layer's template: its parameters filled, in other cases, with more or less. */
function pathsAround(router: AnyRouter): string[] {
  const templates = router.stack.flatMap((layer) => (typeof layer.path === 'string' ? [layer.path] : []));
  const filled = templates.flatMap((template) => {
    const withValues = (value: string) =>
      template.replace(/\{[^}]*\}/g, '').replace(/[:*][A-Za-z0-9_]+/g, value);
    return [withValues('x'), withValues(UUID), withValues('a%2Fb')];
  });
  return [
    ...new Set([
      ...filled,
      ...filled.map((path) => path.toUpperCase()),
      ...filled.map((path) => `${path}/`),
      ...filled.map((path) => `${path}/more`),
      ...filled.map((path) => path.split('/').slice(0, -1).join('/') || '/'),
      ...filled.map((path) => `/${path}`),
      '/',
      '',
      '*',
      '/unknown',
      '/api',
      '/api/',
      '/api/unknown/thing',
      '/API/JOBS',
      '/api/%6Aobs',
    ]),
  ];
}

/** The indexed match answers what the library's own loop over the whole stack answers. */
function assertSameMatches(router: AnyRouter) {
  const paths = pathsAround(router);
  assert.ok(paths.length > 20);
  let matched = 0;
  for (const path of paths) {
    for (const method of METHODS) {
      const indexed = placesOf(router, router.match(path, method));
      const library = placesOf(router, Router.prototype.match.call(router, path, method));
      assert.deepEqual(indexed, library, `${method} ${path}`);
      if (library.route) matched += 1;
    }
  }
  assert.ok(matched > paths.length / 4, 'most paths should match a route');
}

describe('the indexed router (api/http/indexed-router.ts)', function () {
  this.timeout(60_000);

  it("matches what @koa/router's own match does, for paths around every route of the API", async () => {
    const api = await startTestApi({ worker: false });
    try {
      assert.ok(api.api.router.stack.length > 100);
      assertSameMatches(api.api.router);
    } finally {
      await api.stop();
    }
  });

  it('keeps middleware layers, regular expressions, wildcards, optional groups and case', () => {
    const router = indexedRouter();
    const noop = () => Promise.resolve();
    router.use('/api', noop);
    router.use(noop);
    router.get('/api/jobs/:id', noop);
    router.get('/api/jobs/:id/reports', noop);
    router.post('/api/jobs', noop);
    router.get(/^\/legacy\/(\d+)$/, noop);
    router.get('/files/*rest', noop);
    router.get('/docs{/:page}', noop);
    router.get('/:anything/settings', noop);
    router.get('/API/Upper', noop);
    assertSameMatches(router);
    const found = router.match('/api/jobs/7', 'GET');
    // The prefixed middleware, the one on every path and the route, in the order they were added.
    assert.deepEqual(
      found.pathAndMethod.map((layer) => router.stack.indexOf(layer)),
      [0, 1, 2],
    );
  });

  it('indexes routes mounted after the first match, and a prefix set after it', () => {
    const router = indexedRouter();
    router.get('/a', () => Promise.resolve());
    assert.equal(router.match('/b', 'GET').route, false);
    router.get('/b', () => Promise.resolve());
    assert.equal(router.match('/b', 'GET').route, true);
    router.prefix('/p');
    assert.equal(router.match('/p/b', 'GET').route, true);
    assert.equal(router.match('/b', 'GET').route, false);
  });
});
