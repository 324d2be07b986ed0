// @ts-check
// Runs in the page's own JavaScript world (registered with `world: 'MAIN'` by prototype-access.js,
// for the prototype's origin while the session records), because Chromium delivers a
// script's error and an unhandled promise rejection only to listeners of the world whose script
// failed, never to the extension's content script. It tells content.js that one happened through a
// DOM event, which crosses worlds, and passes nothing else: no message, no stack, no source. The
// page could send the same event itself; that adds nothing but an `error` item at `window` for
// its own page.
(() => {
  // Injected into an open page at Start as well as registered for the next ones: once is enough.
  const mark = Symbol.for('usability-recorder.page-errors');
  const scope = /** @type {Record<symbol, boolean>} */ (/** @type {unknown} */ (globalThis));
  if (scope[mark]) return;
  scope[mark] = true;
  const relay = () => document.dispatchEvent(new CustomEvent('usability-recorder:page-error'));
  addEventListener('error', (event) => event instanceof ErrorEvent && relay(), true);
  addEventListener('unhandledrejection', relay);
})();
