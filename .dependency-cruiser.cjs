/**
 * The architecture, checked: src/ is a pipeline of folders in layers (lowest first). A folder may
 * import only from its own layer's lower neighbours, never up the pipeline; across folders only
 * through the folder's front (index.ts); and nothing may form a cycle. `npm run lint` runs this.
 */
const LAYERS = [
  ["util", "errors.ts", "version.ts"],
  ["grammar", "tokens"],
  ["regex", "schema"],
  ["schema-compiler", "automaton"],
  ["mask"],
  ["engines"],
  ["decode", "validate", "ground"],
  ["prompt"],
  ["extract"],
  ["pool", "report", "records"],
  ["serve", "queue", "testing"],
  ["cli"],
];

/**
 * The package's entry points (pocket-extract and pocket-extract/grammar; pocket-extract/testing is
 * src/testing/index.ts): they sit above every layer, and nothing in src/ imports them.
 */
const ENTRIES = ["index.ts", "grammar-tier.ts"];

const layerOf = new Map(LAYERS.flatMap((names, layer) => names.map((name) => [name, layer])));
const pathOf = (name) => (name.endsWith(".ts") ? `^src/${name.replace(".", "\\.")}$` : `^src/${name}/`);

/** For each folder, the folders above it: importing them points up the pipeline. */
const upwardRules = [...layerOf]
  .map(([name, layer]) => ({
    name,
    layer,
    above: [...layerOf].filter(([, other]) => other > layer).map(([other]) => pathOf(other)),
  }))
  .filter(({ above }) => above.length > 0)
  .map(({ name, layer, above }) => ({
    name: `no-upward-from-${name}`,
    comment: `src/${name} (layer ${layer}) may not import a later stage of the pipeline`,
    severity: "error",
    from: { path: pathOf(name) },
    to: { path: above },
  }));

/**
 * Sub-folders that have fronts of their own: the automaton's layers, and the pure-TS test engines
 * (pocket-extract/testing imports them without the model loaders behind src/engines/index.ts).
 * From outside a sub-folder, its index.ts is the only way in; another folder may use it directly.
 */
const SUBFOLDERS = ["automaton/fsa", "automaton/strings", "automaton/rules", "engines/testing"];
const subFronts = SUBFOLDERS.map((sub) => `^src/${sub}/index\\.ts$`);

/**
 * Inside src/automaton, its layers (lowest first): generic NFA/DFA building blocks, JSON string
 * automata, per-rule automata and analysis, then the grammar automaton in the folder's own files.
 * A layer imports only the layers below it.
 */
const AUTOMATON_LAYERS = ["automaton/fsa", "automaton/strings", "automaton/rules"];
const automatonTop = "^src/automaton/[^/]+\\.ts$";
const automatonRules = AUTOMATON_LAYERS.map((sub, layer) => ({
  name: `no-upward-from-${sub.replace("/", "-")}`,
  comment: `src/${sub} (automaton layer ${layer}) may not import a later automaton layer or the grammar automaton`,
  severity: "error",
  from: { path: `^src/${sub}/` },
  to: { path: AUTOMATON_LAYERS.slice(layer + 1).map((above) => `^src/${above}/`).concat([automatonTop]) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "modules may not form a dependency cycle (type-only imports included)",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "folder-front",
      comment: "another folder is imported only through its index.ts",
      severity: "error",
      from: { path: "^src/([^/]+)/" },
      to: { path: "^src/[^/]+/", pathNot: ["^src/$1/", "^src/[^/]+/index\\.ts$", ...subFronts] },
    },
    {
      name: "root-file-through-front",
      comment: "src/index.ts and the other root files import folders only through their index.ts",
      severity: "error",
      from: { path: "^src/[^/]+\\.ts$" },
      to: { path: "^src/[^/]+/", pathNot: "^src/[^/]+/index\\.ts$" },
    },
    ...SUBFOLDERS.map((sub) => ({
      name: `front-of-${sub.replace("/", "-")}`,
      comment: `src/${sub} is imported from outside it only through its index.ts`,
      severity: "error",
      from: { pathNot: `^src/${sub}/` },
      to: { path: `^src/${sub}/`, pathNot: `^src/${sub}/index\\.ts$` },
    })),
    {
      name: "entries-on-top",
      comment: "the package entry points re-export the layers; no module of src/ imports them",
      severity: "error",
      from: { path: "^src/" },
      to: { path: ENTRIES.map(pathOf) },
    },
    {
      name: "unknown-folder",
      comment: "every folder of src/ has a place in LAYERS (add a new folder there on purpose)",
      severity: "error",
      from: {},
      to: { path: "^src/", pathNot: [...layerOf.keys()].map(pathOf).concat(ENTRIES.map(pathOf)) },
    },
    ...upwardRules,
    ...automatonRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
