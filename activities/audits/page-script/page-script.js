// @ts-check
// The audit kit: the project's own checks, run inside the audited page. A classic script read as
// text by ../page-script.ts, which puts it in the warm contexts' init script after axe-core, so it
// runs at the start of every top-level document, before the page's own scripts. It defines
// `window.__auditKit` once; the Node side calls its members by name (page-audit.ts, tab-walk.ts).
// Plain JavaScript, not a TypeScript function passed to page.evaluate, which would carry the
// compiler's helpers into the page; its JSDoc types are checked by this folder's tsconfig.json.
//
// Before the text reaches a page, page-script.ts fills in two placeholders, each written once: the
// string SHADOW is set to becomes SHADOW_SEPARATOR of ../types.ts (as a JSON string), and the
// comment naming RESOLVE_SELECTOR becomes the function of resolve-selector.js (which tsc, checking
// this folder, sees as a global).

/** @typedef {{ ruleId: string, element: string, description: string, wcag?: string[] }} Issue */
/** @typedef {{ r: number, g: number, b: number, a: number }} Color */
/** @typedef {{ top: number, left: number, width: number, height: number }} Rect */
/** @typedef {{ entirely: boolean, by: string }} Obscured */
/** @typedef {{ k: number | null, selector: string, rect: Rect, focused: string, frame: boolean, obscured: Obscured | null, ariaHidden: boolean }} FocusState */
/**
 * An element that may be a form control: `disabled` is undefined on the others.
 * @typedef {Element & { disabled?: boolean }} Control
 */
/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Field */

