#!/usr/bin/env python3
"""Talk to `cardboard lsp` from a terminal, as an editor would.

Starts the server, opens FILE and prints its diagnostics, then reads one
command a line from standard input and prints the server's answer:

    change FILE2        the open file's text becomes FILE2's (as typing
                        would make it); prints the new diagnostics
    hover LINE:COL      what the server shows on hovering there
    definition LINE:COL where go to definition jumps
    references LINE:COL every place the name there is written
    complete LINE:COL   the first completion items offered there
    symbols             the outline (document symbols)
    format              the formatted text (the file is not written)

LINE and COL count from 1, as `cardboard check` prints them. The editor's
file is FILE's path; `change` only changes the text the server sees.

    python3 editors/lsp-client.py game.rcy <<'EOF'
    hover 3:4
    format
    EOF

Set CARDBOARD to the binary to use (default: `cardboard` on the PATH).
Only the standard library is needed.
"""

import json
import os
import pathlib
import subprocess
import sys


class Server:
    def __init__(self, command):
        self.proc = subprocess.Popen(
            [command, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        self.next_id = 1

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("the server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == rid:
                if "error" in message:
                    return {"error": message["error"]}
                return message.get("result")

    def diagnostics(self):
        while True:
            message = self.receive()
            if message.get("method") == "textDocument/publishDiagnostics":
                return message["params"]["diagnostics"]


def where(range_):
    start, end = range_["start"], range_["end"]
    return "%d:%d-%d:%d" % (
        start["line"] + 1,
        start["character"] + 1,
        end["line"] + 1,
        end["character"] + 1,
    )


def show_diagnostics(diagnostics):
    if not diagnostics:
        print("diagnostics: none")
    for d in diagnostics:
        severity = {1: "error", 2: "warning"}.get(d.get("severity"), "info")
        print("diagnostic %s %s: %s" % (severity, where(d["range"]), d["message"]))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = pathlib.Path(sys.argv[1]).resolve()
    uri = path.as_uri()
    doc = {"uri": uri}
    server = Server(os.environ.get("CARDBOARD", "cardboard"))
    server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    server.notify("initialized", {})
    print("> open %s" % path.name)
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {**doc, "languageId": "rcy", "version": 1, "text": path.read_text()}},
    )
    show_diagnostics(server.diagnostics())
    version = 1
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        print("> " + " ".join(words))
        command, arg = words[0], (words[1] if len(words) > 1 else "")
        at = None
        if ":" in arg:
            l, c = arg.split(":")
            at = {"textDocument": doc, "position": {"line": int(l) - 1, "character": int(c) - 1}}
        if command == "change":
            version += 1
            text = pathlib.Path(arg).read_text()
            server.notify(
                "textDocument/didChange",
                {"textDocument": {**doc, "version": version}, "contentChanges": [{"text": text}]},
            )
            show_diagnostics(server.diagnostics())
        elif command == "hover" and at:
            result = server.request("textDocument/hover", at)
            print(result["contents"]["value"] if result else "(nothing)")
        elif command == "definition" and at:
            result = server.request("textDocument/definition", at)
            print("defined at %s" % where(result["range"]) if result else "(nothing)")
        elif command == "references" and at:
            result = server.request(
                "textDocument/references", {**at, "context": {"includeDeclaration": True}}
            )
            print(" ".join(where(r["range"]) for r in result or []) or "(nothing)")
        elif command == "complete" and at:
            result = server.request("textDocument/completion", at) or []
            result.sort(key=lambda i: i.get("sortText", i["label"]))
            print(", ".join(i["label"] for i in result[:12]) + (" ..." if len(result) > 12 else ""))
        elif command == "symbols":
            def show(symbols, depth):
                for s in symbols or []:
                    detail = "  [%s]" % s["detail"] if s.get("detail") else ""
                    print("%s%s%s at %s" % ("  " * depth, s["name"], detail, where(s["selectionRange"])))
                    show(s.get("children"), depth + 1)
            show(server.request("textDocument/documentSymbol", {"textDocument": doc}), 0)
        elif command == "format":
            edits = server.request(
                "textDocument/formatting",
                {"textDocument": doc, "options": {"tabSize": 2, "insertSpaces": True}},
            )
            if not edits:
                print("(already formatted, or it does not read)")
            for e in edits or []:
                print(e["newText"], end="")
        else:
            print("unknown command (see the top of this script)")
    server.request("shutdown", None)
    server.notify("exit", None)
    server.proc.wait(timeout=10)


if __name__ == "__main__":
    main()
