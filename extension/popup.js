// @ts-check
// The popup: the tester enters the API base URL, the session id and the test token, and moves the
// session. The background worker does the work (the popup may close at any moment); the popup
// shows the state the worker keeps in storage, and follows its changes.

import { originOf, originPattern } from './prototype-access.js';
import { SERVICE_ORIGIN } from './service-origin.js';
import { initialState } from './session-state.js';

/** @typedef {import('./session-state.js').SessionState} SessionState */
/** @typedef {import('./api-client.js').Settings} Settings */

const PHASE_TEXT = {
  idle: 'not started',
  recording: 'recording',
  paused: 'paused: nothing is recorded',
  stopped: 'stopped',
  completed: 'completed',
};

/** @param {string} id */
const element = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ (document.getElementById(id));

/** @param {SessionState | undefined} state */
function show(state) {
  if (!state) return;
  element('phase').textContent = PHASE_TEXT[state.phase];
  element('session-status').textContent = state.sessionStatus ?? 'unknown';
  element('last-counts').textContent = state.last
    ? `accepted ${state.last.accepted}, rejected ${state.last.rejected}`
    : 'none yet';
  element('total-counts').textContent =
    `accepted ${state.totals.accepted}, rejected ${state.totals.rejected}`;
  element('unsent').textContent = String(state.unsent);
  element('message').textContent = state.message ?? '';
  const { phase, sessionStatus } = state;
  const live = phase === 'recording' || phase === 'paused';
  element('camera').textContent = deviceText(state, 'camera', state.signals?.recordFacial === true);
  element('camera-consent').hidden = !(live && state.signals?.recordFacial && state.consent.camera === null);
  const voice = state.signals?.recordVoice === true || state.signals?.requireThinkAloud === true;
  element('microphone').textContent = deviceText(state, 'microphone', voice);
  element('microphone-consent').hidden = !(live && voice && state.consent.microphone === null);
  const origin = originOf(state.prototypeUrl);
  element('screen').textContent = !state.signals?.recordScreen
    ? 'not recorded by this study'
    : phase === 'recording' && state.access
      ? "recording the prototype's pages, masked, never a picture"
      : 'off';
  element('site').textContent = !origin
    ? 'not known yet'
    : state.access
      ? `${origin}: allowed`
      : `${origin}: not allowed yet, nothing of it is recorded`;
  element('site-access').hidden = !(live && origin && state.access === false);
  element('site-origin').textContent = origin ?? '';
  button('start').disabled = phase === 'recording' || phase === 'paused';
  // Pause stays offered when the API has not confirmed it (the request failed): press it again.
  button('pause').disabled = !(phase === 'recording' || (phase === 'paused' && sessionStatus === 'active'));
  button('resume').disabled = phase !== 'paused';
  button('complete').disabled = !(phase === 'recording' || phase === 'paused');
}

const DEVICE_ON = {
  camera: 'on: expression scores only, never a picture',
  microphone: 'on: transcripts only, never a sound',
};

/** @param {SessionState} state @param {'camera' | 'microphone'} device @param {boolean} asked */
function deviceText(state, device, asked) {
  if (!asked) return 'not used by this study';
  if (state[device] === 'recording') return DEVICE_ON[device];
  if (state.consent[device] === 'refused') return 'not allowed';
  if (state.consent[device] === null) return 'waiting for your answer';
  if (state[device] === 'unavailable') return 'not working: Pause and Resume to try again';
  return 'off';
}

/** @param {string} command @param {Record<string, unknown>} [extra] */
async function send(command, extra) {
  for (const id of ['start', 'pause', 'resume', 'complete']) button(id).disabled = true;
  const answer = /** @type {{ ok: boolean, error?: string } | undefined} */ (
    await chrome.runtime.sendMessage({ type: 'command', command, ...extra })
  );
  const stored = await chrome.storage.local.get('state');
  show(/** @type {SessionState | undefined} */ (stored.state));
  if (answer && !answer.ok) element('message').textContent = answer.error ?? 'Failed';
}

