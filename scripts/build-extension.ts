// `npm run build:extension`: the loadable folder dist/extension/ and its zip (extension/README.md).
import { relative } from 'node:path';
import {
  BUILT_EXTENSION_DIR,
  BUILT_EXTENSION_ZIP,
  buildExtension,
  serviceOriginOf,
} from './lib/extension-build.ts';
import { PROJECT_ROOT } from './lib/tools.ts';

// The service the extension trusts: `--service <origin>`, else the service's BASE_URL (config/index.ts).
const flag = process.argv.indexOf('--service');
const service = flag >= 0 ? process.argv[flag + 1] : (process.env.BASE_URL ?? 'http://localhost:3000');
if (!service) throw new Error('--service needs an origin, such as https://usability.example');
await buildExtension(BUILT_EXTENSION_DIR, BUILT_EXTENSION_ZIP, serviceOriginOf(service));
console.log(`[build] for the service at ${serviceOriginOf(service)}`);
console.log(`[build] ${relative(PROJECT_ROOT, BUILT_EXTENSION_DIR)}/ (load it unpacked)`);
console.log(`[build] ${relative(PROJECT_ROOT, BUILT_EXTENSION_ZIP)}`);
