/**
 * A stand-in for the `vscode` module, for driving the client's broker commands in plain Node:
 * every prompt, notification, secret-storage call and output-channel line is recorded in order,
 * and each prompt is answered by the test. Only what those commands touch is here.
 *
 * Install it before the first import of a client module (`installFakeVscode()`, then a dynamic
 * `import()`): Node's resolver is told that `vscode` is this object.
 */
import Module from 'node:module';

/** One recorded call, in the order it happened. */
export interface UiEvent {
  readonly kind: 'warning' | 'error' | 'info' | 'input' | 'input.refused' | 'quickPick' | 'secret.get' | 'secret.store' | 'secret.delete' | 'log.info' | 'log.error' | 'log.warn';
  readonly text: string;
  /** A modal message's detail, when it has one. */
  readonly detail?: string;
}

export interface FakeVscode {
  readonly events: UiEvent[];
  /** The answer to a prompt (warning/info with items, input box, quick pick); undefined dismisses it. */
  answer: (event: UiEvent, items: readonly unknown[]) => unknown;
  settings: Record<string, unknown>;
  trusted: boolean;
  activeTextEditor: unknown;
  /** The URIs the open tabs show (text editors). */
  tabs: string[];
  /** The envelopes (URIs) whose byte preview is in a visible editor. */
  previews: string[];
  /** What withProgress's task does instead of running, when set: a failure outside the broker. */
  progressFails?: Error;
  /** The titles of the progress notifications shown, in order. */
  readonly progressTitles: string[];
  readonly commands: Map<string, (...args: unknown[]) => unknown>;
  /** The ids of the commands run with vscode.commands.executeCommand, in order (VS Code's own, such as workbench.trust.manage). */
  readonly executed: string[];
  readonly secrets: Map<string, string>;
  /** Services for the commands: a context whose secrets and an output channel that record. */
  services(): { context: any; output: any };
  /** Trusts the workspace, as VS Code's Workspace Trust editor does: onDidGrantWorkspaceTrust's listeners hear it. */
  grantTrust(): void;
  reset(): void;
}

const FAKE_ID = 'vscode (fake, test/support/fake-vscode.ts)';
let installed: FakeVscode | undefined;

