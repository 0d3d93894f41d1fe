/**
 * The shape of a request's params, checked before a handler trusts them. Handlers read
 * `params.position.line` and `params.context.diagnostics` as the protocol defines them; a client
 * (or a fuzzer) that sends a number where a position belongs would make each handler throw, and
 * each throw would log a stack. A request whose params do not have the protocol's shape is
 * answered with InvalidParams instead, and each kind of problem is logged once.
 */

import { isRecord } from '../core/model/js-value';
import { MAX_JUDGED_MESSAGES } from '../core/language/protocol';
import { digitGroups } from '../core/model/count-words';

export { isRecord };
export const isUri = (value: unknown): boolean => typeof value === 'string' && value !== '';
const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0;
export const isPosition = (value: unknown): boolean => isRecord(value) && isCount(value.line) && isCount(value.character);
export const isRange = (value: unknown): boolean => isRecord(value) && isPosition(value.start) && isPosition(value.end);

/** The fields each request of server/request.ts must have besides textDocument, by its handler's name. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  hover: ['position'],
  completion: ['position'],
  definition: ['position'],
  references: ['position', 'context'],
  codeAction: ['range', 'context'],
  selectionRanges: ['positions'],
  formatting: ['options'],
};

/** What is wrong with a document request's params, or undefined when a handler may read them as the protocol says. */
export function malformedDocumentParams(name: string, params: unknown): string | undefined {
  if (!isRecord(params)) return 'the params are not an object';
  if (!isRecord(params.textDocument) || !isUri(params.textDocument.uri)) return 'textDocument.uri is not a non-empty string';
  for (const field of REQUIRED[name] ?? []) if (params[field] == null) return `${field} is missing`;
  // An optional field sent as null counts as absent.
  if (params.position != null && !isPosition(params.position)) return 'position is not { line, character } of non-negative integers';
  if (params.range != null && !isRange(params.range)) return 'range is not { start, end } positions';
  if (params.positions != null) {
    if (!Array.isArray(params.positions)) return 'positions is not a list of positions';
    if (params.positions.length > MAX_SELECTION_POSITIONS) return `positions holds ${digitGroups(params.positions.length)} positions, more than the ${digitGroups(MAX_SELECTION_POSITIONS)} one request answers`;
    if (!params.positions.every(isPosition)) return 'positions is not a list of positions';
  }
  if (params.context != null) {
    const context = params.context;
    if (!isRecord(context)) return 'context is not an object';
    if (name === 'codeAction' && !Array.isArray(context.diagnostics)) return 'context.diagnostics is missing';
    if (context.diagnostics != null && !(Array.isArray(context.diagnostics) && context.diagnostics.every((diagnostic) => isRecord(diagnostic) && isRange(diagnostic.range)))) return 'context.diagnostics is not a list of diagnostics with ranges';
    if (context.only != null && !(Array.isArray(context.only) && context.only.every((kind) => typeof kind === 'string'))) return 'context.only is not a list of kinds';
    if (name === 'references' && typeof context.includeDeclaration !== 'boolean') return 'context.includeDeclaration is not true or false';
  }
  if (params.options != null && !isRecord(params.options)) return 'options is not an object';
  if (name === 'formatting') {
    const options = params.options as Record<string, unknown>;
    if (!(typeof options.tabSize === 'number' && Number.isInteger(options.tabSize) && options.tabSize >= 1 && options.tabSize <= MAX_TAB_SIZE)) return `options.tabSize is not an integer from 1 to ${MAX_TAB_SIZE}`;
    if (typeof options.insertSpaces !== 'boolean') return 'options.insertSpaces is not true or false';
  }
  return undefined;
}

/** At most this many positions in one selectionRange request (an editor sends one per cursor). */
export const MAX_SELECTION_POSITIONS = 10_000;

/** Wider than any editor's indentation; a document indented wider would be mostly spaces. */
const MAX_TAB_SIZE = 100;

