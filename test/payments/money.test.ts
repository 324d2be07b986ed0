import assert from 'node:assert/strict';
import { formatMinorUnits, toMinorUnits, UnrepresentableAmount } from '../../activities/payments/money.ts';

describe('amounts in minor units (the provider counts integers)', () => {
  it('two-decimal currencies count cents', () => {
    assert.equal(toMinorUnits('25.00', 'EUR'), 2500);
    assert.equal(toMinorUnits('0.5', 'usd'), 50);
    assert.equal(toMinorUnits(19.99, 'GBP'), 1999);
  });

  it('zero-decimal currencies (JPY, KRW) are not multiplied; three-decimal ones (KWD) count thousandths', () => {
    assert.equal(toMinorUnits('1500.00', 'JPY'), 1500);
    assert.equal(toMinorUnits('1500', 'KRW'), 1500);
    assert.equal(toMinorUnits('1.25', 'KWD'), 1250);
  });

  it('an amount finer than the minor unit cannot be paid', () => {
    assert.throws(() => toMinorUnits('1500.50', 'JPY'), UnrepresentableAmount);
    assert.throws(() => toMinorUnits('-1', 'EUR'), UnrepresentableAmount);
  });

  it('formats minor units back for people', () => {
    assert.equal(formatMinorUnits(10_000, 'EUR'), '100.00 EUR');
    assert.equal(formatMinorUnits('4500', 'JPY'), '4500 JPY');
    assert.equal(formatMinorUnits(1250, 'KWD'), '1.250 KWD');
  });
});
