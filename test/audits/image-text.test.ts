import assert from 'node:assert/strict';
import sharp from 'sharp';
import { legibleText } from '../../activities/audits/image-text.ts';
import { textRecognizer, type ReadWord } from '../../activities/audits/text-recognition.ts';

/** A word read at `left`..`right` of a picture, 20 px tall. */
const word = (text: string, confidence: number, left: number, right: number): ReadWord => ({
  text,
  confidence,
  left,
  right,
  top: 10,
  bottom: 30,
});

describe('what counts as text in a picture (images of text, 1.4.5)', () => {
  it('a line of words the recogniser is sure of, across the picture, is its text', () => {
    assert.equal(
      legibleText(
        [word('Summer', 91, 20, 140), word('sale:', 88, 150, 230), word('half', 90, 240, 300)],
        480,
      ),
      'Summer sale: half',
    );
    // One word across most of the picture is enough ("Welcome" in W3C ACT 0va7u6).
    assert.equal(legibleText([word('Welcome', 68, 10, 420)], 451), 'Welcome');
  });

  it('a single letter, a short word, or letters the recogniser doubts are no text', () => {
    assert.equal(legibleText([word('A', 96, 20, 180)], 200), undefined);
    assert.equal(legibleText([word('Go', 95, 5, 90)], 100), undefined);
    assert.equal(legibleText([word('Welcome', 40, 10, 420)], 451), undefined);
  });

  it('marks and digits read in a photograph are no text', () => {
    assert.equal(legibleText([word('|=:', 92, 0, 300), word('2X10', 90, 300, 600)], 640), undefined);
  });

  it('words within a small part of the picture (a sign in a photograph) are no text', () => {
    assert.equal(legibleText([word('POLICE', 90, 300, 360)], 640), undefined);
    assert.equal(legibleText([word('Ai', 75, 100, 130), word('nr', 71, 180, 215)], 640), undefined);
  });
});

describe('the text recogniser (tesseract.js in a thread of its own)', function () {
  this.timeout(60_000);
  const banner = () =>
    sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="420" height="90"><rect width="420" height="90" fill="#fff"/><text x="16" y="58" font-family="Liberation Sans, sans-serif" font-size="40" fill="#111">Summer sale now</text></svg>',
      ),
    )
      .png()
      .toBuffer();

  it('reads the words of a picture', async () => {
    const words = await textRecognizer.read(await banner(), 30_000);
    assert.match(words.map((word) => word.text).join(' '), /Summer sale/);
  });

  it('a read that runs out ends the thread without breaking the reads beside it; the next read starts another', async () => {
    await textRecognizer.close();
    const png = await banner();
    // The first runs out while the thread starts: the second was already waiting on that thread.
    const [early, beside] = await Promise.allSettled([
      textRecognizer.read(png, 1),
      textRecognizer.read(png, 30_000),
    ]);
    assert.equal(early.status, 'rejected');
    // At once, told why, rather than left waiting on a thread that is gone until its own time runs out.
    assert.equal(beside.status, 'rejected');
    assert.match(String(beside.reason), /the text recogniser was closed/);
    const words = await textRecognizer.read(png, 30_000);
    assert.match(words.map((word) => word.text).join(' '), /Summer sale/);
  });
});
