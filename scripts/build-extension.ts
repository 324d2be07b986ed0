// `npm run build:extension`: the loadable folder dist/extension/ and its zip (extension/README.md).
import { relative } from 'node:path';
import { BUILT_EXTENSION_DIR, BUILT_EXTENSION_ZIP, buildExtension } from './lib/extension-build.ts';
import { PROJECT_ROOT } from './lib/tools.ts';

await buildExtension(BUILT_EXTENSION_DIR, BUILT_EXTENSION_ZIP);
console.log(`[build] ${relative(PROJECT_ROOT, BUILT_EXTENSION_DIR)}/ (load it unpacked)`);
console.log(`[build] ${relative(PROJECT_ROOT, BUILT_EXTENSION_ZIP)}`);
