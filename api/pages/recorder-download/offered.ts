import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  RECORDER_PACKAGE_FILE,
  recorderFactsFileOf,
  recorderPackageFacts,
  type RecorderPackageFacts,
} from '../../../lib/recorder-package.ts';

export interface OfferedRecorder extends RecorderPackageFacts {
  readonly file: string;
}

/**
 * The recorder's package in `dir` when there is one built for `baseUrl`'s origin and it is the one
 * its facts describe (a build interrupted halfway leaves none). Read at each request: a build while
 * the service runs is offered at once, and a package for another service never is.
 */
export async function offeredRecorder(dir: string, baseUrl: string): Promise<OfferedRecorder | undefined> {
  const file = join(dir, RECORDER_PACKAGE_FILE);
  try {
    const facts = recorderPackageFacts.safeParse(
      JSON.parse(await readFile(recorderFactsFileOf(file), 'utf8')),
    );
    if (!facts.success || facts.data.serviceOrigin !== new URL(baseUrl).origin) return undefined;
    if ((await stat(file)).size !== facts.data.bytes) return undefined;
    return { ...facts.data, file };
  } catch {
    return undefined; // not built here: the start page says how else to get it
  }
}
