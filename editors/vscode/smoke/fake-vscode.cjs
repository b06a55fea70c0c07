// A stand-in for the `vscode` module, enough for out/extension.js and vscode-languageclient to
// run in plain node against the real server (VS Code itself cannot be downloaded here). The parts
// the smoke test looks at are real (Uri from vscode-uri, events, documents, configuration,
// commands, the content provider, applyEdit); everything else is a recording no-op.
"use strict";

const { URI } = require("vscode-uri");
const pkg = require("../package.json");

/** Anything: callable, constructible, every property another such thing. */
function anything(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === Symbol.toPrimitive) {return () => 0;}
      if (prop === "then") {return undefined;} // not a promise
      if (prop === "dispose") {return () => {};}
      return anything(`${name}.${String(prop)}`);
    },
    apply() {
      return anything(`${name}()`);
    },
    construct() {
      return anything(`new ${name}`);
    },
  });
}

class FakeDisposable {
  constructor(f) {
    this.f = f;
  }
  static from(...ds) {
    return new FakeDisposable(() => ds.forEach((d) => d && d.dispose && d.dispose()));
  }
  dispose() {
    if (this.f) {this.f();}
    this.f = undefined;
  }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg, disposables) => {
      const l = thisArg ? listener.bind(thisArg) : listener;
      this.listeners.add(l);
      const d = new FakeDisposable(() => this.listeners.delete(l));
      if (Array.isArray(disposables)) {disposables.push(d);}
      return d;
    };
  }
  fire(e) {
    [...this.listeners].forEach((l) => l(e));
  }
  dispose() {
    this.listeners.clear();
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
}
class Range {
  constructor(a, b, c, d) {
    [this.start, this.end] = typeof a === "number" ? [new Position(a, b), new Position(c, d)] : [a, b];
  }
}
class Selection extends Range {
  constructor(anchor, active) {
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
}
class Diagnostic {
  constructor(range, message, severity) {
    Object.assign(this, { range, message, severity });
  }
}
class TextEdit {
  constructor(range, newText) {
    Object.assign(this, { range, newText });
  }
}
class WorkspaceEdit {
  constructor() {
    this.edits = [];
  }
  replace(uri, range, newText) {
    this.edits.push({ uri: uri.toString(), range, newText });
  }
  insert(uri, position, newText) {
    this.edits.push({ uri: uri.toString(), range: new Range(position, position), newText });
  }
  delete(uri, range) {
    this.edits.push({ uri: uri.toString(), range, newText: "" });
  }
  set(uri, edits) {
    for (const e of edits) {this.edits.push({ uri: uri.toString(), range: e.range, newText: e.newText });}
  }
  size() {
    return this.edits.length;
  }
}
class ThemeColor {
  constructor(id) {
    this.id = id;
  }
}
class MarkdownString {
  constructor(value = "") {
    this.value = value;
  }
  appendMarkdown(v) {
    this.value += v;
    return this;
  }
  appendText(v) {
    this.value += v;
    return this;
  }
  appendCodeblock(v) {
    this.value += v;
    return this;
  }
}
class CancellationTokenSource {
  constructor() {
    this.token = { isCancellationRequested: false, onCancellationRequested: () => new FakeDisposable() };
  }
  cancel() {}
  dispose() {}
}

/** A text document over a string. */
function textDocument(uri, languageId, text) {
  const lines = text.split("\n");
  const doc = {
    uri,
    fileName: uri.fsPath,
    languageId,
    version: 1,
    isClosed: false,
    isDirty: false,
    isUntitled: uri.scheme === "untitled",
    eol: 1,
    lineCount: lines.length,
    getText: () => text,
    lineAt: (l) => ({ text: lines[typeof l === "number" ? l : l.line] }),
    offsetAt: (p) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character,
    positionAt: (o) => {
      let line = 0;
      while (line < lines.length - 1 && o > lines[line].length) {
        o -= lines[line].length + 1;
        line++;
      }
      return new Position(line, o);
    },
    save: async () => true,
  };
  return doc;
}

/** What the smoke test watches. */
const recorded = {
  output: [],
  messages: [],
  statusMessages: [],
  diagnostics: new Map(),
  appliedEdits: [],
  shownDocuments: [],
  commands: new Map(),
  contentProviders: new Map(),
  statusItem: undefined,
};

const settings = new Map(
  Object.entries(pkg.contributes.configuration.properties).map(([k, v]) => [k, v.default]),
);

const events = {
  config: new EventEmitter(),
  open: new EventEmitter(),
  close: new EventEmitter(),
  change: new EventEmitter(),
  save: new EventEmitter(),
  trust: new EventEmitter(),
};

function outputChannel(name) {
  return {
    name,
    append: (s) => recorded.output.push(s),
    appendLine: (s) => recorded.output.push(`${s}\n`),
    replace: () => {},
    clear: () => {},
    show: () => {},
    hide: () => {},
    dispose: () => {},
  };
}

const workspace = {
  textDocuments: [],
  workspaceFolders: undefined,
  isTrusted: true,
  getConfiguration(section) {
    const prefix = section ? `${section}.` : "";
    return {
      get: (key, dflt) => {
        const v = settings.get(prefix + key);
        if (v !== undefined) {return v;}
        // A whole section: its keys as an object (`get("checks")`, `getConfiguration()` for a section).
        const obj = {};
        for (const [k, val] of settings) {
          if (k.startsWith(`${prefix}${key}.`)) {obj[k.slice(prefix.length + key.length + 1)] = val;}
        }
        return Object.keys(obj).length > 0 ? obj : dflt;
      },
      has: (key) => settings.has(prefix + key),
      inspect: () => undefined,
      update: async () => {},
    };
  },
  onDidChangeConfiguration: events.config.event,
  onDidOpenTextDocument: events.open.event,
  onDidCloseTextDocument: events.close.event,
  onDidChangeTextDocument: events.change.event,
  onDidSaveTextDocument: events.save.event,
  onWillSaveTextDocument: new EventEmitter().event,
  onDidChangeWorkspaceFolders: new EventEmitter().event,
  onDidGrantWorkspaceTrust: events.trust.event,
  createFileSystemWatcher: () => ({
    onDidCreate: new EventEmitter().event,
    onDidChange: new EventEmitter().event,
    onDidDelete: new EventEmitter().event,
    dispose() {},
  }),
  registerTextDocumentContentProvider(scheme, provider) {
    recorded.contentProviders.set(scheme, provider);
    return new FakeDisposable(() => recorded.contentProviders.delete(scheme));
  },
  async openTextDocument(uri) {
    const existing = workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (existing) {return existing;}
    const provider = recorded.contentProviders.get(uri.scheme);
    if (!provider) {throw new Error(`no provider for ${uri.scheme}`);}
    const text = await provider.provideTextDocumentContent(uri, new CancellationTokenSource().token);
    const doc = textDocument(uri, "plaintext", text);
    workspace.textDocuments.push(doc);
    return doc;
  },
  async applyEdit(edit) {
    recorded.appliedEdits.push(edit);
    return true;
  },
};

function message(kind) {
  return async (text, ...items) => {
    recorded.messages.push({ kind, text, items: items.filter((i) => typeof i === "string") });
    return undefined;
  };
}

const window = {
  activeTextEditor: undefined,
  visibleTextEditors: [],
  tabGroups: { all: [], onDidChangeTabs: new EventEmitter().event },
  onDidChangeActiveTextEditor: new EventEmitter().event,
  onDidChangeVisibleTextEditors: new EventEmitter().event,
  createOutputChannel: outputChannel,
  createStatusBarItem() {
    let text = "";
    recorded.statusTexts = [];
    recorded.statusItem = {
      get text() {
        return text;
      },
      set text(t) {
        if (t !== text) {recorded.statusTexts.push(t);}
        text = t;
      },
      tooltip: "",
      show() {},
      hide() {},
      dispose() {},
    };
    return recorded.statusItem;
  },
  showInformationMessage: message("info"),
  showWarningMessage: message("warning"),
  showErrorMessage: message("error"),
  setStatusBarMessage(text) {
    recorded.statusMessages.push(text);
    return new FakeDisposable();
  },
  withProgress: (_options, task) => task({ report() {} }, new CancellationTokenSource().token),
  async showTextDocument(doc) {
    recorded.shownDocuments.push(doc);
    return { document: doc };
  },
};

const languages = new Proxy(
  {
    match(selector, doc) {
      const list = Array.isArray(selector) ? selector : [selector];
      return list.some(
        (s) =>
          (typeof s === "string" ? s === doc.languageId : (!s.language || s.language === doc.languageId) &&
            (!s.scheme || s.scheme === doc.uri.scheme)),
      )
        ? 10
        : 0;
    },
    createDiagnosticCollection(name) {
      return {
        name,
        set(uri, diags) {
          if (Array.isArray(uri)) {
            for (const [u, d] of uri) {recorded.diagnostics.set(u.toString(), d ?? []);}
          } else {
            recorded.diagnostics.set(uri.toString(), diags ?? []);
          }
        },
        delete(uri) {
          recorded.diagnostics.delete(uri.toString());
        },
        clear() {
          recorded.diagnostics.clear();
        },
        forEach() {},
        get: (uri) => recorded.diagnostics.get(uri.toString()),
        has: (uri) => recorded.diagnostics.has(uri.toString()),
        dispose() {},
      };
    },
  },
  {
    get(t, prop) {
      if (prop in t) {return t[prop];}
      // register*Provider and the like.
      return () => new FakeDisposable();
    },
  },
);

const commands = {
  registerCommand(id, handler) {
    if (recorded.commands.has(id)) {throw new Error(`command '${id}' already exists`);}
    recorded.commands.set(id, handler);
    return new FakeDisposable(() => recorded.commands.delete(id));
  },
  async executeCommand(id, ...args) {
    const h = recorded.commands.get(id);
    if (!h) {throw new Error(`command '${id}' not found`);}
    return h(...args);
  },
  getCommands: async () => [...recorded.commands.keys()],
};

const real = {
  Uri: URI,
  Disposable: FakeDisposable,
  EventEmitter,
  Position,
  Range,
  Selection,
  Diagnostic,
  TextEdit,
  WorkspaceEdit,
  ThemeColor,
  MarkdownString,
  CancellationTokenSource,
  workspace,
  window,
  languages,
  commands,
  env: { appName: "fake", language: "en", openExternal: async () => true },
  version: "1.82.0",
  StatusBarAlignment: { Left: 1, Right: 2 },
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  EndOfLine: { LF: 1, CRLF: 2 },
};

module.exports = new Proxy(real, {
  get(t, prop) {
    if (prop in t) {return t[prop];}
    if (prop === "__esModule") {return false;}
    return anything(`vscode.${String(prop)}`);
  },
});
module.exports.__recorded = recorded;
module.exports.__settings = settings;
module.exports.__events = events;
module.exports.__textDocument = textDocument;