// The side panel opens only in answer to a click, so before any await: the window is known ahead.
const windowId = (await chrome.windows.getCurrent()).id;
function showTasks() {
  if (windowId === undefined) return;
  chrome.sidePanel.open({ windowId }).catch(() => {
    element('message').textContent =
      "The side panel did not open: open it from the browser's side panel menu.";
  });
}
button('show-tasks').addEventListener('click', showTasks);

element('settings').addEventListener('submit', (event) => {
  event.preventDefault();
  showTasks(); // the tasks appear in it once the session records
  void reachService(field('api-base').value).then((reachable) => {
    if (reachable) void start();
  });
});

/**
 * The extension reaches the service it was built for without asking; another service's address,
 * entered here, is asked for first (in answer to the click, before anything else is awaited).
 * @param {string} apiBase @returns {Promise<boolean>} whether Start may go on
 */
async function reachService(apiBase) {
  const origin = originOf(apiBase.trim());
  if (!origin || origin === SERVICE_ORIGIN) return true; // a bad address is the worker's to explain
  const granted = await chrome.permissions.request({ origins: [originPattern(origin)] }).catch(() => false);
  if (!granted)
    element('message').textContent =
      `The recorder may reach ${origin} only once you allow it: press Start again and allow it.`;
  return granted;
}

function start() {
  return send('start', {
    settings: {
      apiBase: field('api-base').value,
      sessionId: field('session-id').value,
      testToken: field('test-token').value,
    },
  }).then(allowSite);
}

/**
 * Asks the browser for the prototype's site when the session records without it: still in answer to
 * Start's click when the API answered quickly, else the Allow button's. The browser's dialog names
 * the site; nothing of it is recorded until the tester allows it.
 */
async function allowSite() {
  const { state } = /** @type {{ state?: SessionState }} */ (await chrome.storage.local.get('state'));
  const origin = originOf(state?.prototypeUrl);
  if (!origin || state?.access !== false) return;
  try {
    if (await chrome.permissions.request({ origins: [originPattern(origin)] })) await send('access');
    else element('message').textContent = `Not allowed: nothing of ${origin} is recorded until you allow it.`;
  } catch {
    element('message').textContent = `Press "Allow the prototype's site" to let the recorder see ${origin}.`;
  }
}
button('allow-site').addEventListener('click', () => void allowSite());

// Chrome shows its camera and microphone prompt only in a tab: asked here, in the popup, it refuses
// without asking. So unless the extension already holds the permission, Allow opens
// permission.html in a tab, which asks and gives the answer to the background worker.
/** @param {'camera' | 'microphone'} device */
async function allow(device) {
  const status = await navigator.permissions
    .query({ name: /** @type {PermissionName} */ (device) })
    .catch(() => null);
  if (status?.state === 'granted') return send('consent', { consent: { device, allowed: true } });
  element('message').textContent =
    `Answer the browser's question about the ${device} in the tab that opened.`;
  await chrome.tabs.create({ url: chrome.runtime.getURL(`permission.html?device=${device}`) });
}
for (const device of /** @type {const} */ (['camera', 'microphone'])) {
  button(`allow-${device}`).addEventListener('click', () => void allow(device));
  button(`refuse-${device}`).addEventListener(
    'click',
    () => void send('consent', { consent: { device, allowed: false } }),
  );
}
for (const command of ['pause', 'resume', 'complete'])
  button(command).addEventListener('click', () => void send(command));

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && changes.state) show(/** @type {SessionState} */ (changes.state.newValue));
});

const stored = await chrome.storage.local.get(['settings', 'state']);
const settings = /** @type {Settings | undefined} */ (stored.settings);
if (settings) {
  field('api-base').value = settings.apiBase;
  field('session-id').value = settings.sessionId;
  field('test-token').value = settings.testToken;
}
show(/** @type {SessionState | undefined} */ (stored.state) ?? initialState());
