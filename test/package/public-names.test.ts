/**
 * The public surface, listed: every name each package entry exports (values, then types) is
 * compared with test/package/public-names.txt, so adding, removing or moving a public name is a
 * deliberate edit of that file (`npx vitest run test/package/public-names.test.ts -u` rewrites it,
 * and the diff shows the change). The names come from the TypeScript checker on the src entry
 * modules (what dist/*.d.ts will declare) and, for values, from the modules themselves at run
 * time. Every exported name must carry a doc comment on its declaration.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const TIERS = [
  { specifier: "pocket-extract", entry: "src/index.ts" },
  { specifier: "pocket-extract/grammar", entry: "src/grammar-tier.ts" },
  { specifier: "pocket-extract/testing", entry: "src/testing/index.ts" },
] as const;

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface PublicName {
  readonly name: string;
  readonly kind: "value" | "type";
  readonly documented: boolean;
}

function publicNames(): Map<string, PublicName[]> {
  const config = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (config === undefined) throw new Error("tsconfig.json did not parse");
  const entries = TIERS.map((tier) => `${ROOT}${tier.entry}`);
  const program = ts.createProgram(entries, { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const byTier = new Map<string, PublicName[]>();
  TIERS.forEach((tier, i) => {
    const source = program.getSourceFile(entries[i]!);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${tier.entry} is not a module`);
    const names = checker.getExportsOfModule(moduleSymbol).map((exported): PublicName => {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const typeOnly = (exported.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d));
      const kind = target.flags & ts.SymbolFlags.Value && !typeOnly ? "value" : "type";
      return { name: exported.name, kind, documented: target.getDocumentationComment(checker).length > 0 };
    });
    byTier.set(tier.specifier, names.sort((a, b) => a.name.localeCompare(b.name)));
  });
  return byTier;
}

describe("public names", () => {
  const byTier = publicNames();

  it("each tier exports exactly the names in public-names.txt", async () => {
    const text = TIERS.map(({ specifier, entry }) => {
      const names = byTier.get(specifier)!;
      const list = (kind: PublicName["kind"]) => names.filter((n) => n.kind === kind).map((n) => `  ${n.name}`);
      return [`${specifier} (${entry})`, "values:", ...list("value"), "types:", ...list("type")].join("\n");
    }).join("\n\n");
    await expect(`${text}\n`).toMatchFileSnapshot("public-names.txt");
  });

  it.each(TIERS)("$specifier: the checker's values are the module's run-time exports", async ({ specifier, entry }) => {
    const runtime = Object.keys((await import(`${ROOT}${entry}`)) as object).sort();
    const values = byTier.get(specifier)!.filter((n) => n.kind === "value").map((n) => n.name).sort();
    expect(runtime).toEqual(values);
  });

  it.each(TIERS)("$specifier: every export has a doc comment", ({ specifier }) => {
    expect(byTier.get(specifier)!.filter((n) => !n.documented).map((n) => n.name)).toEqual([]);
  });
});
