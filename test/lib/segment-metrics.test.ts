import assert from 'node:assert/strict';
import { hesitationCount, segmentMetrics, sentimentOf, wordsOf } from '../../lib/voice/segment-metrics.ts';

describe('voice segment metrics (lib/voice/segment-metrics.ts)', () => {
  it('labels praise positive, complaints and negated praise negative, plain talk neutral', () => {
    assert.equal(sentimentOf('I love this page, it is great').sentiment, 'positive');
    assert.equal(sentimentOf('I cannot find the button, this is so frustrating').sentiment, 'negative');
    assert.equal(sentimentOf('this is not good at all').sentiment, 'negative');
    assert.deepEqual(sentimentOf('the checkout button is at the bottom'), {
      sentiment: 'neutral',
      sentimentScore: 0,
    });
    const strong = sentimentOf('terrible awful horrible');
    assert.ok(strong.sentimentScore >= -1 && strong.sentimentScore < -0.9, String(strong.sentimentScore));
  });

  it('counts filled pauses and words said twice in a row', () => {
    assert.equal(hesitationCount(wordsOf('Um, I think the the checkout is, uh, here')), 3);
    assert.equal(hesitationCount(wordsOf('The checkout is here.')), 0);
  });

  it('measures words per minute without the filled pauses', () => {
    const metrics = segmentMetrics('um where is the pay button', 0, 3_000);
    assert.equal(metrics.wordsPerMinute, 100); // 5 words in 3 s
    assert.equal(metrics.hesitationCount, 1);
    assert.deepEqual(wordsOf("I can't see it."), ['i', "can't", 'see', 'it']);
  });
});
