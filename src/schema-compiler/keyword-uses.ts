/**
 * The report entry of a keyword the compiler enforces in some uses and not others (`multipleOf`,
 * `uniqueItems`; the keyword table's default for them is "enforced"). The same occurrence can be
 * compiled several times (under different bounds, in several anyOf branches) and allOf merging
 * can leave a second value to the check after decoding: one inexact use is enough for the
 * occurrence to need that check, so a later exact use does not upgrade it.
 */

import type { CompileContext } from "./context.js";

export function reportUse(ctx: CompileContext, pointer: string, keyword: string, exact: boolean, note: string): void {
  if (!exact) ctx.report.set(pointer, keyword, "validatedAfter", note);
  else if (ctx.report.classOf(pointer, keyword) !== "validatedAfter") ctx.report.set(pointer, keyword, "enforced", note);
}
