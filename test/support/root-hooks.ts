import { textRecognizer } from '../../activities/audits/text-recognition.ts';
import { closeTestDatabase } from './database.ts';
import { stopTemporal } from './temporal.ts';

/** Shared resources are opened lazily by the suites that need them and closed once at the end. */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopTemporal();
    await closeTestDatabase();
    // Its thread would hold the process until it idles out.
    await textRecognizer.close();
  },
};
