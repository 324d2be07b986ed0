import { createReadStream } from 'node:fs';
import type { Config } from '../../../config/index.ts';
import { notFound } from '../../../lib/errors.ts';
import { RECORDER_PACKAGE_FILE } from '../../../lib/recorder-package.ts';
import { RECORDER_DOWNLOAD_PATH } from '../paths.ts';
import type { PageRouter } from '../shared/page-routes.ts';
import { offeredRecorder } from './offered.ts';

/**
 * The recorder's package, for anyone (it holds no secret: the service's origin is public), when one
 * was built for this service; otherwise the 404 page. Revalidated by its digest, as a new build
 * replaces it under the same name.
 */
export function mountRecorderDownload(pages: PageRouter, config: Config): void {
  pages.public('GET', RECORDER_DOWNLOAD_PATH, async ({ ctx }) => {
    const offered = await offeredRecorder(config.http.recorderPackageDir, config.http.baseUrl);
    if (!offered) throw notFound('The session recorder package');
    ctx.set('ETag', `"${offered.sha256}"`);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/zip';
    ctx.attachment(RECORDER_PACKAGE_FILE);
    ctx.length = offered.bytes;
    ctx.body = createReadStream(offered.file);
  });
}
