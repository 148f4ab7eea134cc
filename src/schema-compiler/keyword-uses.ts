/**
 * The report entry of a keyword the compiler enforces in some uses and not others (`multipleOf`,
 * `uniqueItems`): the same occurrence can be compiled several times (under different bounds,
 * in several anyOf branches), and one inexact use is enough for it to need the check after
 * decoding, so a later exact use does not upgrade it.
 */

import type { CompileContext } from "./context.js";

const inexactUses = new WeakMap<CompileContext, Set<string>>();

export function reportUse(ctx: CompileContext, pointer: string, keyword: string, exact: boolean, note: string): void {
  const inexact = inexactUses.get(ctx) ?? new Set<string>();
  inexactUses.set(ctx, inexact);
  const key = `${pointer}\u0000${keyword}`;
  if (!exact) {
    inexact.add(key);
    ctx.report.set(pointer, keyword, "validatedAfter", note);
  } else if (!inexact.has(key)) {
    ctx.report.set(pointer, keyword, "enforced", note);
  }
}
