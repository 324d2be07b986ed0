import { readFileSync } from 'node:fs';
import { AXE_SOURCE } from './axe-check.ts';
import { SHADOW_SEPARATOR } from '../../lib/audits.ts';

// The scripts that run inside the audited page are plain JavaScript files in page-script/, checked
// by tsc through JSDoc with the browser's globals (page-script/tsconfig.json, run by
// test/audits/page-script-typecheck.test.ts), and read here once, when the module loads.

/** A file of page-script/ with its placeholders, each written once in it, replaced by their values. */
function pageSource(file: string, values: Readonly<Record<string, string>>): string {
  let text = readFileSync(new URL(`./page-script/${file}`, import.meta.url), 'utf8').trim();
  for (const [placeholder, value] of Object.entries(values)) {
    const parts = text.split(placeholder);
    if (parts.length !== 2) throw new Error(`page-script/${file} must hold ${placeholder} once`);
    text = parts.join(value);
  }
  return text;
}

const SEPARATOR = { "'__SHADOW_SEPARATOR__'": JSON.stringify(SHADOW_SEPARATOR) };

/**
 * Source of `function resolve(selector)`: the element a selector of the kit's selectorOf() names,
 * through open shadow roots, or null. Shared with the benchmark's comparison with pa11y
 * (test/audits/pa11y-parity.ts), which must read the audit's selectors as the kit writes them.
 */
export const RESOLVE_SELECTOR = pageSource('resolve-selector.js', SEPARATOR);

/** The kit (page-script/page-script.js): defines `window.__auditKit` once per document. */
const PAGE_SCRIPT = pageSource('page-script.js', {
  ...SEPARATOR,
  '/* RESOLVE_SELECTOR */': RESOLVE_SELECTOR,
});

/**
 * axe and the kit, for the warm contexts' init script: Chromium runs it at the start of every
 * top-level document, so an audit neither ships 650 kB of axe over the protocol nor compiles it
 * through an evaluate call (measured: about 150 ms less per audit). Frames are left alone, as before.
 * It runs in the warm page's about:blank too, on purpose: the audited document then finds axe
 * already compiled in the renderer's V8 (skipping about:blank made it parse in about 150 ms more).
 */
export const AUDIT_INIT_SCRIPT = `if (window === window.top) {\n${AXE_SOURCE}\n;${PAGE_SCRIPT}\n}`;
