import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import { z } from 'zod';
import type { RawEndpoint } from '../http/openapi.ts';
import type { RequestState } from '../http/state.ts';

const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};
const TAG = 'Documentation';

/** The endpoints `mountDocs` serves, as the OpenAPI document lists them. */
export const DOCS_ENDPOINTS: readonly RawEndpoint[] = [
  {
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'This OpenAPI 3.1 document',
    tag: TAG,
    contentTypes: ['application/json'],
  },
  {
    method: 'GET',
    path: '/api/docs',
    summary: 'The browsable documentation page (Swagger UI)',
    tag: TAG,
    contentTypes: ['text/html'],
  },
  {
    method: 'GET',
    path: '/api/docs/:asset',
    summary: "The page's stylesheet and script, from the installed swagger-ui-dist package",
    tag: TAG,
    contentTypes: Object.values(ASSETS),
    params: z.object({ asset: z.enum(Object.keys(ASSETS) as [string, ...string[]]) }),
  },
];

const assetsDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Usability service API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css"></head>
<body><div id="docs"></div><script src="/api/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs' });</script></body></html>`;

/**
 * The OpenAPI document and a browsable page over it. These two are the only answers outside the
 * envelope: tools expect the bare document, and browsers an HTML page. Assets come from the
 * installed swagger-ui-dist package, so the page works without network access.
 */
export function mountDocs(router: Router<RequestState>, document: () => unknown): void {
  router.get('/api/openapi.json', (ctx) => {
    ctx.body = document();
  });
  router.get('/api/docs', (ctx) => {
    ctx.type = 'html';
    ctx.body = page;
  });
  router.get('/api/docs/:asset', async (ctx, next) => {
    const type = ASSETS[ctx.params.asset ?? ''];
    if (!type) {
      await next();
      return;
    }
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await readFile(join(assetsDir, ctx.params.asset!));
  });
}
