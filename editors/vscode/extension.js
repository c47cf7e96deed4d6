// The cardboard extension: starts `cardboard lsp` (the language server of
// rules files) for every .rcy file; highlighting comes from the TextMate
// grammar in syntaxes/ and needs no server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("cardboard").get("path") || "cardboard";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "cardboard",
    "cardboard",
    { run: server, debug: server },
    { documentSelector: [{ language: "rcy" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
