/**
 * Finite numbers as exact decimals: a JS number stands for its shortest round-trip form,
 * `String(x)` (0.1 is one tenth, not the double's binary expansion), which is how JSON text
 * writes it. The schema compiler reads bounds and `multipleOf` divisors this way, and the
 * validator decides `multipleOf` the same way, so grammar and validation agree.
 */

/** |x|'s shortest round-trip form: integer digits without leading zeros ("0" for zero), fraction
 *  digits without trailing zeros (String(1e-7) is "1e-7": int "0", frac "0000001"). */
export function decimalDigits(x: number): { readonly int: string; readonly frac: string } {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(x)));
  if (m === null) throw new RangeError(`not a finite number: ${x}`);
  const digits = m[1] + (m[2] ?? "");
  const point = m[1]!.length + Number(m[3] ?? 0);
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : digits.padEnd(point, "0");
  const at = Math.max(point, 1);
  return { int: padded.slice(0, at).replace(/^0+(?=\d)/, ""), frac: padded.slice(at).replace(/0+$/, "") };
}

/** A finite number as an exact decimal: value = (negative ? -1 : 1) * digits / 10^scale. */
export interface ExactDecimal {
  readonly negative: boolean;
  readonly digits: bigint;
  readonly scale: number;
}

export function exactDecimal(x: number): ExactDecimal {
  const { int, frac } = decimalDigits(x);
  return { negative: x < 0, digits: BigInt(int + frac), scale: frac.length };
}

/**
 * Whether x is an integer multiple of m (> 0), decided on their decimals (0.07 is a multiple of
 * 0.01, though 0.07 / 0.01 is 7.000000000000001 in floating point): x = X / 10^a and
 * m = M / 10^b, so x / m = X * 10^b / (M * 10^a).
 */
export function isDecimalMultiple(x: number, m: number): boolean {
  const value = exactDecimal(x);
  const divisor = exactDecimal(m);
  return (value.digits * 10n ** BigInt(divisor.scale)) % (divisor.digits * 10n ** BigInt(value.scale)) === 0n;
}