export function installFakeVscode(): FakeVscode {
  if (installed) return installed;
  const fake: FakeVscode = {
    events: [],
    answer: () => undefined,
    settings: {},
    trusted: true,
    activeTextEditor: undefined,
    tabs: [],
    previews: [],
    commands: new Map(),
    executed: [],
    progressTitles: [],
    secrets: new Map(),
    services() {
      const record = (kind: UiEvent['kind']) => (text: string) => void fake.events.push({ kind, text });
      return {
        context: {
          subscriptions: [],
          secrets: {
            get: async (key: string) => (record('secret.get')(key), fake.secrets.get(key)),
            store: async (key: string, value: string) => (record('secret.store')(key), void fake.secrets.set(key, value)),
            delete: async (key: string) => (record('secret.delete')(key), void fake.secrets.delete(key)),
          },
        },
        output: { info: record('log.info'), error: record('log.error'), warn: record('log.warn'), appendLine: record('log.info') },
      };
    },
    grantTrust() {
      fake.trusted = true;
      trustGranted.fire();
    },
    reset() {
      fake.events.length = 0;
      fake.executed.length = 0;
      fake.progressTitles.length = 0;
      fake.answer = () => undefined;
      fake.settings = {};
      fake.trusted = true;
      fake.activeTextEditor = undefined;
      fake.tabs = [];
      fake.previews = [];
      delete fake.progressFails;
      fake.secrets.clear();
    },
  };
  const ask = (kind: UiEvent['kind'], text: string, items: readonly unknown[], detail?: string) => {
    const event = detail === undefined ? { kind, text } : { kind, text, detail };
    fake.events.push(event);
    return Promise.resolve(fake.answer(event, items));
  };
  const message = (kind: 'warning' | 'error' | 'info') => (text: string, ...rest: unknown[]) => {
    const items = rest.filter((item) => typeof item === 'string');
    const options = rest.find((item): item is { detail?: unknown } => typeof item === 'object' && item !== null);
    return ask(kind, text, items, typeof options?.detail === 'string' ? options.detail : undefined);
  };
  class TabInputText {
    constructor(readonly uri: { toString(): string }) {}
  }
  class TabInputTextDiff {
    constructor(readonly original: { toString(): string }, readonly modified: { toString(): string }) {}
  }
  /** Its listeners hear what it fires. */
  class EventEmitter {
    private readonly heard = new Set<(value: unknown) => void>();
    readonly event = (listener: (value: unknown) => void) => (this.heard.add(listener), { dispose: () => void this.heard.delete(listener) });
    fire(value?: unknown): void {
      for (const listener of [...this.heard]) listener(value);
    }
    dispose(): void {
      this.heard.clear();
    }
  }
  const trustGranted = new EventEmitter();
  class Range {
    constructor(readonly startLine: number, readonly startCharacter: number, readonly endLine: number, readonly endCharacter: number) {}
  }
  class CodeLens {
    constructor(readonly range: Range, readonly command?: { title: string; command: string; arguments?: unknown[] }) {}
  }
  const vscode = {
    TabInputText,
    TabInputTextDiff,
    EventEmitter,
    Range,
    CodeLens,
    workspace: {
      get isTrusted() {
        return fake.trusted;
      },
      textDocuments: [],
      asRelativePath: (path: string) => path,
      getConfiguration: () => ({ get: (key: string) => fake.settings[key] }),
      onDidCloseTextDocument: () => ({ dispose() {} }),
      onDidChangeConfiguration: () => ({ dispose() {} }),
      onDidGrantWorkspaceTrust: trustGranted.event,
    },
    window: {
      tabGroups: {
        get all() {
          return [{ tabs: fake.tabs.map((uri) => ({ input: new TabInputText({ toString: () => uri }) })) }];
        },
      },
      get activeTextEditor() {
        return fake.activeTextEditor;
      },
      get visibleTextEditors() {
        return fake.previews.map((source) => ({ document: { uri: { scheme: 'babelqueue-preview', query: source, toString: () => `babelqueue-preview:preview?${source}` } } }));
      },
      showWarningMessage: message('warning'),
      showErrorMessage: message('error'),
      showInformationMessage: message('info'),
      // An answer the box's validateInput refuses is recorded with its message ('input.refused'), and
      // the box then cancelled, as a user who reads the message and presses Escape.
      showInputBox: async (options: { title?: string; prompt?: string; validateInput?: (value: string) => unknown }) => {
        const answer = await ask('input', options.title ?? options.prompt ?? '', []);
        const refused = typeof answer === 'string' ? await options.validateInput?.(answer) : undefined;
        if (!refused) return answer;
        fake.events.push({ kind: 'input.refused', text: typeof refused === 'string' ? refused : String((refused as { message?: unknown }).message) });
        return undefined;
      },
      showQuickPick: (items: readonly unknown[], options: { title?: string } = {}) => ask('quickPick', options.title ?? '', items),
      // Shown as a quick pick event with its items: an answer is accepted as the one item chosen, none hides it.
      // An answer { typed: text } is text typed into the filter, then Enter with no item checked or
      // moved to (as VS Code leaves a pick that checks several: no active item after typing).
      createQuickPick: () => {
        const accepted: (() => void)[] = [];
        const hidden: (() => void)[] = [];
        const picker = {
          title: '',
          placeholder: '',
          value: '',
          items: [] as unknown[],
          selectedItems: [] as unknown[],
          activeItems: [] as unknown[],
          canSelectMany: false,
          matchOnDescription: false,
          matchOnDetail: false,
          onDidAccept: (listener: () => void) => (accepted.push(listener), { dispose() {} }),
          onDidHide: (listener: () => void) => (hidden.push(listener), { dispose() {} }),
          show: () =>
            void ask('quickPick', picker.title, picker.items).then((answer) => {
              if (answer === undefined) return picker.hide();
              if (typeof answer === 'object' && answer !== null && typeof (answer as { typed?: unknown }).typed === 'string' && !picker.items.includes(answer)) {
                picker.value = (answer as { typed: string }).typed;
                for (const listener of accepted) listener();
                return;
              }
              picker.selectedItems = [answer];
              for (const listener of accepted) listener();
            }),
          hide: () => {
            for (const listener of hidden) listener();
          },
          dispose() {},
        };
        return picker;
      },
      withProgress: async (options: { title?: string }, task: () => Promise<unknown>) => {
        fake.progressTitles.push(options.title ?? '');
        if (fake.progressFails) throw fake.progressFails;
        return task();
      },
    },
    commands: {
      registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
        fake.commands.set(id, run);
        return { dispose() {} };
      },
      executeCommand: async (id: string) => void fake.executed.push(id),
    },
    languages: { getDiagnostics: () => [] },
    QuickPickItemKind: { Separator: -1, Default: 0 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  };
  const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string; _cache: Record<string, unknown> };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? FAKE_ID : resolve.call(this, request, ...rest);
  };
  loader._cache[FAKE_ID] = { id: FAKE_ID, filename: FAKE_ID, loaded: true, exports: vscode };
  installed = fake;
  return fake;
}
