import { createRequire } from 'node:module';

// ISO 3166-1 alpha-2 (officially assigned codes) and ISO 4217 (active currency codes).
// Kept as data rather than derived from Intl: Intl accepts region groupings (EU, UN) and historic currencies.

export const ISO_3166_ALPHA2 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO ' +
    'FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE ' +
    'JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO ' +
    'MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW ' +
    'PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM ' +
    'TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/**
 * The currencies of ISO 4217 List One as of 2026, without its fund codes (BOV, CHE, CHW, CLF, COU,
 * MXV, USN, UYI, UYW), precious metals (XAU, XAG, XPD, XPT), bond units, XDR, XSU, XUA, XTS and XXX:
 * compensation is paid in money. Includes VED beside VES (Venezuela lists both) and XCG, the
 * Caribbean guilder that replaced the Netherlands Antillean guilder (ANG) on 31 March 2025
 * (amendment 176). Withdrawn codes are refused: ANG, BGN (Bulgaria adopted the euro on 1 January
 * 2026, amendment 180), HRK, CUC, SLL, ZWL and older ones.
 */
export const ISO_4217 = new Set(
  (
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF ' +
    'CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD ' +
    'HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD ' +
    'MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN ' +
    'PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY ' +
    'TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG'
  ).split(' '),
);

/**
 * The language subtags of the IANA Language Subtag Registry (the `language-subtag-registry`
 * package, its `File-Date` in `meta.json`): a tag of the right shape ("english") is not a language.
 */
const REGISTERED_LANGUAGES: ReadonlySet<string> = new Set(
  Object.keys(
    createRequire(import.meta.url)('language-subtag-registry/data/json/language.json') as Record<
      string,
      number
    >,
  ).filter((subtag) => /^[a-z]{2,8}$/.test(subtag)),
);

/**
 * BCP 47: a well-formed tag as Intl understands it (en, pt-BR, zh-Hant-TW) whose primary language
 * subtag is registered.
 */
export function isBcp47(tag: string): boolean {
  let canonical: string[];
  try {
    canonical = Intl.getCanonicalLocales(tag);
  } catch {
    return false;
  }
  return canonical.length === 1 && REGISTERED_LANGUAGES.has(canonical[0]!.split('-')[0]!.toLowerCase());
}
