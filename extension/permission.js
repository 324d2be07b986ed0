// @ts-check
// The camera or the microphone asked for in a tab of its own (`permission.html?device=camera`).
// Chrome anchors its permission prompt to a tab: in the toolbar popup (and in the offscreen
// document) getUserMedia is refused without the tester ever being asked. The tab explains first and
// asks when the tester presses Ask (so the browser's question never comes unexplained). The
// permission given here belongs to the extension, so the offscreen document that records later may
// use the device. The answer goes to the background worker as the popup's `consent` command; on a
// yes the tab closes itself.

/** @typedef {'camera' | 'microphone'} Device */

const TEXT = {
  camera: {
    title: 'Allow the camera for the usability session',
    what:
      'The browser asks now whether this extension may use your camera. If you allow it, the extension ' +
      'looks at the camera once a second and works out on this computer scores for your expression, how ' +
      'squarely you face the screen and where your head points. Only these numbers are sent; no picture ' +
      'or video ever leaves this computer. Press Ask the browser, then choose "Allow while visiting the ' +
      'site", so that the camera still works once this tab is closed.',
    allowed: 'Camera allowed. This tab closes now; the session records expression scores.',
  },
  microphone: {
    title: 'Allow the microphone for the usability session',
    what:
      'The browser asks now whether this extension may use your microphone. If you allow it, the ' +
      'extension writes down what you say on this computer and sends only the words and numbers worked ' +
      'out from them; no sound ever leaves this computer. Press Ask the browser, then choose "Allow ' +
      'while visiting the site", so that the microphone still works once this tab is closed.',
    allowed: 'Microphone allowed. This tab closes now; the session records transcripts.',
  },
};

/** @param {string} id */
const element = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

const device = /** @type {Device} */ (
  new URLSearchParams(location.search).get('device') === 'microphone' ? 'microphone' : 'camera'
);
const text = TEXT[device];
document.title = text.title;
element('title').textContent = text.title;
element('what').textContent = text.what;

/** @param {boolean} allowed @param {string} [reason] */
const answer = (allowed, reason) =>
  chrome.runtime.sendMessage({ type: 'command', command: 'consent', consent: { device, allowed, reason } });

async function closeTab() {
  const tab = await chrome.tabs.getCurrent();
  if (tab?.id !== undefined) await chrome.tabs.remove(tab.id);
  else window.close();
}

async function ask() {
  element('status').textContent = 'Waiting for your answer to the browser…';
  element('how-to-change').hidden = true;
  try {
    const stream = await navigator.mediaDevices.getUserMedia(
      device === 'camera' ? { video: true } : { audio: true },
    );
    // Only the permission is wanted here: the device is opened for real by the offscreen document.
    for (const track of stream.getTracks()) track.stop();
  } catch (error) {
    const reason = error instanceof Error ? error.name : String(error);
    await answer(false, reason);
    element('status').textContent =
      `The ${device} was not allowed (${reason}): the session goes on without it, recording your ` +
      'clicks, scrolling and typing as before.';
    element('how-to-change').hidden = false;
    element('ask').textContent = 'Ask again';
    return;
  }
  await answer(true);
  element('status').textContent = text.allowed;
  await closeTab();
}

element('ask').addEventListener('click', () => void ask());
// As `autofocus` asks; the browser applies that only once the tab is painted, which a tab opened
// behind another may not be yet.
element('ask').focus();
element('close').addEventListener('click', () => void closeTab());
