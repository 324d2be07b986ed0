// @ts-check
// The element a selector of the kit's selectorOf() names, through open shadow roots, or null.
// A classic script holding one function declaration, read as text by ../page-script.ts: it becomes
// RESOLVE_SELECTOR, which page-script.js's kit and the benchmark's comparison with pa11y
// (test/audits/pa11y-parity.ts) both embed, so the two read selectors alike. It uses nothing of the
// kit: only the DOM and the separator, a placeholder string that page-script.ts replaces with
// SHADOW_SEPARATOR (../types.ts) as a JSON string. `exported` tells ESLint it is used elsewhere.
/* exported resolve */

/**
 * @param {string} selector
 * @returns {Element | null}
 */
function resolve(selector) {
  /** @type {Document | ShadowRoot | null} */
  let root = document;
  const parts = selector.split('__SHADOW_SEPARATOR__');
  for (let i = 0; i < parts.length; i++) {
    let el;
    try {
      el = root.querySelector(/** @type {string} */ (parts[i])); // i < parts.length
    } catch {
      return null;
    }
    if (!el || i === parts.length - 1) return el;
    root = el.shadowRoot;
    if (!root) return null;
  }
  return null;
}
