/**
 * Custom LSP requests between the VS Code client and the language server, as plain types and
 * method names: both sides import this file (the client never imports server/), so a change to
 * a request's shape breaks the build on both ends instead of failing at run time.
 */

import type { MessageVerdict } from './message-rows';

/** The language id of envelope fixtures; package.json declares the same one under contributes.languages. */
export const ENVELOPE_LANGUAGE_ID = 'babelqueue-envelope';

/**
 * The environment variable naming a folder where the language server keeps V8's code cache of its
 * bundle (server/start.ts); the VS Code extension sets it to a folder of its own storage.
 */
export const CODE_CACHE_DIR_VARIABLE = 'BABELQ_CODE_CACHE_DIR';

/** `babelqueue/registryEntries`: the registry entries that apply to a document or folder. */
export const REGISTRY_ENTRIES_METHOD = 'babelqueue/registryEntries';

/** `babelqueue/newEnvelope`: the text of a new, valid envelope for one registered URN. */
export const NEW_ENVELOPE_METHOD = 'babelqueue/newEnvelope';

export interface RegistryEntriesParams {
  /** The active document's or workspace folder's URI; the registry is found from it. */
  readonly uri?: string;
}

export interface RegistryEntrySummary {
  readonly urn: string;
  readonly owner?: string;
  readonly status?: string;
  /** True when the status is deprecated, retired or sunset. */
  readonly deprecated: boolean;
}

export interface RegistryEntriesResult {
  /** Absolute path of the registry.json in use; absent when no registry was found. */
  readonly registryPath?: string;
  /** In registry order; empty when there is no registry or it cannot be used. */
  readonly entries: readonly RegistryEntrySummary[];
  /** Why the registry cannot be used (unreadable, not JSON, outside the workspace, …). */
  readonly error?: string;
}

export interface NewEnvelopeParams {
  /** The same URI as for the entries request, so the same registry is used. */
  readonly uri?: string;
  readonly urn: string;
}

export interface NewEnvelopeResult {
  /** The complete envelope, pretty-printed, with a trailing newline. */
  readonly text: string;
}

/** Client → server, VS Code only: the user trusted the workspace (git may now be run for schema compat). */
export const WORKSPACE_TRUSTED_METHOD = 'babelqueue/workspaceTrusted';

/**
 * `babelqueue/registryStatus` (server → client notification): the registry an envelope uses. Sent
 * only to a client that asks for it with `registryStatus: true` in initialize's
 * initializationOptions (VS Code's does, for its status item): an editor that does not know the
 * method has the same in window/logMessage, and Helix, for one, logs every unknown notification.
 */
export const REGISTRY_STATUS_METHOD = 'babelqueue/registryStatus';

/** initialize's initializationOptions, as the server reads them; every one is optional. */
export interface ServerInitializationOptions {
  /** False in an untrusted workspace (VS Code's Restricted Mode): the server runs no git. */
  readonly workspaceTrusted?: boolean;
  /** True: send babelqueue/registryStatus. */
  readonly registryStatus?: boolean;
  /**
   * True: the client shows a source action (fix all) only in a menu that asks for it by kind, so
   * one is not made for a request that names none. VS Code's quick-fix menu (Ctrl+.) drops them.
   */
  readonly sourceActionsByKindOnly?: boolean;
}

export interface RegistryStatusParams {
  /** The envelope document the status is about. */
  readonly uri: string;
  readonly state: 'none' | 'loaded' | 'broken';
  /** One line for the status item: "Registry: 5 URNs", "Registry error: …". */
  readonly message: string;
  readonly registryPath?: string;
}

/**
 * `babelqueue/preview` (client → server request): the bytes an envelope is published as, the text
 * `babelq preview` prints for the same options. The document must be open.
 */
export const PREVIEW_METHOD = 'babelqueue/preview';

/** `workspace/executeCommand` command with arguments `[uri, options?]`: the preview text alone. */
export const PREVIEW_COMMAND = 'babelqueue.preview';

export interface PreviewRequestOptions {
  /** An SDK encoder, `auto` (meta.lang, else node; the default) or `all` (the full comparison). */
  readonly sdk?: 'node' | 'php' | 'python' | 'go' | 'java' | 'dotnet' | 'auto' | 'all';
  /** A fresh meta.id and created_at, as a send mints them (default true). */
  readonly freshIds?: boolean;
  /** A hex dump of the body instead of its text (one encoder only). */
  readonly hex?: boolean;
  /** Overrides meta.queue. */
  readonly queue?: string;
  /** The Redis key layout shown with `all` (default babelqueue). */
  readonly layout?: 'babelqueue' | 'laravel';
  /** Laravel's connection prefix, for the laravel layout. */
  readonly prefix?: string;
  /** With `all`: the encoder whose bytes are the published body the other SDKs are compared with (default auto). */
  readonly published?: 'node' | 'php' | 'python' | 'go' | 'java' | 'dotnet' | 'auto';
  /**
   * With freshIds: the meta.id and created_at (milliseconds since 1970) to write, so that the
   * preview shows what the editor's next send will publish (default: new ones per request).
   */
  readonly fresh?: { readonly id: string; readonly createdAt: number };
  /** With `all`: the broker target to show, without credentials (default redis://127.0.0.1:6379). */
  readonly target?: string;
}

/** The error of a preview asked for a document the server does not hold as an envelope. */
export const PREVIEW_NOT_OPEN = 'The document is not open as a BabelQueue envelope (*.babel.json).';

export interface PreviewParams extends PreviewRequestOptions {
  readonly textDocument: { readonly uri: string };
}

export type PreviewResult =
  | { readonly ok: true; readonly text: string; readonly notes: readonly string[] }
  | { readonly ok: false; readonly error: string };

/** The scheme of a message the extension opens read-only from a broker (a document with no file). */
export const MESSAGE_SCHEME = 'babelqueue-message';

/**
 * `babelqueue/judgeMessages` (client → server request): message texts read from a queue, or the
 * texts a redrive would publish, judged as a message opened from a broker is (a document with no
 * file, at the top of the first workspace folder: that folder's babelq.json and registry), so a
 * list's verdict, the opened message's squiggles and a redrive's question about errors agree, as
 * they do in `babelq peek` and `babelq dlq`.
 */
export const JUDGE_MESSAGES_METHOD = 'babelqueue/judgeMessages';

/** The most texts one request judges: the most messages a list reads. */
export const MAX_JUDGED_MESSAGES = 1000;

/** The longest text judged (null above it): 64 Mi characters, as lint reads no fixture above 64 MiB. */
export const MAX_JUDGED_CHARACTERS = 64 * 1024 * 1024;

export interface JudgeMessagesParams {
  /** At most MAX_JUDGED_MESSAGES. */
  readonly texts: readonly string[];
}

export interface JudgeMessagesResult {
  /**
   * One per text, in order: null for a text the server did not judge (longer than a fixture it
   * reads may be), which the client then judges without the registry.
   */
  readonly verdicts: readonly (MessageVerdict | null)[];
  /**
   * The verdict of a body whose bytes are not UTF-8, which the client keeps (no text of it is
   * sent): lint's one json-syntax finding, at the severity those settings give it.
   */
  readonly notUtf8?: MessageVerdict;
}
