// @ts-check
// The screen recorder: records the prototype's page as a DOM replay with rrweb while a session of a
// study that records the screen is recording, and hands the events to the background worker every
// few seconds, which numbers, compresses and sends them (screen-recording.js). The background
// registers this script for the prototype's origin only, and only while it records; the script
// also checks the origin itself, and stops whenever the session is not recording (a pause).
//
// Privacy (extension/README.md, "Screen recording"): every field's value is masked (passwords
// included), and so is what the tester typed wherever the page shows it, in text or in an
// attribute (a prototype that echoes the email into a summary), text inside an element marked private
// (`data-private`, class `rr-mask`) and text the tester edits in place (`contenteditable`). Elements
// with `data-private-block` or class `rr-block` are replaced by an empty box of their size. No
// canvas, font, or image is recorded: an image is replayed from its address.
//
// Bundled by `npm run build:extension` into one classic script (content scripts are not modules).

import { EventType, IncrementalSource, record } from 'rrweb';

/** Events go to the background at least this often. */
const SEND_EVERY_MS = 5_000;
/** A full snapshot of the page this often, so that a replay of any moment starts at most this far back. */
const CHECKOUT_EVERY_MS = 60_000;
/** Text of these elements is masked whole. */
const PRIVATE_TEXT = '[data-private], .rr-mask, [contenteditable]:not([contenteditable="false"])';
/** A typed value, as a pattern that matches it literally. */
const escapeRegExp = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every input type (and the other fields): a value is masked whatever the field. */
const MASKED_FIELDS = Object.fromEntries(
  [
    'color',
    'date',
    'datetime-local',
    'email',
    'file',
    'hidden',
    'month',
    'number',
    'password',
    'range',
    'search',
    'tel',
    'text',
    'time',
    'url',
    'week',
    'textarea',
    'select',
  ].map((type) => [type, true]),
);
/** Fields whose value is chosen, not typed (a radio's own value is not the tester's words). */
const UNTYPED = new Set(['radio', 'checkbox', 'submit', 'button', 'reset', 'image', 'file']);

