// The VS Code side: starts `omplens lsp` through vscode-languageclient, keeps its settings in
// sync, and adds the commands, the plan documents and the status bar item. The decisions live in
// the modules next to this one (no `vscode` import there, so they are unit tested in plain node).

import * as os from "node:os";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  ResponseError,
  RevealOutputChannelOn,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import {
  errorMessage,
  insertFileRequest,
  insertFunctionRequest,
  interpretInsertResult,
  isAnalysable,
  planText,
  planToOpenInstead,
  showPlanRequest,
  type CommandRequest,
} from "./commands";
import { isExecutableFile, resolveExecutable } from "./executable";
import { COMMANDS, LANGUAGES, PLAN_SCHEME, SECTION } from "./ids";
import { planUriFor, sourceOfPlan } from "./planUri";
import {
  classifyChange,
  configurationAnswer,
  readRaw,
  toServerSettings,
  type ExpandContext,
  type ServerSettings,
} from "./settings";
import { stateFromClient, statusView, type ServerState } from "./status";

let extension: Extension | undefined;

export function activate(context: vscode.ExtensionContext): void {
  extension = new Extension(context);
}

export async function deactivate(): Promise<void> {
  await extension?.stopServer();
  extension = undefined;
}

class Extension {
  private client: LanguageClient | undefined;
  private executable: string | undefined;
  private readonly output: vscode.OutputChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly plans: PlanProvider;
  /** Starts and stops run one after another. */
  private queue: Promise<void> = Promise.resolve();
  /** The settings problems last reported, so that each is shown once. */
  private shownProblems = "";

