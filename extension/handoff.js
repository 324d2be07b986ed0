// @ts-check
// Runs on the service's session start pages only (`/sessions/<id>/start` of the origin the extension
// was built for; the manifest names no other site). It marks the page as having the recorder, which
// hides the page's install help; on the page an accepted offer leads to, it presses "Start the
// session" itself; and when the page carries a session (the button's answer) it hands the session id and test token to the background worker, which checks the sender's
// origin itself, starts the session and opens the prototype. The outcome is written into the page's
// status line. A classic script (content scripts are not modules).
(() => {
  document.documentElement.dataset.recorder = 'installed';
  const handoff = document.getElementById('recorder-handoff');
  const status = document.getElementById('recorder-status');
  const sessionId = handoff?.dataset.sessionId;
  const testToken = handoff?.dataset.testToken;
  if (!sessionId || !testToken) {
    // Reached by accepting an offer (`?start=1`): that was the tester's one action, so the
    // recorder presses the page's "Start the session" itself.
    const form = document.getElementById('start-form');
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-autostart')) return;
    // Once: going Back to this page, or reloading it, does not press the button again.
    history.replaceState(history.state, '', location.pathname);
    form.requestSubmit();
    return;
  }
  /** @param {string} text */
  const say = (text) => {
    if (status) status.textContent = text;
  };
  chrome.runtime
    .sendMessage({ type: 'handoff', sessionId, testToken })
    .then((answer) => {
      const { text } = /** @type {{ text?: unknown }} */ (answer ?? {});
      say(
        typeof text === 'string'
          ? text
          : 'The recorder did not answer: use the three values below in its popup.',
      );
    })
    .catch(() => say('The recorder did not answer: use the three values below in its popup.'));
})();
