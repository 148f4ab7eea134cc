// Code rules for src/ (and the scripts around it). Folder fronts, layers and cycles are checked by
// dependency-cruiser (.dependency-cruiser.cjs); this file keeps to what a file says on its own.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * `no-unused-expressions`, except for a statement that is a comma sequence of side effects, e.g.
 * `if (t >= 0) ((dist[s] = d), queue.push(s));`: the hot loops in src/automaton and src/regex use
 * that form on purpose to keep a guarded step on one line. A sequence with an element that does
 * nothing (a bare name, a comparison) is still reported.
 */
const baseUnusedExpressions = tseslint.plugin.rules["no-unused-expressions"];
const SIDE_EFFECTS = new Set(["AssignmentExpression", "CallExpression", "UpdateExpression", "AwaitExpression"]);
const isSideEffectSequence = (node) =>
  node.type === "SequenceExpression" && node.expressions.every((e) => SIDE_EFFECTS.has(e.type) || isSideEffectSequence(e));
const unusedExpressions = {
  meta: baseUnusedExpressions.meta,
  defaultOptions: baseUnusedExpressions.defaultOptions,
  create(context) {
    const filtered = Object.create(context, {
      report: { value: (descriptor) => isSideEffectSequence(descriptor.node.expression) || context.report(descriptor) },
    });
    return baseUnusedExpressions.create(filtered);
  },
};

/** The Node globals the plain scripts use (the package has no `globals` dependency for five names). */
const NODE_GLOBALS = { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly", TextEncoder: "readonly" };

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "prebuilds/**", "native/llama-include/**", "fixtures/**/*.json"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      // `({ dropped, ...rest }) => rest` is how the code omits fields from a copy.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // `let [s, e] = ...` where only `e` is reassigned stays one declaration.
      "prefer-const": ["error", { destructuring: "all" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "@typescript-eslint/no-unused-expressions": "off",
      "local/no-unused-expressions": "error",
    },
    plugins: { local: { rules: { "no-unused-expressions": unusedExpressions } } },
  },
  {
    // The packed-package consumers are plain Node scripts as a user writes them (require() in CJS).
    files: ["test/package/consumer/**"],
    languageOptions: { globals: NODE_GLOBALS },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  { files: ["**/*.cjs", "**/*.cts"], languageOptions: { sourceType: "commonjs" } },
  { files: ["**/*.mjs", "**/*.cjs"], languageOptions: { globals: NODE_GLOBALS } },
);
