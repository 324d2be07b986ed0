import assert from 'node:assert/strict';
import { currenciesInUse, isBcp47, ISO_3166_ALPHA2, ISO_4217 } from '../../lib/validation/iso-codes.ts';

describe('ISO 4217 currency codes (compensation.currency)', () => {
  it('accepts current currencies, the Caribbean guilder (XCG) among them', () => {
    for (const code of ['EUR', 'USD', 'GBP', 'JPY', 'XCG', 'VES', 'ZWG', 'SLE', 'XOF', 'CHF', 'INR']) {
      assert.ok(ISO_4217.has(code), code);
    }
  });

  it('refuses withdrawn codes: ANG (replaced by XCG), BGN, HRK (replaced by the euro), CUC, SLL, ZWL', () => {
    for (const code of ['ANG', 'BGN', 'HRK', 'CUC', 'SLL', 'ZWL', 'DEM', 'VEF', 'SVC', 'VED']) {
      assert.ok(!ISO_4217.has(code), code);
    }
  });

  it('refuses fund codes, precious metals and the testing and no-currency codes', () => {
    for (const code of ['CLF', 'USN', 'XAU', 'XDR', 'XTS', 'XXX']) assert.ok(!ISO_4217.has(code), code);
  });

  it('holds upper-case three-letter codes only', () => {
    assert.ok([...ISO_4217].every((code) => /^[A-Z]{3}$/.test(code)));
  });

  it("follows the data's dates: ANG until 30 June 2025, XCG from 31 March 2025, BGN until 31 January 2026, HRK until 14 January 2023", () => {
    const early2025 = currenciesInUse('2025-01-15');
    assert.ok(early2025.has('ANG') && !early2025.has('XCG') && early2025.has('BGN'));
    const april2025 = currenciesInUse('2025-04-01');
    assert.ok(april2025.has('ANG') && april2025.has('XCG'));
    assert.ok(currenciesInUse('2025-06-30').has('ANG') && !currenciesInUse('2025-07-01').has('ANG'));
    assert.ok(currenciesInUse('2026-01-31').has('BGN'));
    assert.ok(!currenciesInUse('2026-02-01').has('BGN'));
    assert.ok(currenciesInUse('2023-01-14').has('HRK') && !currenciesInUse('2023-01-15').has('HRK'));
  });
});

describe('ISO 3166-1 alpha-2 country codes', () => {
  it('holds the 249 officially assigned codes', () => {
    assert.equal(ISO_3166_ALPHA2.size, 249);
    for (const code of ['GB', 'DE', 'US', 'BQ', 'CW', 'SX', 'SS', 'AX', 'PS', 'TW', 'AQ', 'UM']) {
      assert.ok(ISO_3166_ALPHA2.has(code), code);
    }
  });

  it('refuses groupings, user-assigned, reserved and withdrawn codes', () => {
    for (const code of [
      'EU',
      'UN',
      'EZ',
      'XK',
      'AA',
      'QO',
      'ZZ',
      'AC',
      'IC',
      'UK',
      'AN',
      'YU',
      'SU',
      'ZR',
      'gb',
    ]) {
      assert.ok(!ISO_3166_ALPHA2.has(code), code);
    }
  });
});

describe("BCP 47 language tags (targeting.languages, a tester's languages)", () => {
  it('takes well-formed tags whose primary language subtag is in the IANA registry', () => {
    for (const tag of ['en', 'pt-BR', 'zh-Hant-TW', 'de-CH', 'yue', 'gsw', 'sr-Latn', 'es-419']) {
      assert.equal(isBcp47(tag), true, tag);
    }
  });

  it('refuses a tag of the right shape whose language is not registered, and malformed tags', () => {
    for (const tag of ['english', 'xx', 'zz-GB', 'qaa', 'en_GB', '', 'e', 'toolongsubtag']) {
      assert.equal(isBcp47(tag), false, tag);
    }
  });
});
