import assert from 'node:assert/strict';
import { ISO_4217 } from '../../api/validation/iso-codes.ts';

describe('ISO 4217 currency codes (compensation.currency)', () => {
  it('accepts current currencies, the Caribbean guilder (XCG) and the digital bolivar (VED) among them', () => {
    for (const code of ['EUR', 'USD', 'GBP', 'JPY', 'XCG', 'VED', 'VES', 'ZWG', 'SLE', 'XOF']) {
      assert.ok(ISO_4217.has(code), code);
    }
  });

  it('refuses withdrawn codes: ANG (replaced by XCG), BGN, HRK (replaced by the euro), CUC, SLL, ZWL', () => {
    for (const code of ['ANG', 'BGN', 'HRK', 'CUC', 'SLL', 'ZWL', 'DEM', 'VEF']) {
      assert.ok(!ISO_4217.has(code), code);
    }
  });

  it('refuses fund codes, precious metals and the testing and no-currency codes', () => {
    for (const code of ['CLF', 'USN', 'XAU', 'XDR', 'XTS', 'XXX']) assert.ok(!ISO_4217.has(code), code);
  });

  it('holds upper-case three-letter codes only', () => {
    assert.ok([...ISO_4217].every((code) => /^[A-Z]{3}$/.test(code)));
  });
});
