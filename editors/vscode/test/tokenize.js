// Tokenizes rules files with the extension's TextMate grammar, as VS Code
// does (vscode-textmate with the Oniguruma regular expressions), and
// checks that comments, variables, numbers, keywords, kinds and strings
// get their scopes. Usage: node test/tokenize.js [FILE.rcy...]
// (default: the shipped tic-tac-toe). Exits 1 on a failure.
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const grammarPath = path.join(__dirname, "..", "syntaxes", "rcy.tmLanguage.json");
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) =>
    scope === "source.rcy"
      ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath)
      : null,
});

async function main() {
  const grammar = await registry.loadGrammar("source.rcy");
  const files = process.argv.slice(2);
  if (files.length === 0) files.push(path.join(__dirname, "..", "..", "..", "examples", "tictactoe.rcy"));
  let failed = false;
  for (const file of files) {
    const seen = new Map(); // scope -> first token text
    let ruleStack = vsctm.INITIAL;
    let tokens = 0;
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const r = grammar.tokenizeLine(line, ruleStack);
      for (const t of r.tokens) {
        const scope = t.scopes[t.scopes.length - 1];
        if (!seen.has(scope)) seen.set(scope, line.slice(t.startIndex, t.endIndex));
        tokens += 1;
      }
      ruleStack = r.ruleStack;
    }
    const want = [
      "comment.line.semicolon.rcy",
      "variable.other.rcy",
      "constant.numeric.integer.rcy",
      "keyword.control.rcy",
      "keyword.other.rcy",
      "storage.type.rcy",
      "string.unquoted.rcy",
    ];
    const missing = want.filter((s) => !seen.has(s));
    console.log(`${path.basename(file)}: ${tokens} tokens`);
    for (const [scope, text] of seen) console.log(`  ${scope}: first ${JSON.stringify(text.slice(0, 30))}`);
    if (missing.length > 0) {
      console.log(`  MISSING: ${missing.join(", ")}`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