(() => {
  // Registered for new pages and injected into open ones: a page loading meanwhile may get both.
  const scope = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis));
  if (scope.usabilityScreenRecorder) return;
  scope.usabilityScreenRecorder = true;
  /** @type {(() => void) | undefined} */
  let stop;
  /** @type {unknown[]} */
  let buffer = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** What the tester typed in this page, by field: masked wherever the page shows it. */
  /** @type {Map<HTMLInputElement | HTMLTextAreaElement, string>} */
  const typed = new Map();
  /** Values the tester left in fields earlier in this page. @type {Set<string>} */
  const earlier = new Set();
  /** @type {{ characters: Set<string>, longer: RegExp | undefined } | undefined} */
  let typedPattern;

  // Captured first (on the document, before the page's own handlers): the value is known before
  // the page shows it anywhere.
  document.addEventListener(
    'input',
    (event) => {
      const field = event.target;
      if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
      if (field instanceof HTMLInputElement && UNTYPED.has(field.type)) return;
      const previous = typed.get(field);
      if (previous && !field.value.startsWith(previous) && !previous.startsWith(field.value))
        earlier.add(previous);
      typed.set(field, field.value);
      typedPattern = undefined;
    },
    true,
  );

  /**
   * Masks, in a text of the page, what the tester typed: each value whole, and each of its words of
   * four letters or more (a summary that shows the surname alone), in any letter case (a heading
   * that shows the name in capitals).
   */
  function maskTyped(/** @type {string} */ text) {
    typedPattern ??= patternOfTyped();
    // A single character is masked only where it is the whole text (a live echo's first keystroke).
    if (typedPattern.characters.has(text.trim().toLowerCase())) return text.replace(/\S/g, '*');
    if (!typedPattern.longer) return text;
    return text.replace(typedPattern.longer, (found) => '*'.repeat(found.length));
  }

  /**
   * One pattern for every value typed so far, longest first (a page changes text many times a
   * second; the values change only as the tester types).
   */
  function patternOfTyped() {
    /** @type {Set<string>} */
    const characters = new Set();
    /** @type {Set<string>} */
    const needles = new Set();
    for (const value of [...typed.values(), ...earlier]) {
      const whole = value.trim();
      if (whole.length === 1) characters.add(whole.toLowerCase());
      if (whole.length < 2) continue;
      needles.add(whole);
      for (const word of whole.split(/\s+/)) if (word.length >= 4) needles.add(word);
    }
    const alternatives = [...needles].sort((a, b) => b.length - a.length).map(escapeRegExp);
    return {
      characters,
      longer: alternatives.length ? new RegExp(alternatives.join('|'), 'giu') : undefined,
    };
  }

  /** Text of an element: whole inside a private element, else what the tester typed. */
  function maskText(/** @type {string} */ text, /** @type {HTMLElement | null} */ element) {
    if (element?.closest(PRIVATE_TEXT)) return text.replace(/\S/g, '*');
    return maskTyped(text);
  }

  /**
   * rrweb masks text and fields, not other attributes: a prototype that puts what was typed into a
   * `title`, an `aria-label`, a `data-` attribute or a link's query would send it. Every attribute
   * value of a snapshot or a change is masked as text is.
   */
  function maskAttributes(/** @type {import('rrweb').eventWithTime} */ event) {
    if (!typed.size && !earlier.size) return;
    if (event.type === EventType.FullSnapshot) maskNode(event.data.node);
    else if (
      event.type === EventType.IncrementalSnapshot &&
      event.data.source === IncrementalSource.Mutation
    ) {
      for (const added of event.data.adds) maskNode(added.node);
      for (const changed of event.data.attributes) maskValues(changed.attributes);
    }
  }

  function maskNode(/** @type {unknown} */ node) {
    const serialized = /** @type {{ attributes?: Record<string, unknown>, childNodes?: unknown[] }} */ (node);
    if (serialized.attributes) maskValues(serialized.attributes);
    for (const child of serialized.childNodes ?? []) maskNode(child);
  }

  function maskValues(/** @type {Record<string, unknown>} */ attributes) {
    for (const [name, value] of Object.entries(attributes))
      if (typeof value === 'string' && value) attributes[name] = maskTyped(value);
  }

  /** @param {boolean} [last] recording stops: sent even empty, so the worker knows nothing more comes */
  function send(last = false) {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (!buffer.length && !last) return;
    const events = buffer;
    buffer = [];
    try {
      // What was typed here goes along (kept by the worker in memory), so that a later page of the
      // session that shows it (a confirmation naming the email) masks it too.
      const typedHere = [...typed.values(), ...earlier];
      const visible = document.visibilityState === 'visible';
      chrome.runtime.sendMessage({ type: 'screen', events, visible, typed: typedHere }).then(
        (answer) => {
          // The background lost track of this tab (it was restarted): a fresh snapshot starts anew.
          const wanted = /** @type {{ snapshot?: unknown } | undefined} */ (answer)?.snapshot === true;
          if (wanted && stop) record.takeFullSnapshot(true);
        },
        () => {},
      );
    } catch {
      stopRecording(); // the extension was reloaded or removed: this page's script is orphaned
    }
  }

  /** Whether the page should be recorded now (the session records, and this is the prototype). */
  let wanted = false;
  /** Starts once the worker has said what the tester typed in the session's earlier pages. */
  let starting = false;
  function startRecording() {
    if (stop || starting) return;
    starting = true;
    chrome.runtime.sendMessage({ type: 'screen-typed' }).then(
      (answer) => {
        const known = /** @type {{ typed?: unknown } | undefined} */ (answer)?.typed;
        if (Array.isArray(known))
          for (const value of known) if (typeof value === 'string') earlier.add(value);
        typedPattern = undefined;
        starting = false;
        if (wanted) beginRecording();
      },
      () => (starting = false),
    );
  }

  function beginRecording() {
    if (stop) return;
    stop = record({
      emit(event) {
        // A page's address without its query or fragment, as the other signals send it.
        if (event.type === EventType.Meta) event.data.href = location.origin + location.pathname;
        maskAttributes(event);
        buffer.push(event);
        timer ??= setTimeout(send, SEND_EVERY_MS);
      },
      checkoutEveryNms: CHECKOUT_EVERY_MS,
      maskAllInputs: true,
      maskInputOptions: MASKED_FIELDS,
      maskInputFn: (value) => '*'.repeat(value.length),
      maskTextSelector: '*',
      maskTextFn: maskText,
      blockSelector: '[data-private-block]',
      recordCanvas: false,
      inlineImages: false,
      collectFonts: false,
      recordCrossOriginIframes: false,
      slimDOMOptions: 'all',
      sampling: { mousemove: 100, scroll: 150, media: 800, input: 'last' },
    });
  }

  function stopRecording() {
    const recorded = stop !== undefined;
    stop?.();
    stop = undefined;
    send(recorded);
  }

  /** Records while the session records and this page is of the prototype's origin. */
  function follow(/** @type {unknown} */ recording, /** @type {unknown} */ screen) {
    const origin =
      screen && typeof screen === 'object' ? /** @type {{ origin?: unknown }} */ (screen).origin : undefined;
    wanted = recording === true && origin === location.origin;
    if (wanted) startRecording();
    else stopRecording();
  }

  let state = { recording: /** @type {unknown} */ (false), screen: /** @type {unknown} */ (null) };
  chrome.storage.local.get(['recording', 'screen']).then(
    (stored) => {
      state = { recording: stored.recording, screen: stored.screen };
      follow(state.recording, state.screen);
    },
    () => {},
  );
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !(changes.recording || changes.screen)) return;
    if (changes.recording) state.recording = changes.recording.newValue;
    if (changes.screen) state.screen = changes.screen.newValue;
    follow(state.recording, state.screen);
  });
  // What was recorded of a page the tester leaves goes with it.
  addEventListener('pagehide', () => send());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send();
    // The tab the tester comes back to is the one recorded: it starts with a full snapshot.
    else if (stop) record.takeFullSnapshot(true);
  });
})();
