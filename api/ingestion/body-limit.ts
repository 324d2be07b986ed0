/** Ingestion bodies may be larger than other JSON (DESIGN.md: 5 MB): 1,000 items or a few snapshots. */
export const INGESTION_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

const INGESTION_PATH = /^\/api\/(data\/(events|facial|voice)|sessions\/[^/]+\/(events|snapshots|voice))$/;

/** Whether the request goes to one of the six ingestion endpoints (and so gets the larger body limit). */
export const isIngestionPath = (path: string): boolean => INGESTION_PATH.test(path);
