// Amounts as the payment provider counts them: integers in the currency's minor unit as the
// provider defines it, which is not always ISO 4217's. Studies store decimal strings with two
// places ('25.00'); arithmetic here stays in integers throughout.
//
// The provider's rules (its "Supported currencies" page, docs/decisions/payments.md, "Checkout amount"):
// - zero-decimal currencies: the amount is whole units (BIF, CLP, DJF, GNF, JPY, KMF, KRW, MGA,
//   PYG, RWF, VND, VUV, XAF, XOF, XPF);
// - three-decimal currencies: thousandths, and the last digit must be 0 (BHD, JOD, KWD, OMR, TND);
// - ISK and UGX became zero-decimal but are still sent with two decimals that are always 00 (UGX is
//   also on the zero-decimal list; its special-case row, the more specific rule, wins);
// - HUF and TWD are charged with two decimals but paid out in whole units only;
// - every other currency: hundredths.

/** Why an amount is being converted: the provider accepts different steps for each. */
export type AmountPurpose = 'charge' | 'payout';

interface CurrencyRule {
  /** Decimal places of the provider's integer amount. */
  readonly exponent: number;
  /** The smallest step, in minor units, the provider accepts for each purpose. */
  readonly step: Readonly<Record<AmountPurpose, number>>;
}

const rule = (exponent: number, charge = 1, payout = charge): CurrencyRule => ({
  exponent,
  step: { charge, payout },
});
const ZERO_DECIMAL = rule(0);
const THREE_DECIMAL = rule(3, 10);
const WHOLE_UNITS_IN_CENTS = rule(2, 100);
const PAID_OUT_IN_WHOLE_UNITS = rule(2, 1, 100);

const RULES: Readonly<Record<string, CurrencyRule>> = {
  BIF: ZERO_DECIMAL, CLP: ZERO_DECIMAL, DJF: ZERO_DECIMAL, GNF: ZERO_DECIMAL, JPY: ZERO_DECIMAL,
  KMF: ZERO_DECIMAL, KRW: ZERO_DECIMAL, MGA: ZERO_DECIMAL, PYG: ZERO_DECIMAL, RWF: ZERO_DECIMAL,
  VND: ZERO_DECIMAL, VUV: ZERO_DECIMAL, XAF: ZERO_DECIMAL, XOF: ZERO_DECIMAL, XPF: ZERO_DECIMAL,
  BHD: THREE_DECIMAL, JOD: THREE_DECIMAL, KWD: THREE_DECIMAL, OMR: THREE_DECIMAL, TND: THREE_DECIMAL,
  ISK: WHOLE_UNITS_IN_CENTS, UGX: WHOLE_UNITS_IN_CENTS,
  HUF: PAID_OUT_IN_WHOLE_UNITS, TWD: PAID_OUT_IN_WHOLE_UNITS,
}; // prettier-ignore
const TWO_DECIMAL = rule(2);

const ruleOf = (currency: string): CurrencyRule => RULES[currency.toUpperCase()] ?? TWO_DECIMAL;

export const minorUnitExponent = (currency: string): number => ruleOf(currency).exponent;

/** The provider cannot charge or pay out this amount in this currency (half a yen, 10.45 HUF paid out). */
export class UnrepresentableAmount extends Error {
  override readonly name = 'UnrepresentableAmount';
}

/**
 * The provider's integer amount for a decimal amount: '25.00' EUR -> 2500; '1500' JPY -> 1500;
 * '1500' ISK -> 150000; '1.25' KWD -> 1250. Throws UnrepresentableAmount when the provider would
 * refuse it for `purpose`: finer than the currency's unit ('1500.50' JPY), not a whole krona
 * ('1500.50' ISK), a HUF payout with fillér ('10.45' HUF), a last digit other than 0 ('1.255' KWD).
 */
export function toMinorUnits(amount: string, currency: string, purpose: AmountPurpose): number {
  const text = amount.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new UnrepresentableAmount(`${text} is not a non-negative decimal amount`);
  const code = currency.toUpperCase();
  const { exponent, step } = ruleOf(code);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) {
    throw new UnrepresentableAmount(
      `${text} ${code} has more decimals than the currency's minor unit allows (${exponent})`,
    );
  }
  const minor = BigInt(match[1]!) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0');
  if (minor % BigInt(step[purpose]) !== 0n) {
    const unit = formatMinorUnits(step[purpose], code);
    throw new UnrepresentableAmount(
      `${text} ${code} cannot be ${purpose === 'charge' ? 'charged' : 'paid out'}: the payment provider takes ${code} in steps of ${unit}`,
    );
  }
  if (minor > BigInt(Number.MAX_SAFE_INTEGER))
    throw new UnrepresentableAmount(`${text} ${code} is too large`);
  return Number(minor);
}

/** 2500 EUR -> '25.00 EUR'; 1500 JPY -> '1500 JPY' (for emails and logs). */
export function formatMinorUnits(minor: number | string, currency: string): string {
  const exponent = minorUnitExponent(currency);
  const value = BigInt(minor);
  const scale = 10n ** BigInt(exponent);
  const whole = value / scale;
  const fraction = exponent === 0 ? '' : `.${(value % scale).toString().padStart(exponent, '0')}`;
  return `${whole}${fraction} ${currency.toUpperCase()}`;
}
