import assert from 'node:assert/strict';
import { exitKeysIn } from '../../activities/audits/exit-keys.ts';

describe('keys a page names as the way out of a widget (keyboard traps, 2.1.2)', () => {
  it('reads modifier combinations and function keys in sentences about leaving, as Playwright presses them', () => {
    assert.deepEqual(exitKeysIn('Tab moves between fields. Press Ctrl+M to leave the editor.'), [
      'Control+m',
    ]);
    assert.deepEqual(exitKeysIn('To exit the map, press Control - Shift - F6 or F2.'), [
      'Control+Shift+F6',
      'F2',
    ]);
    assert.deepEqual(exitKeysIn('Use Alt+Shift+q to move focus out of the terminal'), ['Alt+Shift+Q']);
    assert.deepEqual(exitKeysIn('Cmd+Esc closes the panel.'), ['Meta+Escape']);
  });

  it('ignores keys named for anything but leaving, and names each key once', () => {
    assert.deepEqual(exitKeysIn('Press Ctrl+S to save. Press Ctrl+B for bold.'), []);
    assert.deepEqual(exitKeysIn('Press F6 to leave.\nF6 again exits the toolbar.'), ['F6']);
    assert.deepEqual(exitKeysIn('Leave a comment below.'), []);
  });
});
