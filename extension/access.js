// @ts-check
// The tab the recorder opens when a session handed over by the service's start page needs the
// prototype's site (access.html). Only a page of the extension may ask the browser for a site, and
// only in answer to a click: the button asks (the browser's own dialog), has the background worker
// register the capture for that site, opens the tasks in the side panel and turns this tab into the
// prototype.

import { originOf, originPattern } from './prototype-access.js';

/** @typedef {import('./session-state.js').SessionState} SessionState */

/** @param {string} id */
const element = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const say = (/** @type {string} */ text) => (element('status').textContent = text);

const stored = await chrome.storage.local.get('state');
const state = /** @type {SessionState | undefined} */ (stored.state);
const prototypeUrl = state?.prototypeUrl ?? null;
const origin = originOf(prototypeUrl);
const button = /** @type {HTMLButtonElement} */ (element('allow'));
if (origin) element('origin').textContent = origin;
else {
  button.disabled = true;
  say('No session is recording: start it from its page on the service, or from the toolbar button.');
}

// Before any await in the click: the side panel opens only in answer to it.
const tab = await chrome.tabs.getCurrent();

// As `autofocus` asks; the browser applies that only once the tab is painted.
button.focus();
button.addEventListener('click', () => {
  if (!origin || !prototypeUrl || tab?.id === undefined) return;
  const tabId = tab.id;
  void chrome.sidePanel.open({ tabId }).catch(() => {});
  chrome.permissions.request({ origins: [originPattern(origin)] }).then(
    async (granted) => {
      if (!granted) {
        say(
          `Not allowed: nothing of ${origin} is recorded. Press the button again to allow it, or Complete the session from the toolbar button.`,
        );
        return;
      }
      say('Allowed. Opening the prototype...');
      // The capture is registered before the prototype's first page loads.
      await chrome.runtime.sendMessage({ type: 'command', command: 'access' });
      await chrome.tabs.update(tabId, { url: prototypeUrl });
    },
    (error) => say(`The browser did not ask: ${error instanceof Error ? error.message : String(error)}`),
  );
});