  constructor(context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel("omplens");
    this.status = vscode.window.createStatusBarItem("omplens.status", vscode.StatusBarAlignment.Right, 0);
    this.status.name = "omplens server";
    this.status.command = COMMANDS.showOutput;
    this.status.show();
    this.plans = new PlanProvider(this);

    context.subscriptions.push(
      this.output,
      this.status,
      this.plans,
      vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, this.plans),
      vscode.commands.registerCommand(COMMANDS.insertFunction, () => this.insert("function")),
      vscode.commands.registerCommand(COMMANDS.insertFile, () => this.insert("file")),
      vscode.commands.registerCommand(COMMANDS.showPlan, () => this.showPlanOfActiveEditor()),
      vscode.commands.registerCommand(COMMANDS.restart, () => this.restart()),
      vscode.commands.registerCommand(COMMANDS.showOutput, () => this.output.show(true)),
      vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)),
      // Trust makes the workspace's omplens.path count.
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.restart()),
    );
    void this.enqueue(() => this.start());
  }

  /** The client when the server is running. */
  running(): LanguageClient | undefined {
    return this.client?.isRunning() ? this.client : undefined;
  }

  debounceMs(): number {
    return this.serverSettings().debounceMs;
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task).catch((e: unknown) => {
      this.log(`internal error: ${errorMessage(e)}`);
    });
    return this.queue;
  }

  private log(line: string): void {
    this.output.appendLine(`[omplens] ${line}`);
  }

  private setState(state: ServerState, message?: string): void {
    const version = state === "running" ? this.client?.initializeResult?.serverInfo?.version : undefined;
    const view = statusView(state, { executable: this.executable, version, message });
    this.status.text = view.text;
    this.status.tooltip = view.tooltip;
    this.status.backgroundColor =
      view.background === undefined ? undefined : new vscode.ThemeColor(`statusBarItem.${view.background}Background`);
    if (state === "running") {
      this.plans.refreshAll();
    }
  }

  private expandContext(): ExpandContext {
    return {
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      home: os.homedir(),
      env: process.env,
    };
  }

  /** The server's settings now; problems with them are logged and shown once. */
  serverSettings(): ServerSettings {
    const config = vscode.workspace.getConfiguration(SECTION);
    const { settings, problems } = toServerSettings(
      readRaw((key) => config.get(key)),
      this.expandContext(),
    );
    const joined = problems.join("\n");
    if (joined !== this.shownProblems) {
      this.shownProblems = joined;
      if (problems.length > 0) {
        problems.forEach((p) => this.log(`settings: ${p}`));
        void vscode.window.showWarningMessage(`omplens settings: ${problems.join("; ")}`);
      }
    }
    return settings;
  }

  private async start(): Promise<void> {
    this.setState("starting");
    const config = vscode.workspace.getConfiguration(SECTION);
    const ctx = this.expandContext();
    const found = resolveExecutable({
      configured: config.get("path"),
      env: process.env,
      platform: process.platform,
      workspaceFolder: ctx.workspaceFolder,
      home: ctx.home,
      isExecutable: isExecutableFile,
    });
    if (!found.ok) {
      this.executable = undefined;
      this.fail(found.message, true);
      return;
    }
    this.executable = found.path;
    this.log(`starting ${found.path} lsp (found ${found.source === "setting" ? "from omplens.path" : `in ${found.source}`})`);

    const serverOptions: ServerOptions = { command: found.path, args: ["lsp"] };
    const clientOptions: LanguageClientOptions = {
      documentSelector: LANGUAGES.map((language) => ({ scheme: "file", language })),
      diagnosticCollectionName: "omplens",
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: () => this.serverSettings(),
      middleware: {
        workspace: {
          // The server pulls the `omplens` section when a change notification has no settings:
          // answer with the translated settings, not VS Code's raw ones.
          configuration: async (params, token, next) => {
            const answers: unknown[] = configurationAnswer(params.items, this.serverSettings());
            if (answers.every((a) => a !== undefined)) {
              return answers;
            }
            const theirs = await next(params, token);
            if (!Array.isArray(theirs)) {
              return theirs;
            }
            return answers.map((a, i) => a ?? (theirs as unknown[])[i]);
          },
        },
        executeCommand: async (command, args, next) => {
          const source = planToOpenInstead(command, args);
          if (source !== undefined) {
            await this.openPlan(source);
            return undefined;
          }
          return next(command, args) as unknown;
        },
      },
    };
    const client = new LanguageClient(SECTION, "omplens", serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((e) => {
      // Events of a client being replaced are not news.
      if (client === this.client) {
        this.setState(stateFromClient(e.newState, false), "the server stopped; see the output");
      }
    });
    try {
      await client.start();
      this.setState("running");
    } catch (e) {
      if (client === this.client) {
        this.client = undefined;
        this.fail(`could not start ${found.path} lsp: ${errorMessage(e)}`, false);
      }
    }
  }

  private fail(message: string, offerSettings: boolean): void {
    this.log(message);
    this.setState("error", message);
    const actions = offerSettings ? ["Open Settings", "Show Output"] : ["Show Output"];
    void vscode.window.showErrorMessage(`omplens: ${message}`, ...actions).then((choice) => {
      if (choice === "Open Settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", "omplens.path");
      } else if (choice === "Show Output") {
        this.output.show(true);
      }
    });
  }

  async stopServer(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    try {
      await client.dispose(2000);
    } catch (e) {
      this.log(`stopping the server: ${errorMessage(e)}`);
    }
    this.setState("stopped");
  }

  private restart(): Promise<void> {
    return this.enqueue(async () => {
      this.log("restarting");
      await this.stopServer();
      await this.start();
    });
  }

  private configurationChanged(e: vscode.ConfigurationChangeEvent): void {
    const action = classifyChange((section) => e.affectsConfiguration(section));
    if (action === "restart") {
      void this.restart();
    } else if (action === "notify") {
      const settings = this.serverSettings();
      const client = this.running();
      if (client !== undefined) {
        client
          .sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: settings } })
          .catch((err: unknown) => this.log(`sending settings: ${errorMessage(err)}`));
      }
      this.plans.refreshAll();
    }
  }

  /** The running client, or undefined after telling the user it is not running. */
  private clientOrComplain(): LanguageClient | undefined {
    const client = this.running();
    if (client === undefined) {
      void vscode.window.showErrorMessage("omplens: the server is not running.", "Restart", "Show Output").then((c) => {
        if (c === "Restart") {
          void this.restart();
        } else if (c === "Show Output") {
          this.output.show(true);
        }
      });
    }
    return client;
  }

  /** The active editor when it shows a file the server analyses. */
  private analysableEditor(): vscode.TextEditor | undefined {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined || !isAnalysable(editor.document.languageId, editor.document.uri.scheme)) {
      void vscode.window.showWarningMessage("omplens: open a C or C++ file (saved on disk) first.");
      return undefined;
    }
    return editor;
  }

  private async insert(scope: "function" | "file"): Promise<void> {
    const editor = this.analysableEditor();
    const client = editor && this.clientOrComplain();
    if (editor === undefined || client === undefined) {
      return;
    }
    try {
      const uri = client.code2ProtocolConverter.asUri(editor.document.uri);
      const active = editor.selection.active;
      const request =
        scope === "function"
          ? insertFunctionRequest(uri, { line: active.line, character: active.character })
          : insertFileRequest(uri);
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: "omplens: inserting data mappings" },
        () => this.execute(client, request),
      );
      const outcome = interpretInsertResult(result, scope);
      if (outcome.kind === "applied") {
        vscode.window.setStatusBarMessage("omplens: data mappings inserted", 4000);
      } else if (outcome.kind === "nothing") {
        void vscode.window.showInformationMessage(`omplens: ${outcome.message}`);
      } else {
        void vscode.window.showWarningMessage(`omplens: ${outcome.message}`);
      }
    } catch (e) {
      void vscode.window.showErrorMessage(`omplens: ${errorMessage(e)}`);
    }
  }

  execute(client: LanguageClient, request: CommandRequest, token?: vscode.CancellationToken): Promise<unknown> {
    return client.sendRequest(ExecuteCommandRequest.type, request, token);
  }

  private async showPlanOfActiveEditor(): Promise<void> {
    const editor = this.analysableEditor();
    if (editor !== undefined) {
      await this.openPlan(editor.document.uri.toString());
    }
  }

  /** Opens (or refreshes) the plan document of `source` beside the editor. */
  async openPlan(source: string): Promise<void> {
    try {
      // The same spelling of the URI for the same file, whoever asks (the server or VS Code).
      const normal = vscode.Uri.parse(source, true).toString();
      const uri = vscode.Uri.from(planUriFor(normal));
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString())) {
        this.plans.refresh(uri);
      }
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, {
        viewColumn: vscode.ViewColumn.Beside,
        preview: true,
        preserveFocus: true,
      });
    } catch (e) {
      void vscode.window.showErrorMessage(`omplens: could not open the plan: ${errorMessage(e)}`);
    }
  }
}

