// The catalogue moved to lib/errors.ts so that commands and activities share it; this re-export
// keeps the API's importers until they import it from there.
export * from '../../lib/errors.ts';
