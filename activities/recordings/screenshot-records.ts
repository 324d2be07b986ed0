import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { findingsToPicture, saveFindingScreenshot } from '../../db/repositories/finding-screenshots.ts';

/** The service worker's side of the findings' pictures: saying why there are none. */
export function createScreenshotRecordActivities({ db }: { readonly db: Db }) {
  return {
    /**
     * No browser took the pictures in time (no audit worker runs, or it kept failing): each of the
     * report's findings still without one says so; asking again for screenshots tries once more.
     */
    async recordScreenshotsMissing(input: { readonly sessionId: string }): Promise<number> {
      return asSystem(db, async (tx) => {
        const session = await findingsToPicture(tx, input.sessionId);
        for (const finding of session?.findings ?? []) {
          await saveFindingScreenshot(
            tx,
            { sessionId: input.sessionId, noteId: finding.noteId, moment: finding.moment },
            { source: 'none', gap: 'no_browser' },
          );
        }
        return session?.findings.length ?? 0;
      });
    },
  };
}

export type ScreenshotRecordActivities = ReturnType<typeof createScreenshotRecordActivities>;
