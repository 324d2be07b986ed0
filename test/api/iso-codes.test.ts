import assert from 'node:assert/strict';
import { isBcp47, ISO_4217 } from '../../api/validation/iso-codes.ts';

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
