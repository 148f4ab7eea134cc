/** Number texts as exact decimals, for tests that compare the grammar with decimal arithmetic. */

/** A decimal as digits/10^scale: "-2.5e-3" is { negative: true, digits: 25n, scale: 4 }; `unit`
 *  is one in its last written digit ("1.5e+21": 10n ** 20n). */
export interface Scaled {
  readonly negative: boolean;
  readonly digits: bigint;
  readonly scale: number;
  readonly unit: bigint;
}

export function scaled(text: string): Scaled {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(text);
  if (m === null) throw new Error(`not a number: ${text}`);
  const frac = m[3] ?? "";
  const scale = frac.length - Number(m[4] ?? 0);
  const digits = BigInt(m[2] + frac);
  const unit = scale >= 0 ? 1n : 10n ** BigInt(-scale);
  return { negative: m[1] === "-", digits: digits * unit, scale: Math.max(scale, 0), unit };
}
