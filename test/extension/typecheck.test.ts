import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { builtExtension, EXTENSION_DIR } from './support/browser.ts';

const SOURCE_DIR = fileURLToPath(new URL('../../extension', import.meta.url));

// The extension is plain JavaScript (the build adds only the offscreen bundle); its JSDoc types are checked by
// tsc with the browser's globals (extension/tsconfig.json), apart from the Node project's
// `npm run typecheck`, so this test is what keeps them checked.
describe('Browser extension: sources', () => {
  it('type-check cleanly with extension/tsconfig.json (strict, checkJs)', function () {
    this.timeout(60_000);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(SOURCE_DIR, 'tsconfig.json')], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  });

  it('build into a folder that holds every file its manifest names, the icons at their sizes', async function () {
    this.timeout(120_000);
    await builtExtension();
    type Manifest = {
      icons: Record<string, string>;
      action: { default_icon: Record<string, string>; default_popup: string };
      background: { service_worker: string };
      side_panel: { default_path: string };
      content_scripts: { js: string[] }[];
    };
    const manifest = JSON.parse(readFileSync(join(EXTENSION_DIR, 'manifest.json'), 'utf8')) as Manifest;
    const icons = [...Object.entries(manifest.icons), ...Object.entries(manifest.action.default_icon)];
    assert.ok(icons.length >= 4);
    for (const [size, path] of icons) {
      const { width, height, format } = await sharp(join(EXTENSION_DIR, path)).metadata();
      assert.deepEqual([format, width, height], ['png', Number(size), Number(size)], path);
    }
    const files = [
      manifest.background.service_worker,
      manifest.action.default_popup,
      manifest.side_panel.default_path,
      ...manifest.content_scripts.flatMap((script) => script.js),
      // Registered at run time for the prototype's origin (screen-recording.js).
      'recorder.js',
    ];
    for (const file of files) assert.ok(existsSync(join(EXTENSION_DIR, file)), file);
  });
});
