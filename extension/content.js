// @ts-check
// Captures the spec's event items ("Ingestion items") on the pages the tester uses and hands them to
// the background worker: click, scroll, input, focus, blur, navigation and error. The background
// registers it for the prototype's origin only, while a session records (prototype-access.js), and
// it sends nothing unless the session is recording (the `recording` key of the extension's storage,
// the only key it reads): a pause stops it at once.
//
// Privacy: an input event carries the field's length only; the value is never kept or sent, and a
// password field's length is not sent either. No page text, URL query, error message or attribute
// value leaves the page, except the naming attributes a selector is built from (id, name,
// data-testid and the like). extension/README.md lists every field sent.
//
// A content script is a classic script (no modules), hence one function scope.
(() => {
  // Injected into an open page at Start as well as registered for the next ones: once is enough.
  if (/** @type {{ usabilityCapture?: boolean }} */ (globalThis).usabilityCapture) return;
  /** @type {{ usabilityCapture?: boolean }} */ (globalThis).usabilityCapture = true;
  const SCROLL_THROTTLE_MS = 250;
  /** The API's bound on targetSelector (docs/decisions/ingestion.md, "Bounds not in the spec"). */
  const MAX_SELECTOR_LENGTH = 1000;
  /** A click on anything inside one of these counts as a click on it (the element the tester meant). */
  const CLICKABLE =
    'a[href], button, input, select, textarea, label, summary, [role="button"], [role="link"], ' +
    '[role="checkbox"], [role="radio"], [role="menuitem"], [role="tab"], [role="option"], [role="switch"]';
  /** Input types whose length means typed characters (password deliberately absent). */
  const TYPED_INPUTS = new Set(['text', 'email', 'search', 'tel', 'url', 'number']);
  /** Attributes that name an element on purpose, tried after its id. */
  const NAMING_ATTRIBUTES = ['data-testid', 'data-test', 'data-qa', 'data-cy', 'name'];

  /** Unknown until storage answers; events of that moment (the page's first navigation) wait. */
  /** @type {boolean | undefined} */
  let recording;
  /** @type {object[]} */
  const early = [];

  chrome.storage.local.get('recording').then(
    (stored) => {
      recording = stored.recording === true;
      if (recording) early.forEach(send);
      early.length = 0;
    },
    () => (recording = false),
  );
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes.recording) recording = changes.recording.newValue === true;
  });

  /** @param {object} item */
  function emit(item) {
    if (recording === undefined) early.push(item);
    else if (recording) send(item);
  }

  /** @param {object} item */
  function send(item) {
    try {
      chrome.runtime.sendMessage({ type: 'event', item }).catch(() => {});
    } catch {
      // The extension was reloaded or removed: this page's script is orphaned and stays silent.
    }
  }

  /**
   * @param {string} eventType @param {string} targetSelector
   * @param {{ x?: number, y?: number, scrollY?: number, inputLength?: number }} [fields]
   */
  function item(eventType, targetSelector, fields = {}) {
    const viewport =
      innerWidth >= 1 && innerHeight >= 1 ? { viewport: { width: innerWidth, height: innerHeight } } : {};
    return { eventType, targetSelector, timestamp: new Date().toISOString(), ...fields, ...viewport };
  }

  // --- Selectors: the same element gets the same selector on every visit, and it finds only that element.

  /** @param {Element} element */
  function selectorOf(element) {
    /** @type {string[]} */
    const steps = [];
    for (let node = /** @type {Element | null} */ (element); node; node = node.parentElement) {
      const name = namingSelector(node);
      if (name) {
        steps.unshift(name);
        break;
      }
      steps.unshift(stepOf(node));
    }
    // A path too long for the API keeps its end, the part nearest the element.
    while (steps.length > 1 && steps.join(' > ').length > MAX_SELECTOR_LENGTH) steps.shift();
    return steps.join(' > ').slice(0, MAX_SELECTOR_LENGTH);
  }

  /** `#id` or `tag[attribute="value"]` when it is unique in the page and looks chosen by a person. @param {Element} node */
  function namingSelector(node) {
    const candidates = [];
    if (node.id && isStableName(node.id)) candidates.push(`#${CSS.escape(node.id)}`);
    for (const attribute of NAMING_ATTRIBUTES) {
      const value = node.getAttribute(attribute);
      if (value && isStableName(value))
        candidates.push(`${node.localName}[${attribute}="${CSS.escape(value)}"]`);
    }
    return candidates.find((candidate) => document.querySelectorAll(candidate).length === 1);
  }

  /** Generated names (`:r1:`, `ember1234`, hashes) change between visits; they make no selector. @param {string} name */
  const isStableName = (name) => name.length <= 100 && !/\d{3,}|[:{}]|^[0-9a-f-]{16,}$/i.test(name);

  /** `tag`, or `tag:nth-of-type(n)` among same-tag siblings. @param {Element} node */
  function stepOf(node) {
    const tag = CSS.escape(node.localName);
    const parent = node.parentElement;
    if (!parent) return tag;
    const sameTag = [...parent.children].filter((child) => child.localName === node.localName);
    return sameTag.length === 1 ? tag : `${tag}:nth-of-type(${sameTag.indexOf(node) + 1})`;
  }

  /** @param {EventTarget | null} target */
  const elementOf = (target) => (target instanceof Element ? target : null);

  // --- Events.

  document.addEventListener(
    'click',
    (event) => {
      const target = elementOf(event.target);
      if (!target) return;
      const meant = target.closest(CLICKABLE) ?? target;
      // A click from the keyboard (Enter, Space: detail 0) has no position on the page.
      const at = event.detail > 0 ? { x: Math.round(event.pageX), y: Math.round(event.pageY) } : {};
      emit(item('click', selectorOf(meant), at));
    },
    true,
  );

  // Throttled: at most one item per interval, the first at once and the last where the scrolling stopped.
  let lastScrollAt = -Infinity;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let scrollTimer;
  const emitScroll = () => {
    scrollTimer = undefined;
    lastScrollAt = performance.now();
    emit(item('scroll', 'window', { scrollY: Math.round(scrollY) }));
  };
  addEventListener(
    'scroll',
    () => {
      const wait = lastScrollAt + SCROLL_THROTTLE_MS - performance.now();
      if (wait <= 0 && scrollTimer === undefined) emitScroll();
      else scrollTimer ??= setTimeout(emitScroll, Math.max(wait, 0));
    },
    { passive: true },
  );

  document.addEventListener(
    'input',
    (event) => {
      const target = elementOf(event.target);
      if (!target) return;
      const length = typedLength(target);
      emit(item('input', selectorOf(target), length === undefined ? {} : { inputLength: length }));
    },
    true,
  );

  /** How many characters the field holds, for fields that hold typed text. @param {Element} field */
  function typedLength(field) {
    if (field instanceof HTMLTextAreaElement) return field.value.length;
    if (field instanceof HTMLInputElement)
      return TYPED_INPUTS.has(field.type) ? field.value.length : undefined;
    if (field instanceof HTMLElement && field.isContentEditable) return (field.textContent ?? '').length;
    return undefined;
  }

  for (const [domEvent, eventType] of [
    ['focusin', 'focus'],
    ['focusout', 'blur'],
  ]) {
    document.addEventListener(
      /** @type {string} */ (domEvent),
      (event) => {
        const target = elementOf(event.target);
        if (target) emit(item(/** @type {string} */ (eventType), selectorOf(target)));
      },
      true,
    );
  }

  // Errors the page raised: a script error or a rejected promise ('window', relayed by
  // page-errors.js from the page's world), a resource that failed to load (its element), a form
  // field the browser refused (`invalid`). Messages are never sent.
  document.addEventListener('usability-recorder:page-error', () => emit(item('error', 'window')));
  addEventListener(
    'error',
    (event) => {
      // Resource failures are plain Events on their element, seen in every world; an ErrorEvent
      // here would be this extension's own script failing, which is not the page's error.
      const source = elementOf(/** @type {Event} */ (event).target);
      if (source) emit(item('error', selectorOf(source)));
    },
    true,
  );
  document.addEventListener(
    'invalid',
    (event) => {
      const field = elementOf(event.target);
      if (field) emit(item('error', selectorOf(field)));
    },
    true,
  );

  // --- Navigation: the page reached, as its path (plus a route or anchor fragment); never the query,
  // which may carry search terms or tokens.

  function pageOf() {
    const { pathname, hash } = location;
    const route = /^#!?\/[^?&=]*/.exec(hash)?.[0] ?? (/^#[A-Za-z][\w-]{0,99}$/.test(hash) ? hash : '');
    return (pathname + route).slice(0, MAX_SELECTOR_LENGTH);
  }

  let lastPage = pageOf();
  emit(item('navigation', lastPage));

  /** A same-document change of page (history API, back and forward, fragment). */
  function pageChanged() {
    const page = pageOf();
    if (page === lastPage) return;
    lastPage = page;
    emit(item('navigation', page));
  }
  // Chromium's Navigation API reports pushState and replaceState too, which the page's own world
  // calls out of this script's reach; popstate and hashchange cover the rest.
  const navigation = /** @type {{ navigation?: EventTarget }} */ (/** @type {unknown} */ (globalThis))
    .navigation;
  navigation?.addEventListener('currententrychange', pageChanged);
  addEventListener('popstate', pageChanged);
  addEventListener('hashchange', pageChanged);
  // A page restored from the back-forward cache runs no script again, but the tester reached it.
  addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    lastPage = pageOf();
    emit(item('navigation', lastPage));
  });
})();