/** What is wrong with workspace/diagnostic params (their previousResultIds above all), or undefined. */
export function malformedWorkspaceDiagnosticParams(params: unknown): string | undefined {
  if (!isRecord(params)) return 'the params are not an object';
  const previous = params.previousResultIds;
  if (!Array.isArray(previous) || !previous.every((entry) => isRecord(entry) && isUri(entry.uri) && typeof entry.value === 'string')) return 'previousResultIds is not a list of { uri, value } strings';
  return undefined;
}

/** What is wrong with the params of a request about the registry (`uri` optional, `urn` where the request needs one), or undefined. */
export function malformedRegistryParams(params: unknown, needsUrn: boolean): string | undefined {
  if (!isRecord(params)) return 'the params are not an object';
  // An empty uri counts as none (the request then answers for no folder), as before these checks.
  if (params.uri != null && typeof params.uri !== 'string') return 'uri is not a string';
  if (needsUrn && !(typeof params.urn === 'string' && params.urn.trim() !== '')) return 'urn is not a non-empty string';
  return undefined;
}

/** What is wrong with workspace/executeCommand params (a command name, and its arguments a list when given), or undefined. */
export function malformedExecuteCommandParams(params: unknown): string | undefined {
  if (!isRecord(params)) return 'the params are not an object';
  if (typeof params.command !== 'string') return 'command is not a string';
  if (params.arguments != null && !Array.isArray(params.arguments)) return 'arguments is not a list';
  return undefined;
}

/**
 * The folder URIs of a client's answer to workspace/workspaceFolders (null: no folder is open);
 * undefined for an answer that is not a list of folders, whose text is then the caller's to say.
 * An entry without a URI is no folder, and is passed over.
 */
export function workspaceFolderUris(answer: unknown): string[] | undefined {
  if (answer === null) return [];
  if (!Array.isArray(answer)) return undefined;
  return answer.filter((folder) => isRecord(folder) && isUri(folder.uri)).map((folder) => (folder as { uri: string }).uri);
}

/** What is wrong with babelqueue/judgeMessages params (a list of at most MAX_JUDGED_MESSAGES strings), or undefined. */
export function malformedJudgeMessagesParams(params: unknown): string | undefined {
  if (!isRecord(params)) return 'the params are not an object';
  const { texts } = params;
  if (!Array.isArray(texts)) return 'texts is not a list';
  if (texts.length > MAX_JUDGED_MESSAGES) return `texts holds ${texts.length} messages, more than the ${MAX_JUDGED_MESSAGES} one request judges`;
  if (!texts.every((text) => typeof text === 'string')) return 'texts is not a list of strings';
  return undefined;
}

/** Logs each problem once per request kind: a flood of malformed requests makes one line each. */
export class MalformedRequests {
  private readonly reported = new Set<string>();

  constructor(private readonly warn: (message: string) => void) {}

  report(name: string, problem: string, kind: 'request' | 'notification' = 'request'): void {
    const line = `Rejected a malformed ${name} ${kind}: ${problem} (said once per kind).`;
    if (this.reported.has(line)) return;
    this.reported.add(line);
    this.warn(line);
  }
}

/**
 * The protocol library's own complaints about a malformed message (params by position where names
 * are defined, a notification handler that threw) said once per method: they come once per message,
 * and a client in a loop would fill the log with them.
 */
const LIBRARY_COMPLAINTS = [/^Notification (\S+) defines parameters by name/, /^(Notification handler '[^']+' failed.*)$/s, /^(Request handler '[^']+' failed.*)$/s];
/** Complaints remembered; forgotten in bulk when full, so a new one is always said. */
const MAX_REMEMBERED = 1000;

export function quietRepeatedComplaints(console: { error(message: string): void }): void {
  const said = new Set<string>();
  const error = console.error.bind(console);
  console.error = (message: string) => {
    for (const [index, pattern] of LIBRARY_COMPLAINTS.entries()) {
      const match = pattern.exec(message);
      if (!match) continue;
      // By method for the first kind (its text is the same every time); by the whole text for a handler's failure.
      const key = `${index}:${match[1].slice(0, 500)}`;
      if (said.has(key)) return;
      if (said.size >= MAX_REMEMBERED) said.clear();
      said.add(key);
      error(index === 0 ? `${message} (said once per method)` : `${message} (said once)`);
      return;
    }
    error(message);
  };
}
