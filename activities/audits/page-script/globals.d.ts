// What the page script adds to the page's window, typed for page-script.js only (this folder's
// tsconfig.json; the root project leaves the folder out).

interface Window {
  /** The kit, defined once per document by page-script.js; the Node side calls its members by name. */
  __auditKit?: unknown;
  /** axe-core, which the init script defines just before the kit (axe-check.ts's AXE_SOURCE). */
  axe?: unknown;
}
