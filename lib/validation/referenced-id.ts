import { z } from 'zod';

// An identifier a request body names (a study's `jobId`, a session's `sessionId`). The spec: "All
// identifiers are strings", so a caller cannot know their form, and one that names nothing is not
// found (404), as in a path, rather than invalid (422), whatever it looks like.

const SERVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id no row has (the nil UUID; the database makes random ones): what any other string names. */
export const NO_ROW_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Any string; one not of the service's form becomes `NO_ROW_ID`, so the command's lookup finds
 * nothing and answers its own 404. Never stored as sent (test/api/storable-values.test.ts).
 */
export const referencedId = (what: string) =>
  z
    .string({ error: `Must be ${what} (a string)` })
    .meta({ 'x-referenced-id': true })
    .transform((id) => (SERVICE_ID.test(id) ? id.toLowerCase() : NO_ROW_ID))
    .meta({ description: `${what[0]!.toUpperCase()}${what.slice(1)}; one that names nothing is 404` });