/** The read-only `omplens-plan:` documents, refreshed while their source is edited. */
class PlanProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly ext: Extension) {
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => this.sourceChanged(e.document));
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const source = sourceOfPlan(uri);
    if (source === undefined) {
      return "omplens: this is not a plan document.\n";
    }
    const client = this.ext.running();
    if (client === undefined) {
      return "omplens: the server is not running (omplens: Restart server; omplens: Show output).\n";
    }
    try {
      return planText(await this.ext.execute(client, showPlanRequest(source), token));
    } catch (e) {
      const why = e instanceof ResponseError || e instanceof Error ? e.message : errorMessage(e);
      return `omplens: no plan for ${source}: ${why}\n(The plan needs its source file open in an editor.)\n`;
    }
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  /** Every open plan document. */
  refreshAll(): void {
    for (const d of vscode.workspace.textDocuments) {
      if (d.uri.scheme === PLAN_SCHEME) {
        this.changed.fire(d.uri);
      }
    }
  }

  private sourceChanged(doc: vscode.TextDocument): void {
    if (!isAnalysable(doc.languageId, doc.uri.scheme)) {
      return;
    }
    const plan = vscode.Uri.from(planUriFor(doc.uri.toString()));
    const key = plan.toString();
    if (!vscode.workspace.textDocuments.some((d) => d.uri.toString() === key)) {
      return;
    }
    // After the server's own debounce, and not on every keystroke.
    clearTimeout(this.timers.get(key));
    const delay = Math.max(300, this.ext.debounceMs() + 250);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.changed.fire(plan);
      }, delay),
    );
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.timers.clear();
    this.subscription.dispose();
    this.changed.dispose();
  }
}
