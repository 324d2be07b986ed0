import { textRecognizer } from '../../activities/audits/text-recognition.ts';
import { closeTestDatabase } from './database.ts';
import { closeRunResources, keepResourcesForRun } from './run-resources.ts';
import { stopTemporal } from './temporal.ts';

/** Shared resources are opened lazily by the suites that need them and closed once at the end. */
export const mochaHooks = {
  beforeAll() {
    keepResourcesForRun();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    try {
      // Before Temporal: a kept audit worker polls it until it is shut down.
      await closeRunResources();
    } finally {
      // Whatever failed above, the rest is closed: any of them would hold the process open.
      await stopTemporal();
      await closeTestDatabase();
      // Its thread would hold the process until it idles out.
      await textRecognizer.close();
    }
  },
};
