/**
 * Keys a page names as the way out of a widget ("Press Ctrl+M to leave the editor"), as Playwright
 * presses them. WCAG 2.1.2 allows a way out other than Tab, Shift+Tab or Escape when the user is
 * told of it: the Tab walk tries the keys the page names before it reports a trap.
 */

const MODIFIERS: Readonly<Record<string, string>> = {
  ctrl: 'Control',
  control: 'Control',
  alt: 'Alt',
  option: 'Alt',
  shift: 'Shift',
  meta: 'Meta',
  cmd: 'Meta',
  command: 'Meta',
};

const NAMED: Readonly<Record<string, string>> = {
  esc: 'Escape',
  escape: 'Escape',
  enter: 'Enter',
  return: 'Enter',
  tab: 'Tab',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
};

/** A sentence that speaks of getting out: only keys named in one are tried. */
const LEAVING =
  /\b(leav(?:e|es|ing)|exit(?:s|ing)?|escape|gets? out|out of|quits?|clos(?:e|es|ing)|releas(?:e|es|ing)|moves? (?:the )?focus|focus out)\b/i;

const MODIFIER = '(?:ctrl|control|alt|option|shift|meta|cmd|command)';
const KEY = '(?:f(?:1[0-2]|[1-9])|esc(?:ape)?|enter|return|tab|home|end|page\\s?up|page\\s?down|[a-z0-9])';
/** Modifiers and a key ("Ctrl+M", "Control - Shift - F6"), or a function key alone ("F6"). */
const COMBINATION = new RegExp(
  `\\b((?:${MODIFIER}\\s*[+-]\\s*)+)(${KEY})\\b|\\b(F(?:1[0-2]|[1-9]))\\b`,
  'gi',
);

/** The key as Playwright names it: a letter upper-case with Shift, lower-case without. */
function keyName(key: string, shifted: boolean): string {
  const plain = key.toLowerCase().replace(/\s/g, '');
  if (NAMED[plain]) return NAMED[plain];
  if (/^f\d+$/.test(plain)) return plain.toUpperCase();
  return shifted ? plain.toUpperCase() : plain;
}

/** The keys `text` names in sentences about leaving, in the order named, each once. */
export function exitKeysIn(text: string): string[] {
  const keys: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    if (!LEAVING.test(sentence)) continue;
    for (const match of sentence.matchAll(COMBINATION)) {
      const [, modifiers, key, functionKey] = match;
      let pressed: string;
      if (functionKey) pressed = functionKey.toUpperCase();
      else {
        const names = [
          ...new Set(
            modifiers!
              .split(/[+-]/)
              .map((m) => MODIFIERS[m.trim().toLowerCase()])
              .filter((name) => name !== undefined),
          ),
        ];
        pressed = [...names, keyName(key!, names.includes('Shift'))].join('+');
      }
      if (!keys.includes(pressed)) keys.push(pressed);
    }
  }
  return keys;
}
