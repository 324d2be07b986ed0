import assert from 'node:assert/strict';
import { detectPii, luhnValid, type PiiKind } from '../../lib/pii-detector.ts';
import { redactPii } from '../../activities/privacy/sanitiser.ts';

const kinds = (text: string): PiiKind[] => detectPii(text).map((match) => match.kind);

describe('PII detector (voice transcripts)', () => {
  it('flags email addresses, written and spoken', () => {
    assert.deepEqual(kinds('write to jane.doe+test@mail.example.co.uk please'), ['email']);
    assert.deepEqual(kinds('it is jane dot doe at example dot com'), ['email']);
  });

  it('flags phone numbers in the forms people read them', () => {
    assert.deepEqual(kinds('call +44 20 7946 0958 tomorrow'), ['phone']);
    assert.deepEqual(kinds('my number is (555) 123-4567'), ['phone']);
  });

  it('flags card numbers only when they pass the Luhn check', () => {
    assert.equal(luhnValid('4111111111111111'), true);
    assert.equal(luhnValid('4111111111111112'), false);
    assert.deepEqual(kinds('card 4111 1111 1111 1111 expires soon'), ['card']);
    assert.deepEqual(kinds('order 4111 1111 1111 1112 shipped'), []);
  });

  it('flags postal addresses: street lines and postcodes', () => {
    assert.deepEqual(kinds('I live at 221B Baker Street in London'), ['address']);
    assert.deepEqual(kinds('deliver to 1600 Pennsylvania Avenue'), ['address']);
    assert.deepEqual(kinds('the postcode is SW1A 1AA'), ['address']);
  });

  it('flags self-introduced names', () => {
    assert.deepEqual(kinds('hi, my name is Jane Doe and I am testing'), ['name']);
    assert.deepEqual(kinds('you can call me jane'), ['name']);
    assert.deepEqual(kinds('this is Omar speaking'), ['name']);
  });

  it('leaves ordinary think-aloud alone', () => {
    for (const text of [
      'this is confusing, where is the checkout button',
      'I clicked 3 times and waited 20 seconds',
      'call me back later',
      'the total is 49.99 for 2 items',
    ]) {
      assert.deepEqual(kinds(text), [], text);
    }
  });

  it('the sanitiser redacts every span and leaves nothing to flag', () => {
    const text = 'my name is Jane Doe, card 4111 1111 1111 1111, mail jane@example.com, phone 020 7946 0958';
    const { text: redacted, redactions } = redactPii(text);
    assert.equal(redactions, 4);
    assert.equal(redacted, 'my name is [name], card [card number], mail [email], phone [phone number]');
    assert.deepEqual(detectPii(redacted), []);
  });
});
