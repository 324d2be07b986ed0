// `npm run screenshots`: regenerates docs/screenshots/*.png (the outreach queue and the review page)
// in Chromium, from a by-hand demo run whose people are played by a program. Needs `npm start`.
import { join } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { prepareDemo } from './lib/demo/prepare-demo.ts';
import { takeScreenshots } from './lib/demo/screenshots.ts';
import { PROJECT_ROOT } from './lib/tools.ts';

try {
  const config = loadConfig();
  const demo = await prepareDemo(config, 'IE');
  const files = await takeScreenshots({
    demo,
    chromiumPath: config.audits.chromiumPath,
    outDir: join(PROJECT_ROOT, 'docs', 'screenshots'),
  });
  for (const file of files) console.log(`wrote ${file}`);
} catch (error) {
  console.error(`screenshots: ${(error as Error).message}`);
  process.exit(1);
}
