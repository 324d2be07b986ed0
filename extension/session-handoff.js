// @ts-check
// A session handed over by the service's start page (handoff.js): taken only from the service origin
// the extension was built for, and only from that session's own start page. The session starts as
// with the popup's Start; then the prototype opens beside the tasks, or, when the browser has not
// given the extension the prototype's site yet, access.html asks for it (only an extension page may
// ask, in answer to a click).

import { hasAccess, originOf } from './prototype-access.js';
import { checkSettings } from './session-commands.js';
import { SERVICE_ORIGIN } from './service-origin.js';

/** @typedef {import('./session-state.js').SessionStore} SessionStore */

/**
 * @param {{ store: SessionStore, start: (settings: unknown) => Promise<void>, syncAccess: () => Promise<void>,
 *   run: <T>(command: () => Promise<T>) => Promise<T> }} deps `run`: in the popup's command chain, so
 *   that no other Start comes between the check and the start
 * @param {chrome.runtime.MessageSender} sender @param {unknown} message
 * @returns {Promise<{ ok: boolean, text: string }>} what the start page says
 */
export async function takeHandoff({ store, start, syncAccess, run }, sender, message) {
  const { sessionId, testToken } = /** @type {{ sessionId?: unknown, testToken?: unknown }} */ (message);
  const page = sender.url ? new URL(sender.url) : null;
  if (
    sender.origin !== SERVICE_ORIGIN ||
    page?.origin !== SERVICE_ORIGIN ||
    typeof sessionId !== 'string' ||
    page.pathname !== `/sessions/${encodeURIComponent(sessionId)}/start`
  )
    return { ok: false, text: 'The recorder takes sessions only from the service it was set up for.' };
  const started = await run(async () => {
    const busy = store.state.phase === 'recording' || store.state.phase === 'paused';
    const settings = store.settings;
    if (busy && settings?.sessionId === sessionId && settings.apiBase === SERVICE_ORIGIN) {
      // The same session again (the page reloaded, pressed again): it goes on with the new token,
      // which replaced the one it holds; nothing else changes and no tab opens again.
      await store.saveSettings(checkSettings({ ...settings, testToken }));
      return 'same';
    }
    // Starting another session would drop what the current one has not sent yet.
    if (busy) return 'busy';
    await start({ apiBase: SERVICE_ORIGIN, sessionId, testToken });
    return 'started';
  });
  if (started === 'same')
    return { ok: true, text: 'The recorder already records this session: it goes on with the new token.' };
  if (started === 'busy')
    return {
      ok: false,
      text: 'The recorder is still recording another session: complete it from the toolbar button first, then press the button again.',
    };
  const { phase, message: refusal, prototypeUrl } = store.state;
  if (phase !== 'recording')
    return { ok: false, text: `The recorder could not start the session: ${refusal ?? 'no answer'}.` };
  const origin = originOf(prototypeUrl);
  const windowId = sender.tab?.windowId;
  if (!origin || !prototypeUrl) return { ok: true, text: 'The recorder started the session.' };
  if (!(await hasAccess(origin))) {
    await chrome.tabs.create({
      url: chrome.runtime.getURL('access.html'),
      ...(windowId ? { windowId } : {}),
    });
    return {
      ok: true,
      text: `The recorder started the session. In the tab it opened, let it see ${origin}; the prototype opens next.`,
    };
  }
  await syncAccess(); // the capture scripts are registered before the prototype's first page loads
  await chrome.tabs.create({ url: prototypeUrl, ...(windowId ? { windowId } : {}) });
  await openTasksWindow();
  return {
    ok: true,
    text: 'The recorder started the session and opened the prototype in a new tab, and the tasks in a small window beside it.',
  };
}

/**
 * The tasks beside the prototype. The side panel opens only in answer to a click in a page of the
 * extension (a click in the service's page does not reach it), so they open in a small window of
 * their own; the toolbar button's "Show the tasks" puts them in the side panel.
 */
async function openTasksWindow() {
  await chrome.windows.create({
    url: chrome.runtime.getURL('tasks.html'),
    type: 'popup',
    width: 400,
    height: 640,
  });
}
