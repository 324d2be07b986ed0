// Amounts as the payment provider counts them: integers in the currency's minor unit. Studies
// store decimal strings with two places ('25.00'); arithmetic here stays in integers throughout.

/** ISO 4217 currencies whose minor unit is not a hundredth (the rest have two decimals). */
const EXPONENTS: Readonly<Record<string, number>> = {
  // No minor unit (the provider's "zero-decimal" currencies).
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0,
  VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  // Thousandths.
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
}; // prettier-ignore

export const minorUnitExponent = (currency: string): number => EXPONENTS[currency.toUpperCase()] ?? 2;

/** The amount cannot be paid in the currency's smallest unit (half a yen). */
export class UnrepresentableAmount extends Error {
  override readonly name = 'UnrepresentableAmount';
}

/** '25.00' EUR -> 2500; '1500' JPY -> 1500; '1500.50' JPY throws (a yen has no fractions). */
export function toMinorUnits(amount: string | number, currency: string): number {
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new UnrepresentableAmount(`${text} is not a non-negative decimal amount`);
  const exponent = minorUnitExponent(currency);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > exponent) {
    throw new UnrepresentableAmount(
      `${text} ${currency} has more decimals than the currency's minor unit allows (${exponent})`,
    );
  }
  const minor = BigInt(match[1]!) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0');
  if (minor > BigInt(Number.MAX_SAFE_INTEGER))
    throw new UnrepresentableAmount(`${text} ${currency} is too large`);
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
