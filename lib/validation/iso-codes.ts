import { createRequire } from 'node:module';

const requireData = createRequire(import.meta.url);

interface CodeMappings {
  supplemental: { codeMappings: Record<string, { _numeric?: string }> };
}
interface Aliases {
  supplemental: { metadata: { alias: { territoryAlias: Record<string, unknown> } } };
}
type CurrencySpan = { _from?: string; _to?: string; _tender?: 'false' };
interface CurrencyData {
  supplemental: { currencyData: { region: Record<string, Record<string, CurrencySpan>[]> } };
}

/**
 * ISO 3166-1 alpha-2, the officially assigned codes, from Unicode CLDR (`cldr-core`): the territories
 * with an ISO numeric code below 900 (the user-assigned AA, QM-QZ, XA-XZ and ZZ sit at 900 and
 * above; the reserved AC, CP, DG, EA, IC and TA have none), without those CLDR keeps only as
 * deprecated aliases (AN, CS, SU, YU, ...). Kept as data rather than Intl: Intl takes EU and UN.
 */
export const ISO_3166_ALPHA2: ReadonlySet<string> = officiallyAssignedCountries();

/**
 * Money no compensation is paid in, refused whatever the data says: ISO 4217's fund codes,
 * precious metals, bond and accounting units, the SDR, and the testing and no-currency codes.
 */
const NOT_MONEY = new Set(
  'BOV CHE CHW CLF COU MXV USN UYI UYW XAU XAG XPD XPT XBA XBB XBC XBD XDR XSU XUA XTS XXX'.split(' '),
);

/**
 * ISO 4217 codes in use: those CLDR (`cldr-core`) lists as legal tender in some region on the day
 * the process starts, less NOT_MONEY. CLDR follows ISO's amendments with their dates, so XCG is in
 * from 31 March 2025 and ANG out after 30 June 2025, BGN out after 31 January 2026; HRK, CUC, SLL and
 * ZWL are out. CLDR does not count VED (Venezuela's digital bolivar) as tender, nor SVC (El Salvador
 * has used USD since 2001): both are refused.
 */
export const ISO_4217: ReadonlySet<string> = currenciesInUse(new Date().toISOString().slice(0, 10));

function officiallyAssignedCountries(): Set<string> {
  const mappings = (requireData('cldr-core/supplemental/codeMappings.json') as CodeMappings).supplemental
    .codeMappings;
  const deprecated = (requireData('cldr-core/supplemental/aliases.json') as Aliases).supplemental.metadata
    .alias.territoryAlias;
  return new Set(
    Object.entries(mappings)
      .filter(([code, mapping]) => /^[A-Z]{2}$/.test(code) && Number(mapping._numeric ?? 900) < 900)
      .filter(([code]) => !Object.hasOwn(deprecated, code))
      .map(([code]) => code),
  );
}

/** `day` is YYYY-MM-DD; a span counts from its `_from` day to its `_to` day, both included (CLDR's reading). */
export function currenciesInUse(day: string): Set<string> {
  const regions = (requireData('cldr-core/supplemental/currencyData.json') as CurrencyData).supplemental
    .currencyData.region;
  const codes = new Set<string>();
  for (const spans of Object.values(regions)) {
    for (const span of spans) {
      for (const [code, { _from, _to, _tender }] of Object.entries(span)) {
        const current = (_from === undefined || _from <= day) && (_to === undefined || day <= _to);
        if (current && _tender !== 'false' && !NOT_MONEY.has(code)) codes.add(code);
      }
    }
  }
  return codes;
}

/**
 * The language subtags of the IANA Language Subtag Registry (the `language-subtag-registry`
 * package, its `File-Date` in `meta.json`): a tag of the right shape ("english") is not a language.
 */
const REGISTERED_LANGUAGES: ReadonlySet<string> = new Set(
  Object.keys(
    requireData('language-subtag-registry/data/json/language.json') as Record<string, number>,
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