(() => {
  if (window.__auditKit) return;
  const INTERACTIVE =
    'a[href], area[href], button, input:not([type=hidden]), select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable=true]';
  const WIDGET_ROLES = [
    'button',
    'link',
    'checkbox',
    'radio',
    'switch',
    'tab',
    'menuitem',
    'option',
    'slider',
    'textbox',
    'combobox',
    'spinbutton',
  ];
  const SHADOW = '__SHADOW_SEPARATOR__';

  // Elements given a click-type handler by script. This script runs at document start, before the
  // page's own scripts, so it sees every addEventListener call and on<event> property set; an
  // element that takes such a handler but no focus is operable by mouse only (see mouseOnly()).
  const POINTER_EVENTS = ['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup'];
  /** @type {Set<Element>} */
  const scripted = new Set();
  // Kept unbound on purpose: the wrapper below calls it with the element as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const addEventListener = EventTarget.prototype.addEventListener;
  /**
   * @this {EventTarget}
   * @param {string} type
   * @param {EventListenerOrEventListenerObject | null} listener
   * @param {boolean | AddEventListenerOptions} [options]
   */
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (
      listener &&
      this &&
      /** @type {Node} */ (this).nodeType === 1 &&
      POINTER_EVENTS.includes(String(type).toLowerCase())
    )
      scripted.add(/** @type {Element} */ (this));
    return addEventListener.call(this, type, listener, options);
  };
  for (const type of POINTER_EVENTS) {
    const property = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'on' + type);
    if (!property || !property.set) continue;
    Object.defineProperty(
      HTMLElement.prototype,
      'on' + type,
      Object.assign({}, property, {
        /**
         * @this {HTMLElement}
         * @param {unknown} value
         * @returns {void}
         */
        set(value) {
          if (value) scripted.add(this);
          // property.set was checked above; tsc does not carry that check into this function.
          return /** @type {(value: unknown) => void} */ (property.set).call(this, value);
        },
      }),
    );
  }

  /** @param {string} value */
  function cssEscape(value) {
    return window.CSS && CSS.escape ? CSS.escape(value) : value.replace(/[^a-zA-Z0-9_-]/g, '\\$&');
  }
  // Inside a shadow root the selector is the host's, SHADOW, then the path within the root.
  /**
   * @param {Node} el
   * @returns {string}
   */
  function selectorOf(el) {
    if (!(el instanceof Element)) return 'document';
    const root = el.getRootNode();
    const prefix = root instanceof ShadowRoot ? selectorOf(root.host) + SHADOW : '';
    return prefix + selectorWithin(el, root instanceof ShadowRoot ? root : document);
  }
  /**
   * @param {Element} el
   * @param {Document | ShadowRoot} root
   * @returns {string}
   */
  function selectorWithin(el, root) {
    /** @param {string} id */
    const unique = (id) => root.querySelectorAll('#' + cssEscape(id)).length === 1;
    if (el.id && unique(el.id)) return '#' + cssEscape(el.id);
    const parts = [];
    let node = el;
    while (node && node.nodeType === 1 && node !== document.documentElement) {
      if (node.id && unique(node.id)) {
        parts.unshift('#' + cssEscape(node.id));
        break;
      }
      const tag = node.tagName.toLowerCase();
      const parent = node.parentElement || (node.parentNode instanceof ShadowRoot ? node.parentNode : null);
      if (!parent) {
        parts.unshift(tag);
        break;
      }
      const same = Array.from(parent.children).filter((c) => c.tagName === node.tagName);
      parts.unshift(same.length > 1 ? tag + ':nth-of-type(' + (same.indexOf(node) + 1) + ')' : tag);
      // A shadow root as parent ends the loop (its nodeType is 11), after its host's part was added.
      node = /** @type {Element} */ (parent);
    }
    return parts.join(' > ') || el.tagName.toLowerCase();
  }
  // The element a selector of selectorOf() names, through open shadow roots: resolve-selector.js.
  /* RESOLVE_SELECTOR */
  // Every element matching the selector in the document and its open shadow roots, in tree order.
  /**
   * @param {string} selector
   * @returns {Element[]}
   */
  function deepQueryAll(selector) {
    /** @type {Element[]} */
    const out = [];
    /** @param {Document | ShadowRoot} root */
    const visit = (root) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.matches(selector)) out.push(el);
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return out;
  }
  // The element of the document tree an element belongs to: itself, or its outermost shadow host.
  /** @param {Element} el */
  function inDocumentTree(el) {
    let node = el;
    while (node.getRootNode() instanceof ShadowRoot)
      node = /** @type {ShadowRoot} */ (node.getRootNode()).host;
    return node;
  }
  // Focus as a user sees it: document.activeElement stops at a shadow host, so go down its roots.
  function deepActiveElement() {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el;
  }
  /** @param {Element} el */
  function isVisible(el) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const rect = el.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0;
  }
  /**
   * Content the page has taken out of use, which nobody expects to reach by keyboard: inert (the
   * attribute, or outside the modal dialog showModal() opened last, which made everything else
   * inert) or disabled (`disabled`, within a disabled fieldset, or `aria-disabled="true"`).
   * @param {Element} el
   */
  function outOfUse(el) {
    return unusable(el) || ariaDisabled(el);
  }
  // Inert or natively disabled: it cannot take focus at all. Read on the element and, inside a
  // shadow root, on its host, since closest() stops at the root.
  /** @param {Element} el */
  function unusable(el) {
    const host = inDocumentTree(el);
    if (el.matches(':disabled') || el.closest('[inert]') || host.closest('[inert]')) return true;
    const modal = topModal();
    return Boolean(modal && !modal.contains(host));
  }
  /**
   * Whether the element `selector` names is inert (the attribute, or behind the modal dialog on
   * top): for axe's findings on what focus must reach (page-audit.ts, withoutOutOfUse).
   * @param {string} selector
   */
  function takenOutOfUse(selector) {
    const el = resolve(selector);
    return Boolean(el && unusable(el));
  }
  // aria-disabled="true": a page may leave such a control focusable or not, so a focusable one
  // is checked when the walk reaches it but never reported unreachable.
  /** @param {Element} el */
  function ariaDisabled(el) {
    return Boolean(el.closest('[aria-disabled=true]') || inDocumentTree(el).closest('[aria-disabled=true]'));
  }
  // The modal dialog on top: the one holding focus, else the last in the document (the top
  // layer's order is not exposed), or null.
  function topModal() {
    const modals = Array.from(document.querySelectorAll('dialog:modal'));
    const active = document.activeElement;
    return modals.find((modal) => active && modal.contains(active)) || modals[modals.length - 1] || null;
  }
  /**
   * @param {Element} el
   * @returns {Rect}
   */
  function rectOf(el) {
    const r = el.getBoundingClientRect();
    return { top: r.top + scrollY, left: r.left + scrollX, width: r.width, height: r.height };
  }
  /** @param {Node} el */
  function textOf(el) {
    return (el.textContent || '').replace(/\s+/g, ' ').trim();
  }
  /** @param {string} text */
  function norm(text) {
    return (text || '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  }
  /**
   * @param {string} ruleId
   * @param {Node} el
   * @param {string} description
   * @param {object} [extra]
   * @returns {Issue}
   */
  function issue(ruleId, el, description, extra) {
    return Object.assign({ ruleId, element: selectorOf(el), description }, extra || {});
  }

  // ---- colour ----
  // Computed colours in rgb() or rgba() form carry three or four numbers.
  /**
   * @param {string} value
   * @returns {Color | null}
   */
  function parseColor(value) {
    const m = /rgba?\(([^)]+)\)/.exec(value || '');
    if (!m) return null;
    const p = /** @type {string} */ (m[1])
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
    return /** @type {Color} */ ({ r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 });
  }
  /** @param {Color} c */
  function luminance(c) {
    /** @param {number} v */
    const f = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  }
  /**
   * @param {Color} a
   * @param {Color} b
   */
  function ratio(a, b) {
    const x = luminance(a),
      y = luminance(b);
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  }
  /**
   * @param {Element | null} el
   * @returns {Color}
   */
  function backgroundBehind(el) {
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const c = parseColor(getComputedStyle(node).backgroundColor);
      if (c && c.a > 0.5) return c;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  }

  // WCAG 1.4.11: a control's boundary (its border or its own background) against what surrounds it.
  function controlContrast() {
    const out = [];
    for (const el of document.querySelectorAll(
      'input:not([type=hidden]):not([type=image]), select, textarea, button, [role=button]',
    )) {
      if (!isVisible(el) || /** @type {Control} */ (el).disabled) continue;
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (type === 'checkbox' || type === 'radio' || type === 'range' || type === 'color' || type === 'file')
        continue;
      const style = getComputedStyle(el);
      const around = backgroundBehind(el.parentElement || document.body);
      const own = parseColor(style.backgroundColor);
      const ratios = [];
      if (own && own.a > 0.5) ratios.push(ratio(own, around));
      const width =
        parseFloat(style.borderTopWidth) +
        parseFloat(style.borderBottomWidth) +
        parseFloat(style.borderLeftWidth) +
        parseFloat(style.borderRightWidth);
      const border = parseColor(style.borderTopColor);
      if (width > 0 && style.borderTopStyle !== 'none' && border && border.a > 0.5)
        ratios.push(ratio(border, around));
      if (!ratios.length) continue;
      const best = Math.max.apply(null, ratios);
      // A field's boundary is what shows where to type (1.4.11); a button is identified by its
      // text or icon, so a faint background of its own fails nothing: reported as advice.
      const isButton = el.matches(
        'button, [role=button], input[type=button], input[type=submit], input[type=reset]',
      );
      if (best < 3)
        out.push(
          issue(
            'non-text-contrast',
            el,
            'The boundary of this control has a contrast ratio of ' +
              best.toFixed(2) +
              ':1 against its surroundings; ' +
              (isButton ? 'a clearer boundary helps people find the button' : 'fields need at least 3:1'),
            isButton ? { wcag: [] } : undefined,
          ),
        );
    }
    return out;
  }

  // ---- images ----
  function imageChecks() {
    const out = [];
    for (const img of document.querySelectorAll('img[alt], input[type=image][alt], area[alt]')) {
      const alt = (img.getAttribute('alt') || '').trim();
      if (!alt) continue;
      const src = img.getAttribute('src') || '';
      const file = decodeURIComponent(/** @type {string} */ (src.split(/[?#]/)[0]).split('/').pop() || '');
      if (
        /\.(png|jpe?g|gif|svg|webp|bmp|tiff?|avif)$/i.test(alt) ||
        (file && alt === file) ||
        /^(img|image|dsc|photo|pic|screenshot)[-_ ]?\d+$/i.test(alt)
      ) {
        out.push(
          issue(
            'image-alt-filename',
            img,
            'Alternative text "' + alt + '" is a file name, not a description of the image',
          ),
        );
        continue;
      }
      if (/^(an? )?(image|picture|photo|photograph|graphic|icon) (of|showing)\b/i.test(alt)) {
        out.push(
          issue(
            'image-alt-redundant-phrase',
            img,
            'Alternative text starts with "' +
              alt.split(' ').slice(0, 2).join(' ') +
              '"; screen readers already announce an image',
          ),
        );
        continue;
      }
      const container = img.closest('a, button, figure') || img.parentElement;
      const caption = container && container.querySelector('figcaption');
      const around = [container ? textOf(container) : '', caption ? textOf(caption) : ''];
      const sibling = img.nextElementSibling || img.previousElementSibling;
      if (sibling) around.push(textOf(sibling));
      if (around.some((text) => text && norm(text) === norm(alt))) {
        out.push(
          issue(
            'image-alt-duplicates-text',
            img,
            'Alternative text "' +
              alt +
              '" repeats the text next to the image; screen readers hear it twice (use alt="" if decorative)',
          ),
        );
      }
    }
    return out;
  }

  // ---- forms ----
  /** @type {[RegExp, string][]} */
  const PERSONAL = [
    [/e-?mail/i, 'email'],
    [/(phone|mobile|tel)/i, 'tel'],
    [/(first|given).?name|fname/i, 'given-name'],
    [/(last|family|sur).?name|lname/i, 'family-name'],
    [/(full.?)?name$/i, 'name'],
    [/(street|address)/i, 'street-address'],
    [/(postal|post.?code|zip)/i, 'postal-code'],
    [/city|town/i, 'address-level2'],
    [/country/i, 'country-name'],
    [/(birth|bday|dob)/i, 'bday'],
    [/(card.?number|cc.?num)/i, 'cc-number'],
    [/organi[sz]ation|company/i, 'organization'],
  ];
  /** @param {Field} el */
  function labelTextOf(el) {
    const parts = [];
    if (el.labels) for (const label of el.labels) parts.push(textOf(label));
    parts.push(el.getAttribute('aria-label') || '', el.getAttribute('placeholder') || '');
    return parts.join(' ');
  }
  function referencedIds() {
    /** @type {Set<string>} */
    const ids = new Set();
    for (const el of document.querySelectorAll(
      '[aria-describedby], [aria-errormessage], [aria-labelledby]',
    )) {
      for (const attr of ['aria-describedby', 'aria-errormessage', 'aria-labelledby']) {
        for (const id of (el.getAttribute(attr) || '').split(/\s+/)) if (id) ids.add(id);
      }
    }
    return ids;
  }
  function formChecks() {
    const out = [];
    const ids = referencedIds();
    const messages = document.querySelectorAll(
      '[role=alert], [aria-live=assertive], .error, .errors, .error-message, .invalid-feedback, .field-error, [class*="error"], [id*="error"]',
    );
    /** @type {Set<Element>} */
    const seen = new Set();
    for (const message of messages) {
      if (seen.has(message) || !isVisible(message) || !textOf(message)) continue;
      if (message.closest('label')) continue;
      if (message.matches('input, select, textarea, button, form')) continue;
      let tied = false;
      for (
        let node = /** @type {Element | null} */ (message);
        node && node.nodeType === 1 && !tied;
        node = node.parentElement
      ) {
        if (node.id && ids.has(node.id)) tied = true;
        if (node === message.closest('form')) break;
      }
      for (const inner of message.querySelectorAll('[id]')) if (ids.has(inner.id)) tied = true;
      for (const inner of message.querySelectorAll('*')) seen.add(inner);
      if (!tied)
        out.push(
          issue(
            'error-message-not-associated',
            message,
            'Error message "' +
              textOf(message).slice(0, 80) +
              '" is not tied to its field (aria-describedby or aria-errormessage)',
          ),
        );
    }
    // 3.3.1 asks for the error in text: with a visible error message anywhere on the page it is
    // described (only not tied to the field, which is advice); with none, it is not described at all.
    const described = Array.from(messages).some((message) => isVisible(message) && textOf(message));
    for (const field of document.querySelectorAll('[aria-invalid=true]')) {
      if (!field.getAttribute('aria-describedby') && !field.getAttribute('aria-errormessage')) {
        out.push(
          issue(
            'invalid-field-without-message',
            field,
            described
              ? 'Field is marked invalid and the page shows an error, but no message is tied to the field'
              : 'Field is marked invalid but no error message describes the problem',
            described ? { wcag: [] } : undefined,
          ),
        );
      }
    }
    for (const field of /** @type {NodeListOf<Field>} */ (
      document.querySelectorAll('input, select, textarea')
    )) {
      const type = (field.getAttribute('type') || 'text').toLowerCase();
      if (!['text', 'email', 'tel', 'url', 'search', 'date', ''].includes(type) && field.tagName === 'INPUT')
        continue;
      if (!isVisible(field) || field.hasAttribute('autocomplete')) continue;
      const hint = [field.name, field.id, labelTextOf(field), type].join(' ');
      const match =
        PERSONAL.find(([pattern]) => pattern.test(hint)) ||
        (type === 'email' ? [null, 'email'] : type === 'tel' ? [null, 'tel'] : null);
      if (!match) continue;
      // street-address is a multi-line token, valid on a textarea; a one-line input takes address-line1.
      const token = match[1] === 'street-address' && field.tagName === 'INPUT' ? 'address-line1' : match[1];
      out.push(
        issue(
          'autocomplete-missing',
          field,
          'Personal-data field has no autocomplete attribute (expected autocomplete="' + token + '")',
        ),
      );
    }
    out.push(...pasteBlockedCredentials());
    return out;
  }

  // ---- credentials (3.3.8, WCAG 2.2) ----
  // A password, user name or one-time code must be pastable: a password manager fills it by
  // pasting, and a person copies a code rather than transcribing it (a cognitive function test).
  // Judged as the browser would paste: a cancelable paste event carrying text, dispatched on the
  // field; a page handler that cancels it (onpaste="return false", preventDefault) blocks pasting,
  // unless it puts the text in itself (a field that trims what is pasted, a code split into one box
  // per digit): the pasted digits then stand in the field or across its form's fields. The fields'
  // values are put back afterwards.
  const CREDENTIAL_TOKENS = /(^|\s)(username|current-password|new-password|one-time-code)(\s|$)/i;
  const PASTED = '493817';
  function pasteBlockedCredentials() {
    const out = [];
    for (const field of document.querySelectorAll('input')) {
      const type = (field.getAttribute('type') || 'text').toLowerCase();
      const token = CREDENTIAL_TOKENS.exec(field.getAttribute('autocomplete') || '');
      if (type !== 'password' && !token) continue;
      if (!isVisible(field) || field.disabled || field.readOnly) continue;
      const around = Array.from(field.form ? field.form.querySelectorAll('input') : [field]);
      const before = around.map((input) => input.value);
      const data = new DataTransfer();
      data.setData('text/plain', PASTED);
      const paste = new ClipboardEvent('paste', {
        clipboardData: data,
        bubbles: true,
        cancelable: true,
        composed: true,
      });
      field.dispatchEvent(paste);
      const inserted = around
        .map((input) => input.value)
        .join('')
        .includes(PASTED);
      around.forEach((input, i) => (input.value = /** @type {string} */ (before[i])));
      if (!paste.defaultPrevented || inserted) continue;
      const what = type === 'password' ? 'password' : /** @type {RegExpExecArray} */ (token)[2];
      out.push(
        issue(
          'credential-paste-blocked',
          field,
          'The page cancels pasting into this ' +
            what +
            ' field: a password manager cannot fill it and a copied code cannot be pasted',
        ),
      );
    }
    return out;
  }

  // ---- text spacing ----
  // A line height declared !important in a style attribute wins over a user's style sheet, so a
  // reader cannot widen it (1.4.12 asks that 1.5 times the font size lose nothing). Judged on the
  // text it sets the line height of (the element's own, and descendants' without a declaration of
  // their own), where that text is rendered and wraps onto more than one line: a line height only
  // matters between lines. axe's avoid-inline-spacing misses tight line heights, whose lines it
  // takes for one (W3C ACT 78fd32).
  const INHERITED = ['inherit', 'unset', 'revert', 'revert-layer'];
  /** @param {Element} el */
  function importantLineHeight(el) {
    const style = /** @type {HTMLElement} */ (el).style;
    return style && style.getPropertyPriority('line-height') === 'important'
      ? style.getPropertyValue('line-height').trim().toLowerCase()
      : null;
  }
  /** @param {Text} text */
  function wrappedLines(text) {
    const range = document.createRange();
    range.selectNodeContents(text);
    const tops = new Set();
    for (const rect of Array.from(range.getClientRects())) {
      if (rect.width > 0 && rect.height > 0) tops.add(Math.round(rect.top));
    }
    return tops.size;
  }
  /** @param {Element} el */
  function onScreen(el) {
    const rect = el.getBoundingClientRect();
    return isVisible(el) && rect.bottom > 0 && rect.right > 0;
  }
  function textSpacingChecks() {
    const out = [];
    for (const el of deepQueryAll('[style]')) {
      const declared = importantLineHeight(el);
      if (declared === null || INHERITED.includes(declared)) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || !norm(node.textContent || '') || !onScreen(parent)) continue;
        // The nearest declaration sets it: a descendant's own !important one is judged on its own.
        let owner = parent;
        while (owner !== el && importantLineHeight(owner) === null && owner.parentElement)
          owner = owner.parentElement;
        if (owner !== el || wrappedLines(/** @type {Text} */ (node)) < 2) continue;
        const computed = getComputedStyle(parent);
        const lineHeight = computed.lineHeight === 'normal' ? 0 : parseFloat(computed.lineHeight);
        const fontSize = parseFloat(computed.fontSize);
        if (lineHeight >= 1.5 * fontSize - 0.01) continue;
        out.push(
          issue(
            'line-height-important',
            el,
            'Line height "' +
              declared +
              '" set !important in the style attribute is under 1.5 times the font size of text that wraps, and readers cannot widen it',
          ),
        );
        break;
      }
    }
    return out;
  }

  // ---- headings ----
  function headingChecks() {
    const out = [];
    const headings = Array.from(
      document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role=heading][aria-level]'),
    ).filter(isVisible);
    /** @param {Element} h */
    const levelOf = (h) =>
      /^H[1-6]$/.test(h.tagName) ? Number(h.tagName[1]) : Number(h.getAttribute('aria-level'));
    if (!headings.length) {
      out.push(
        issue('page-has-headings', document.body, 'The page has no headings to structure its content'),
      );
      return out;
    }
    if (!headings.some((h) => levelOf(h) === 1))
      out.push(
        issue('page-has-h1', /** @type {Element} */ (headings[0]), 'The page has no level-one heading'),
      );
    let previous = 0;
    for (const h of headings) {
      const level = levelOf(h);
      if (previous && level > previous + 1)
        out.push(
          issue(
            'heading-skipped-level',
            h,
            'Heading level ' + level + ' follows level ' + previous + '; levels must not be skipped',
          ),
        );
      else if (!previous && level > 2)
        out.push(
          issue(
            'heading-skipped-level',
            h,
            'The first heading is level ' + level + '; the outline must start at level 1',
          ),
        );
      previous = level;
    }
    return out;
  }

  // ---- keyboard support ----
  /**
   * What shows focus on screen, read from the element, its ::before and ::after, and its
   * neighbours (the parent, the siblings next to it, its first and last child, its labels): an
   * indicator a page draws on a neighbour when the element is focused (a :focus-within outline on
   * the parent, a sibling's background under `:focus + .hint`, a hint that appears, an icon inside
   * that changes) counts as visible focus as much as the element's own.
   * @param {Element} el
   */
  function focusSnapshot(el) {
    return [
      drawnFocus(getComputedStyle(el)),
      drawnFocus(getComputedStyle(el, '::before')),
      drawnFocus(getComputedStyle(el, '::after')),
      ...focusNeighbours(el).map((near) => (near ? drawnFocus(getComputedStyle(near)) : '')),
    ].join('/');
  }
  /**
   * @param {Element} el
   * @returns {(Element | null)[]}
   */
  function focusNeighbours(el) {
    const parent = el.parentElement;
    const labels = /** @type {Partial<HTMLInputElement>} */ (el).labels;
    return [
      parent === document.body || parent === document.documentElement ? null : parent,
      el.previousElementSibling,
      el.nextElementSibling,
      el.firstElementChild,
      el.lastElementChild,
      ...(labels ? Array.from(labels) : []),
    ];
  }
  /** @param {CSSStyleDeclaration} s */
  function drawnFocus(s) {
    return [
      s.outlineStyle,
      s.outlineWidth,
      s.outlineColor,
      s.boxShadow,
      s.backgroundColor,
      s.color,
      s.borderTopColor,
      s.borderBottomColor,
      s.borderTopWidth,
      s.borderBottomWidth,
      s.textDecorationLine,
      s.fontWeight,
      s.display,
      s.visibility,
      s.opacity,
    ].join('|');
  }
  // Radio buttons of one group (a name within one form, or outside any form within one root) are
  // a single tab stop: Tab lands on the checked one, or on the first when none is, and the arrow
  // keys move within the group (HTML's radio button group). The others are never Tab stops.
  /** @param {Element} el */
  function radioGroupOf(el) {
    const input = /** @type {HTMLInputElement} */ (el);
    if (el.tagName !== 'INPUT' || input.type !== 'radio' || !input.name) return null;
    return input.form ?? el.getRootNode();
  }
  /** @param {Element[]} controls */
  function radioStops(controls) {
    /** @type {Map<unknown, Map<string, HTMLInputElement>>} */
    const stops = new Map();
    for (const el of controls) {
      const owner = radioGroupOf(el);
      if (!owner) continue;
      const input = /** @type {HTMLInputElement} */ (el);
      /** @type {Map<string, HTMLInputElement>} */
      const groups = stops.get(owner) ?? new Map();
      stops.set(owner, groups);
      const stop = groups.get(input.name);
      if (!stop || (input.checked && !stop.checked)) groups.set(input.name, input);
    }
    return stops;
  }
  function prepareWalk() {
    const candidates = [];
    let k = 0;
    const usable = deepQueryAll(INTERACTIVE).filter((el) => isVisible(el) && !unusable(el));
    const radios = radioStops(usable);
    for (const el of usable) {
      const group = radioGroupOf(el);
      if (group && radios.get(group)?.get(/** @type {HTMLInputElement} */ (el).name) !== el) continue;
      // A frame is not a tab stop of its own: Tab enters its document, which this page cannot
      // see into when it is cross-origin. The walk passes through frames as one unit.
      if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') continue;
      const tabindex = el.getAttribute('tabindex');
      if (tabindex !== null && Number(tabindex) < 0) continue;
      if (el.tagName === 'A' && !el.hasAttribute('href') && tabindex === null) continue;
      el.setAttribute('data-audit-k', String(k++));
      candidates.push({
        k: k - 1,
        selector: selectorOf(el),
        positiveTabindex: Number(tabindex) > 0,
        mayBeSkipped: ariaDisabled(el),
      });
    }
    const widgets = [];
    /** @type {Set<Element>} */
    const unfocusable = new Set();
    for (const el of deepQueryAll('[role]')) {
      const role = el.getAttribute('role');
      if (
        el.matches(INTERACTIVE) ||
        !isVisible(el) ||
        outOfUse(el) ||
        !WIDGET_ROLES.includes(/** @type {string} */ (role))
      )
        continue;
      unfocusable.add(el);
      widgets.push(
        issue(
          'keyboard-unreachable',
          el,
          'Interactive element with role="' +
            role +
            '" cannot receive keyboard focus (add tabindex="0" or use a native control)',
        ),
      );
    }
    for (const el of mouseOnly()) {
      if (!unfocusable.has(el))
        widgets.push(
          issue(
            'keyboard-unreachable',
            el,
            'Element with a click handler cannot receive keyboard focus (add tabindex="0" and key handlers, or use a native control)',
          ),
        );
    }
    const main = mainContent();
    let beforeMain = 0;
    if (main)
      for (const el of deepQueryAll('[data-audit-k]'))
        if (main.compareDocumentPosition(inDocumentTree(el)) & Node.DOCUMENT_POSITION_PRECEDING) beforeMain++;
    const otherBypass = Boolean(
      document.querySelector('main, [role=main]') ||
      Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role=heading]')).some(isVisible),
    );
    return { candidates, widgets, beforeMain, otherBypass };
  }
  // Elements with a click handler (onclick, or a click-type listener or property set by script)
  // that take no focus. Only the handler's own element counts, and only a leaf-like one: html and
  // body, elements inside a control or a label (the click reaches the control), and containers
  // that hold a focusable element or more than DELEGATING_SIZE elements are taken to delegate the
  // click (a list's or an app root's listener serving its items), and are not reported.
  const DELEGATING_SIZE = 20;
  function mouseOnly() {
    const out = [];
    for (const el of new Set(deepQueryAll('[onclick]').concat(Array.from(scripted)))) {
      if (!el.isConnected || el === document.body || el === document.documentElement) continue;
      if (el.closest(INTERACTIVE + ', label') || !isVisible(el) || outOfUse(el)) continue;
      if (el.querySelector(INTERACTIVE) || el.getElementsByTagName('*').length > DELEGATING_SIZE) continue;
      out.push(el);
    }
    return out;
  }
  // The main content: main or [role=main], else the first h1.
  function mainContent() {
    return document.querySelector('main, [role=main]') || document.querySelector('h1');
  }
  /** @returns {FocusState | null} */
  function focusState() {
    const el = deepActiveElement();
    if (!el || el === document.body || el === document.documentElement) return null;
    const k = el.getAttribute('data-audit-k');
    const frame = el.tagName === 'IFRAME' || el.tagName === 'FRAME';
    return {
      k: k === null ? null : Number(k),
      selector: selectorOf(el),
      rect: rectOf(el),
      focused: focusSnapshot(el),
      frame,
      obscured: obscuredFocus(el),
      ariaHidden: Boolean(
        el.closest('[aria-hidden="true"]') || inDocumentTree(el).closest('[aria-hidden="true"]'),
      ),
    };
  }
  // Where the focused element, scrolled into view by the browser, lies under content the author
  // pinned to the viewport (position fixed or sticky: a header, a footer, a cookie banner): read at
  // points spread over its visible box. Hidden at every point fails 2.4.11 (AA), at some 2.4.12
  // (AAA). Content over it that scrolls with the page is not this check's concern.
  const OBSCURED_POINTS = [0.1, 0.5, 0.9];
  /** @param {Element} el @returns {Obscured | null} */
  function obscuredFocus(el) {
    const r = el.getBoundingClientRect();
    const left = Math.max(r.left, 0);
    const right = Math.min(r.right, innerWidth);
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, innerHeight);
    if (right - left < 1 || bottom - top < 1) return null; // not in view: nothing to judge
    let hidden = 0;
    /** @type {Element | null} */
    let cover = null;
    for (const fx of OBSCURED_POINTS) {
      for (const fy of OBSCURED_POINTS) {
        const hit = deepElementFromPoint(left + (right - left) * fx, top + (bottom - top) * fy);
        if (!hit || el.contains(hit) || hit.contains(el)) continue;
        const pinned = pinnedAncestor(hit);
        if (!pinned || pinned.contains(el)) continue;
        hidden += 1;
        cover = cover || pinned;
      }
    }
    if (!cover) return null;
    return { entirely: hidden === OBSCURED_POINTS.length ** 2, by: selectorOf(cover) };
  }
  /** The topmost element at a point, looking into open shadow roots. @param {number} x @param {number} y */
  function deepElementFromPoint(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }
  /** The element itself or its nearest ancestor pinned to the viewport. @param {Element} el */
  function pinnedAncestor(el) {
    for (let node = /** @type {Element | null} */ (el); node && node !== document.documentElement;) {
      const position = getComputedStyle(node).position;
      if (position === 'fixed' || position === 'sticky') return node;
      const root = node.getRootNode();
      node = node.parentElement || (root instanceof ShadowRoot ? root.host : null);
    }
    return null;
  }
  // Where focus is after each Tab of the walk, recorded on keyup (after the keydown's default action
  // moved focus), so the walk can send Tabs in batches and read every stop in one call. The
  // listener is the page's first (this script runs at document start). While focus is inside a
  // frame, keyup goes to the frame's document: those Tabs leave no entry, which is how the walk
  // passes through a frame as one unit.
  /** @type {(FocusState | null)[] | null} */
  let walkLog = null;
  window.addEventListener(
    'keyup',
    (event) => {
      if (walkLog && event.key === 'Tab') walkLog.push(focusState());
    },
    true,
  );
  // Focus a script moves back onto an element a Tab of the walk left a moment before (a blur
  // handler's `setTimeout(() => el.focus(), 200)`): the keyboard user Tabs away and finds focus
  // back, a trap the walk's stops alone do not show (2.1.2). A Tab's own move happens while its
  // keydown is handled; the timer set then ends that window before any the page sets while focus moves.
  const PULL_WINDOW_MS = 2000;
  /** @type {{ el: Element, at: number }[]} */
  let leftByTab = [];
  /** @type {string[]} */
  let pulledBack = [];
  let inTab = false;
  // The timers a page sets while a Tab moves focus (a blur handler's), until they run or are
  // cleared: the walk waits for them (movesSettled) before it trusts where focus is, and only then,
  // so a page that sets none costs no wait. A pull back by requestAnimationFrame is not seen.
  const pageSetTimeout = window.setTimeout.bind(window);
  const pageClearTimeout = window.clearTimeout.bind(window);
  /** @type {Set<number>} */
  const movingTimers = new Set();
  window.setTimeout = /** @type {typeof window.setTimeout} */ (
    /** @param {TimerHandler} handler @param {number} [delay] @param {unknown[]} rest */
    function (handler, delay, ...rest) {
      if (!inTab || typeof handler !== 'function' || Number(delay || 0) > PULL_WINDOW_MS)
        return pageSetTimeout(handler, delay, ...rest);
      const run = /** @type {(...args: unknown[]) => unknown} */ (handler);
      const id = pageSetTimeout(
        /** @param {unknown[]} args */ (...args) => {
          movingTimers.delete(id);
          run(...args);
        },
        delay,
        ...rest,
      );
      movingTimers.add(id);
      return id;
    }
  );
  window.clearTimeout = /** @param {number | undefined} id */ (id) => {
    if (id !== undefined) movingTimers.delete(id);
    pageClearTimeout(id);
  };
  function movesSettled() {
    return movingTimers.size === 0;
  }
  window.addEventListener(
    'keydown',
    (event) => {
      if (!walkLog || event.key !== 'Tab') return;
      inTab = true;
      pageSetTimeout(() => (inTab = false), 0);
      const now = performance.now();
      leftByTab = leftByTab.filter((left) => now - left.at < PULL_WINDOW_MS);
      const el = deepActiveElement();
      if (el && el !== document.body) leftByTab.push({ el, at: now });
    },
    true,
  );
  window.addEventListener(
    'focusin',
    () => {
      if (!walkLog || inTab) return;
      const el = deepActiveElement();
      const now = performance.now();
      if (!el || !leftByTab.some((left) => left.el === el && now - left.at < PULL_WINDOW_MS)) return;
      const selector = selectorOf(el);
      if (!pulledBack.includes(selector)) pulledBack.push(selector);
    },
    true,
  );
  // Starts the walk in one call: from the top when nothing has focus, else from the focused
  // element. Also reads every expected tab stop's styles at rest, before any has keyboard focus
  // (the element focused on load, if any, cannot be read at rest and is left out).
  function beginWalk() {
    const active = deepActiveElement();
    const fromTop = !focusState();
    /** @type {Record<string, string>} */
    const resting = {};
    // The element focused on load shows its focus style, and so may its neighbours (a parent's
    // :focus-within): neither can be read at rest, so both are left out of the check.
    for (const el of deepQueryAll('[data-audit-k]')) {
      if (active && (el === active || focusNeighbours(el).some((near) => near && near.contains(active))))
        continue;
      resting[/** @type {string} */ (el.getAttribute('data-audit-k'))] = focusSnapshot(el);
    }
    if (fromTop) startAtTop();
    walkLog = [];
    return { fromTop, resting };
  }
  /**
   * What the page tells a keyboard user about the widget `selectors` name, for the keys it names:
   * the descriptions tied to those elements (aria-describedby, title) and the visible text around
   * the widget (the parent of the element that holds them all: instructions stand beside what they
   * are about). Not the whole page's: a key named for something else there may submit a form.
   * @param {string[]} selectors
   */
  function exitInstructions(selectors) {
    const elements = selectors.map(resolve).filter((el) => el !== null);
    /** @type {string[]} */
    const told = [];
    for (const el of elements) {
      told.push(el.getAttribute('title') || '');
      for (const id of (el.getAttribute('aria-describedby') || '').split(/\s+/))
        if (id) told.push(document.getElementById(id)?.textContent || '');
    }
    let holder = elements[0] ? inDocumentTree(elements[0]) : null;
    while (holder && !elements.every((el) => holder?.contains(inDocumentTree(el))))
      holder = holder.parentElement;
    const around = holder && holder !== document.body ? holder.parentElement : holder;
    if (around instanceof HTMLElement) told.push(around.innerText);
    return told.join('\n');
  }
  /**
   * Focuses the element `selector` names, as a script would; whether there was one.
   * @param {string} selector
   */
  function focusOn(selector) {
    // HTML, SVG and MathML elements take focus(); an element of another namespace has none.
    const el = /** @type {(Element & { focus?: () => void }) | null} */ (resolve(selector));
    if (el && typeof el.focus === 'function') el.focus();
    return !!el;
  }
  /**
   * Whether the element `selector` names takes typing (a text field or editable content).
   * @param {string} selector
   */
  function editable(selector) {
    const el = resolve(selector);
    if (el instanceof HTMLElement && el.isContentEditable) return true;
    if (el instanceof HTMLTextAreaElement) return !el.readOnly && !el.disabled;
    return (
      el instanceof HTMLInputElement &&
      !el.readOnly &&
      !el.disabled &&
      /^(text|search|email|url|tel|password|number|)$/.test(el.type)
    );
  }
  function takeWalkLog() {
    endWalkStart();
    const log = walkLog || [];
    walkLog = walkLog && [];
    const pulled = pulledBack;
    pulledBack = [];
    return { log, now: focusState(), pulled };
  }
  // With nothing focused, Tab starts after the "sequential focus navigation starting point",
  // which a URL fragment or a click may have left mid-page: move it to the top of the document.
  function startAtTop() {
    /** @param {Element} el */
    const positive = (el) => /** @type {HTMLElement} */ (el).tabIndex > 0 && isVisible(el) && !outOfUse(el);
    if (document.body && deepQueryAll('[tabindex]').some(positive)) {
      startBeforePositiveTabindex(document.body);
      return;
    }
    const root = document.documentElement;
    const tabindex = root.getAttribute('tabindex');
    root.setAttribute('tabindex', '-1');
    root.focus({ preventScroll: true });
    root.blur();
    if (tabindex === null) root.removeAttribute('tabindex');
    else root.setAttribute('tabindex', tabindex);
  }
  // Tab from the root (tabindex -1) goes to the first tabindex="0" element and reaches positive
  // tabindex values only after leaving the document, where a visitor's first Tab reaches them
  // first. From an element with tabindex="1" before everything else, Tab follows the page's whole
  // order: it stays, unseen and blurred, until the walk's first Tab has moved focus on. Counted:
  // positive values on what can take focus (visible, in use).
  /** @param {HTMLElement} body */
  function startBeforePositiveTabindex(body) {
    const start = document.createElement('span');
    start.tabIndex = 1;
    start.setAttribute('aria-hidden', 'true');
    start.style.cssText = 'position:fixed;top:0;left:0;width:0;height:0;overflow:hidden';
    body.prepend(start);
    start.focus({ preventScroll: true });
    start.blur();
    walkStart = start;
    document.addEventListener('focusin', endWalkStart, { capture: true, once: true });
  }
  /** @type {HTMLElement | null} */
  let walkStart = null;
  // Gone once focus has moved on, or at the latest when the walk reads its first Tabs.
  function endWalkStart() {
    if (walkStart) walkStart.remove();
    walkStart = null;
  }
  // The skip link: an in-page link that says so ("Skip to content", "Jump to main"), else the first
  // tab stop when it is an in-page link to the main content: its target is, or contains, main
  // ([role=main]) or the h1. A first link to any other part of the page ("#about") is no skip link.
  function skipLink() {
    const first = document.querySelector('[data-audit-k="0"]');
    const links = Array.from(document.querySelectorAll('a[href^="#"]')).filter(
      (a) => /** @type {string} */ (a.getAttribute('href')).length > 1,
    );
    const named = links.find((a) =>
      /skip|jump|main content|to content/i.test(textOf(a) + ' ' + (a.getAttribute('aria-label') || '')),
    );
    const skip = named || (first && links.includes(first) && leadsToMainContent(first) ? first : null);
    if (!skip) return null;
    const id = fragmentOf(skip);
    const target = targetOf(skip);
    return {
      element: skip,
      selector: selectorOf(skip),
      k: skip.getAttribute('data-audit-k'),
      target: id,
      targetExists: !!target,
      targetVisible: !!target && (isVisible(target) || target.children.length > 0),
    };
  }
  // Links, here and below, come from selectors that require href.
  /** @param {Element} link */
  function fragmentOf(link) {
    const raw = /** @type {string} */ (link.getAttribute('href')).slice(1);
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  /** @param {Element} link */
  function targetOf(link) {
    const id = fragmentOf(link);
    return document.getElementById(id) || document.getElementsByName(id)[0] || null;
  }
  /** @param {Element} link */
  function leadsToMainContent(link) {
    const target = targetOf(link);
    if (!target) return false;
    return [document.querySelector('main, [role=main]'), document.querySelector('h1')].some(
      (main) => main && (target === main || target.contains(main)),
    );
  }
  // WCAG 2.4.1: an in-page link whose fragment names no element moves neither the view nor the
  // focus. Per the HTML spec a fragment matches an id (as written or percent-decoded) or an a[name];
  // "#top" scrolls to the top, and "#/..." or "#!..." are a script router's, not anchors.
  /** @param {Element | null} skip */
  function brokenInPageLinks(skip) {
    const out = [];
    for (const link of document.querySelectorAll('a[href], area[href]')) {
      const href = /** @type {string} */ (link.getAttribute('href')).trim();
      if (href.length < 2 || href[0] !== '#' || link === skip) continue;
      if (!link.getClientRects().length || getComputedStyle(link).visibility === 'hidden') continue;
      const raw = href.slice(1);
      if (/^top$/i.test(raw) || raw[0] === '/' || raw[0] === '!') continue;
      let decoded = raw;
      try {
        decoded = decodeURIComponent(raw);
      } catch {
        /* keep it as written */
      }
      const exists = [raw, decoded].some(
        (id) =>
          document.getElementById(id) ||
          Array.from(document.getElementsByTagName('a')).some((a) => a.getAttribute('name') === id),
      );
      if (!exists)
        out.push(
          issue(
            'in-page-link-broken',
            link,
            'Links to #' +
              raw +
              ', but no element on the page has that id or name: activating it moves neither the view nor the keyboard focus',
          ),
        );
    }
    return out;
  }

  function links() {
    /** @type {Set<string>} */
    const out = new Set();
    for (const a of document.querySelectorAll('a[href]')) {
      try {
        const url = new URL(/** @type {string} */ (a.getAttribute('href')), document.baseURI);
        url.hash = '';
        if (url.origin === location.origin && /^https?:$/.test(url.protocol)) out.add(url.href);
      } catch {
        /* not a URL */
      }
    }
    return Array.from(out);
  }

  // WCAG 3.2.6's help mechanisms, told by what a link or button says or where it leads: contact
  // details (an address to mail, a number to call), a way to contact people, a fully automated
  // one (a chat) and self-help (help pages, FAQ, support). A name counts when it starts with one of
  // these words and is short, as a template's link is ("Help centre", "Contact us"; not "Arch
  // support insoles" in a shop's list, nor "Support us", which asks for money); an address when its
  // path starts with one (after a language segment: /en/help).
  /** @type {[string, RegExp][]} */
  const HELP_NAMES = [
    ['automated contact', /^(live chat|chat with us|chat now|chat|chatbot|virtual assistant)$/],
    [
      'contact',
      /^(contact|contact us|contact support|get in touch|call us|email us|e mail us|write to us|talk to us)( |$)/,
    ],
    [
      'self-help',
      /^(help|get help|help cent(er|re)|help and support|faqs?|frequently asked questions|knowledge base|(customer )?support|support cent(er|re)|customer (service|care))( |$)/,
    ],
  ];
  /** @type {[string, RegExp][]} */
  const HELP_PATHS = [
    ['contact', /^\/([a-z]{2}(-[a-z]{2})?\/)?contact([-_]?us)?(\/|\.|$)/i],
    ['self-help', /^\/([a-z]{2}(-[a-z]{2})?\/)?(help|faqs?|support)(\/|\.|$)/i],
  ];
  /**
   * @param {string} name
   * @param {string} href
   * @param {string} path
   * @returns {string | undefined}
   */
  function helpKind(name, href, path) {
    if (/^(mailto|tel|sms):/i.test(href)) return 'contact details';
    const words = norm(name);
    if (words && words.split(' ').length <= 4 && !/^support us\b|\bdonat/.test(words)) {
      const named = HELP_NAMES.find(([, pattern]) => pattern.test(words));
      if (named) return named[0];
    }
    const led = HELP_PATHS.find(([, pattern]) => pattern.test(path));
    return led ? led[0] : undefined;
  }
  const OUTLINED =
    'a[href], area[href], button, [role=button], [role=link], input[type=submit], input[type=button]';
  const OUTLINE_LIMIT = 600;
  const OUTLINE_HREF_LIMIT = 300;
  /**
   * The page's links and buttons in document order (open shadow roots included), for comparing the
   * pages of a full audit (3.2.6): each with a key that finds the same item on another page (its name
   * and where it leads), and for help mechanisms their kind, name and selector.
   * @returns {{ key: string, help?: string, label?: string, element?: string }[]}
   */
  function contentOutline() {
    const out = [];
    const here = location.href.split('#')[0];
    for (const el of deepQueryAll(OUTLINED)) {
      if (out.length >= OUTLINE_LIMIT) break;
      const image = el.querySelector('img[alt]');
      const name = (
        el.getAttribute('aria-label') ||
        (el.textContent || '').slice(0, 400) ||
        el.getAttribute('title') ||
        el.getAttribute('value') ||
        (image && image.getAttribute('alt')) ||
        ''
      )
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 100);
      const raw = (el.getAttribute('href') || '').trim();
      if (/^(data|blob|javascript):/i.test(raw)) continue;
      let href = '';
      let path = '';
      try {
        if (raw) {
          const url = new URL(raw, document.baseURI);
          const hash = url.hash;
          url.hash = '';
          // A link to a place in this page (a chat launcher's "#"): the same on every page, and
          // leading to no help page, whatever this page's own path.
          const inPage = url.href === here;
          href = inPage ? hash || '#' : url.href;
          path = !inPage && /^https?:$/.test(url.protocol) ? url.pathname : '';
        }
      } catch {
        href = raw;
      }
      href = href.slice(0, OUTLINE_HREF_LIMIT);
      if (!name && !href) continue;
      const key = name.toLowerCase() + '|' + href;
      const kind = helpKind(name, href, path);
      out.push(kind ? { key, help: kind, label: name || href, element: selectorOf(el) } : { key });
    }
    return out;
  }

  /**
   * @param {string} selector
   * @param {boolean} on
   */
  function outline(selector, on) {
    // HTML, SVG and MathML elements have a style; an element of another namespace would not.
    const el = /** @type {(Element & ElementCSSInlineStyle) | null} */ (resolve(selector));
    if (!el) return false;
    if (on) {
      el.scrollIntoView({ block: 'center', inline: 'center' });
      el.setAttribute('data-audit-outline', el.getAttribute('style') || '');
      el.style.outline = '4px solid #d0021b';
      el.style.outlineOffset = '2px';
    } else {
      el.setAttribute('style', el.getAttribute('data-audit-outline') || '');
      el.removeAttribute('data-audit-outline');
    }
    return true;
  }

  // ---- text over a background image or gradient (1.4.3, 1.4.6) ----
  // axe asks for review of such text; the Node side judges it from the pixels behind it
  // (background-contrast.ts): the kit finds the text, hides it for a screenshot, then shows it.
  const TEXT_HIDDEN = 'data-audit-text-hidden';
  /** @typedef {{ selector: string, rects: Rect[], color: Color, shadow: Color | null, fontSize: number, large: boolean }} BackgroundText */
  /**
   * Visible text whose backdrop (the element's own background or an ancestor's, up to the first
   * opaque background colour) paints an image or a gradient: at most `limit`, each with its line
   * boxes in page coordinates (CSS pixels), its colour, its text shadow's colour (the first, if
   * any), its font size and whether it is large text (WCAG: 18 pt, or 14 pt bold). Their text (and
   * only theirs) is made transparent until showText().
   * @param {number} limit
   * @returns {BackgroundText[]}
   */
  function backgroundTexts(limit) {
    /** @type {BackgroundText[]} */
    const found = [];
    const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
    /** @type {Set<Element>} */
    const seen = new Set();
    for (let node = walker.nextNode(); node && found.length < limit; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || seen.has(el) || !(node.textContent || '').trim()) continue;
      seen.add(el);
      if (!isVisible(el) || !overImage(el) || seenThrough(el) === 0) continue;
      const box = el.getBoundingClientRect();
      // Visually hidden text (a 1 px box clipped to nothing) is no text anyone sees.
      if (box.width < 2 || box.height < 2) continue;
      const style = getComputedStyle(el);
      const color = parseColor(style.color);
      if (!color || color.a === 0) continue;
      /** @type {Rect[]} */
      const rects = [];
      for (const child of el.childNodes) {
        if (child.nodeType !== Node.TEXT_NODE || !(child.textContent || '').trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(child);
        for (const r of range.getClientRects()) {
          if (r.width < 1 || r.height < 1) continue;
          rects.push({
            top: r.top + window.scrollY,
            left: r.left + window.scrollX,
            width: r.width,
            height: r.height,
          });
        }
      }
      if (!rects.length) continue;
      const size = parseFloat(style.fontSize);
      const bold = Number(style.fontWeight) >= 700;
      el.setAttribute(TEXT_HIDDEN, '');
      const shadow = haloOf(style.textShadow);
      found.push({
        selector: selectorOf(el),
        rects,
        color,
        shadow,
        fontSize: size,
        large: size >= 24 || (bold && size >= 18.66),
      });
    }
    if (found.length) {
      const hide = document.createElement('style');
      hide.setAttribute(TEXT_HIDDEN, '');
      // No transition: a page's own `transition: color` would still be drawing the text at the capture.
      hide.textContent = `[${TEXT_HIDDEN}] { color: transparent !important; -webkit-text-fill-color: transparent !important; text-shadow: none !important; text-decoration-color: transparent !important; transition: none !important; }`;
      document.documentElement.append(hide);
    }
    return found;
  }
  /**
   * How opaque `el` is drawn: its opacity times its ancestors' (0 for a slide faded out).
   * @param {Element} el
   */
  function seenThrough(el) {
    let opacity = 1;
    for (let node = /** @type {Element | null} */ (el); node; node = node.parentElement)
      opacity *= parseFloat(getComputedStyle(node).opacity);
    return opacity;
  }
  /**
   * The colour of a text shadow that is a halo: the first shadow, opaque, at most 1 px off the
   * letters and blurred; null for none or a drop shadow (`rgb(0, 0, 0) 0px 0px 2px`, as computed).
   * @param {string} value
   * @returns {Color | null}
   */
  function haloOf(value) {
    if (!value || value === 'none') return null;
    const color = parseColor(value);
    const lengths = (value.split(/\),?/)[1] || value.replace(/rgba?\([^)]*\)/, ''))
      .trim()
      .split(/\s+/)
      .map(parseFloat);
    const [x = 0, y = 0, blur = 0] = lengths;
    if (!color || color.a < 1 || Math.abs(x) > 1 || Math.abs(y) > 1 || blur < 1) return null;
    return color;
  }
  /**
   * Whether the backdrop of `el`'s text paints an image or a gradient below its first opaque colour.
   * @param {Element} el
   */
  function overImage(el) {
    for (let node = /** @type {Element | null} */ (el); node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage && style.backgroundImage !== 'none') return true;
      const c = parseColor(style.backgroundColor);
      if (c && c.a === 1) return false;
    }
    return false;
  }

  // ---- images of text (1.4.5, 1.4.9) ----
  // The Node side reads the words in each image (image-text.ts): the kit finds the images and hides
  // every text of the page for one screenshot (the page's text over a background image is no image
  // of text), then showText() shows it again.
  /** @typedef {{ selector: string, box: Rect }} TextImage */
  /**
   * Visible images that may show text, largest first, at most `limit`: `<img>`, `<input
   * type="image">`, `<object>`, SVG `<image>` and any element painting a background image (a URL,
   * not a gradient), at least 24 by 12 CSS pixels, with their boxes in page coordinates. A logo
   * (WCAG's exception for logotypes: "logo" in its name, title, id, class or address) is left out.
   * @param {number} limit
   * @returns {TextImage[]}
   */
  function textImages(limit) {
    /** @type {(TextImage & { area: number })[]} */
    const found = [];
    for (const el of (document.body || document.documentElement).querySelectorAll('*')) {
      const tag = el.localName;
      const image =
        tag === 'img' ||
        (tag === 'object' && objectImage(/** @type {HTMLObjectElement} */ (el))) ||
        (tag === 'image' && el instanceof SVGElement) ||
        (tag === 'input' && /** @type {HTMLInputElement} */ (el).type === 'image') ||
        backgroundPicture(el);
      if (!image || !isVisible(el) || seenThrough(el) === 0 || logo(el)) continue;
      // In page coordinates, less what lies above or left of the page (which no capture shows).
      const r = el.getBoundingClientRect();
      const [top, left] = [r.top + window.scrollY, r.left + window.scrollX];
      const box = {
        top: Math.max(0, top),
        left: Math.max(0, left),
        width: r.width + Math.min(0, left),
        height: r.height + Math.min(0, top),
      };
      if (box.width < 24 || box.height < 12) continue;
      found.push({ selector: selectorOf(el), box, area: box.width * box.height });
    }
    found.sort((a, b) => b.area - a.area);
    if (found.length) {
      const hide = document.createElement('style');
      hide.setAttribute(TEXT_HIDDEN, '');
      hide.textContent = `*, *::before, *::after, *::placeholder, *::marker { color: transparent !important; -webkit-text-fill-color: transparent !important; text-shadow: none !important; text-decoration-color: transparent !important; caret-color: transparent !important; transition: none !important; }`;
      document.documentElement.append(hide);
    }
    return found.slice(0, limit).map(({ selector, box }) => ({ selector, box }));
  }
  /**
   * Whether an `<object>` shows a picture (by its type, or its address's extension), not a document
   * whose text is text.
   * @param {HTMLObjectElement} el
   */
  function objectImage(el) {
    return /^image\//i.test(el.type) || /\.(png|jpe?g|gif|webp|avif|bmp|svg)([?#]|$)/i.test(el.data);
  }
  // What else draws inside an element's box in the capture, which hides only the page's text: a
  // picture of its own (read as one, or a logo left out), a canvas, inline SVG, a frame or a plugin.
  const DRAWN_INSIDE = 'img, picture, svg, canvas, video, iframe, object, embed, input[type="image" i]';
  /**
   * Whether `el` paints a background picture (a URL, not a gradient) that the capture shows alone:
   * not text clipped to the background (`background-clip: text`, its letters are the picture's
   * pixels), and nothing else drawn inside it.
   * @param {Element} el
   */
  function backgroundPicture(el) {
    const style = getComputedStyle(el);
    if (!/url\(/.test(style.backgroundImage)) return false;
    if (style.backgroundClip === 'text' || style.getPropertyValue('-webkit-background-clip') === 'text')
      return false;
    return !el.querySelector(DRAWN_INSIDE);
  }
  /**
   * Whether `el` is a logo by what it says of itself ("logo" as a word or a name's part, not in
   * "logout" or "catalogo").
   * @param {Element} el
   */
  function logo(el) {
    const said = ['alt', 'aria-label', 'title', 'id', 'class', 'src', 'data', 'href']
      .map((name) => el.getAttribute(name) || '')
      .concat(getComputedStyle(el).backgroundImage, labelledBy(el));
    return said.some((text) => /(?:^|[^a-z])logo(?!ut)/i.test(text));
  }
  /**
   * The text of the elements `aria-labelledby` names.
   * @param {Element} el
   */
  function labelledBy(el) {
    return (el.getAttribute('aria-labelledby') || '')
      .split(/\s+/)
      .map((id) => (id && document.getElementById(id)?.textContent) || '')
      .join(' ');
  }

  /**
   * Shows the text backgroundTexts() or textImages() hid. In two steps: the colours come back while
   * transitions are still off (a style recalculation forced between), so a page's `transition:
   * color` does not fade its text in from transparent while later checks read its styles.
   */
  function showText() {
    const hidden = document.querySelectorAll(`[${TEXT_HIDDEN}]`);
    for (const el of hidden)
      if (el instanceof HTMLStyleElement)
        el.textContent = `*, *::before, *::after { transition: none !important; }`;
    for (const el of hidden) if (!(el instanceof HTMLStyleElement)) el.removeAttribute(TEXT_HIDDEN);
    document.documentElement.getBoundingClientRect();
    for (const el of hidden) if (el instanceof HTMLStyleElement) el.remove();
  }

  // Everything that reads the page before the Tab walk, in one call: one round trip per audit.
  /** @type {Record<string, () => Issue[]>} */
  const IN_PAGE = {
    aria: textSpacingChecks,
    contrast: controlContrast,
    images: imageChecks,
    forms: formChecks,
    headings: headingChecks,
  };
  /** @param {string[]} categories */
  function collect(categories) {
    const findings = [];
    for (const category of categories) if (IN_PAGE[category]) findings.push(...IN_PAGE[category]());
    if (!categories.includes('keyboard')) return { findings, links: links(), walk: null, skip: null };
    const walk = prepareWalk();
    const found = skipLink();
    findings.push(...brokenInPageLinks(found && found.element));
    const skip = found && {
      selector: found.selector,
      k: found.k,
      target: found.target,
      targetExists: found.targetExists,
      targetVisible: found.targetVisible,
    };
    return { findings, links: links(), walk, skip };
  }

  // axe as it was when this script ran (at document start, before the page's own scripts), so a
  // page that defines its own global "axe" cannot break the audit.
  const kit = {
    axe: window.axe,
    collect,
    contentOutline,
    focusState,
    beginWalk,
    takeWalkLog,
    exitInstructions,
    editable,
    focusOn,
    movesSettled,
    outline,
    resolve,
    backgroundTexts,
    textImages,
    showText,
    takenOutOfUse,
  };
  Object.defineProperty(window, '__auditKit', { value: kit, configurable: true });
})();
