// The recorder's package as the build leaves it for the service to offer: the zip, and beside it a
// small file of facts about it. scripts/lib/extension-build.ts writes both; the start page links
// the zip only when it was built for this service's own origin (the extension trusts one service).
import { z } from 'zod';

export const RECORDER_PACKAGE_FILE = 'usability-session-recorder.zip';

/** Where the service offers it (api/pages/recorder-download/). */
export const RECORDER_DOWNLOAD_PATH = `/downloads/${RECORDER_PACKAGE_FILE}`;

/** The facts file beside a package `name.zip`: `name.json`. */
export const recorderFactsFileOf = (zipFile: string): string => zipFile.replace(/\.zip$/, '') + '.json';

export const recorderPackageFacts = z.object({
  /** The one service origin the extension inside trusts. */
  serviceOrigin: z.url(),
  /** The manifest's version. */
  version: z.string().min(1),
  bytes: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export type RecorderPackageFacts = z.infer<typeof recorderPackageFacts>;
