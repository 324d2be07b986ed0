import assert from 'node:assert/strict';
import { formatMinorUnits, toMinorUnits, UnrepresentableAmount } from '../../lib/money.ts';

// The expected integers are the payment provider's documented ones ("Supported currencies"), not
// ISO 4217's minor units: ISK and UGX keep two decimals, HUF and TWD pay out whole units only.
describe("amounts in the payment provider's minor units", () => {
  const both = (amount: string, currency: string) => [
    toMinorUnits(amount, currency, 'charge'),
    toMinorUnits(amount, currency, 'payout'),
  ];
  const refused = (amount: string, currency: string, purpose: 'charge' | 'payout') =>
    assert.throws(() => toMinorUnits(amount, currency, purpose), UnrepresentableAmount);

  it('two-decimal currencies count cents', () => {
    assert.deepEqual(both('25.00', 'EUR'), [2500, 2500]);
    assert.deepEqual(both('0.5', 'usd'), [50, 50]);
  });

  it('zero-decimal currencies, MGA included, are not multiplied; their fractions cannot be paid', () => {
    assert.deepEqual(both('1500.00', 'JPY'), [1500, 1500]);
    assert.deepEqual(both('1500', 'KRW'), [1500, 1500]);
    assert.deepEqual(both('2000', 'MGA'), [2000, 2000]);
    refused('1500.50', 'JPY', 'charge');
    refused('2000.5', 'MGA', 'payout');
  });

  it('ISK and UGX are sent with two decimals that are always 00', () => {
    assert.deepEqual(both('1500', 'ISK'), [150_000, 150_000]);
    assert.deepEqual(both('5', 'UGX'), [500, 500]);
    refused('1500.50', 'ISK', 'charge');
    refused('1500.50', 'ISK', 'payout');
    refused('5.25', 'UGX', 'charge');
  });

  it('HUF and TWD charge two decimals but pay out whole units only', () => {
    assert.equal(toMinorUnits('10.45', 'HUF', 'charge'), 1045);
    refused('10.45', 'HUF', 'payout');
    assert.equal(toMinorUnits('10', 'HUF', 'payout'), 1000);
    assert.equal(toMinorUnits('800.45', 'TWD', 'charge'), 80045);
    refused('800.45', 'TWD', 'payout');
  });

  it('three-decimal currencies (KWD, BHD, ...) count thousandths whose last digit is 0', () => {
    assert.deepEqual(both('1.25', 'KWD'), [1250, 1250]);
    assert.deepEqual(both('7.5', 'BHD'), [7500, 7500]);
    refused('1.255', 'KWD', 'charge');
    refused('1.255', 'OMR', 'payout');
  });

  it('currencies ISO gives three decimals but the provider does not (IQD) count cents', () => {
    assert.deepEqual(both('12.34', 'IQD'), [1234, 1234]);
  });

  it('negative or non-decimal amounts cannot be paid', () => {
    refused('-1', 'EUR', 'charge');
    refused('1e3', 'EUR', 'charge');
  });

  it('formats minor units back for people', () => {
    assert.equal(formatMinorUnits(10_000, 'EUR'), '100.00 EUR');
    assert.equal(formatMinorUnits('4500', 'JPY'), '4500 JPY');
    assert.equal(formatMinorUnits(1250, 'KWD'), '1.250 KWD');
    assert.equal(formatMinorUnits(150_000, 'ISK'), '1500.00 ISK');
  });
});
