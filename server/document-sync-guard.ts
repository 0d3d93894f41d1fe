/**
 * Document sync notifications checked before `TextDocuments` sees them. Its handlers trust their
 * params: a `didOpen` whose `uri` is not a string becomes a document keyed by a number, and every
 * later lookup on that key goes wrong; a change without a version throws. A notification that does
 * not have the protocol's shape is dropped here, logged once per kind, and changes nothing.
 */
import type { Connection } from 'vscode-languageserver/node';
import { isRecord, isUri, isRange } from './request-shape';

type Check = (params: unknown) => string | undefined;


function textDocumentOf(params: unknown): Record<string, unknown> | undefined {
  return isRecord(params) && isRecord(params.textDocument) ? params.textDocument : undefined;
}

const identified: Check = (params) => (isUri(textDocumentOf(params)?.uri) ? undefined : 'textDocument.uri is not a non-empty string');

const opened: Check = (params) => {
  const document = textDocumentOf(params);
  if (!document || !isUri(document.uri)) return 'textDocument.uri is not a non-empty string';
  if (typeof document.languageId !== 'string') return 'textDocument.languageId is not a string';
  if (typeof document.version !== 'number' || !Number.isInteger(document.version)) return 'textDocument.version is not an integer';
  if (typeof document.text !== 'string') return 'textDocument.text is not a string';
  return undefined;
};

const changed: Check = (params) => {
  const document = textDocumentOf(params);
  if (!document || !isUri(document.uri)) return 'textDocument.uri is not a non-empty string';
  if (typeof document.version !== 'number' || !Number.isInteger(document.version)) return 'textDocument.version is not an integer';
  const changes = (params as Record<string, unknown>).contentChanges;
  if (!Array.isArray(changes)) return 'contentChanges is not an array';
  for (const change of changes) {
    if (!isRecord(change) || typeof change.text !== 'string') return 'a content change has no text';
    if (change.range !== undefined && !isRange(change.range)) return 'a content change has a malformed range';
  }
  return undefined;
};

const CHECKS: Readonly<Record<string, Check>> = {
  onDidOpenTextDocument: opened,
  onDidChangeTextDocument: changed,
  onDidCloseTextDocument: identified,
  onWillSaveTextDocument: identified,
  onWillSaveTextDocumentWaitUntil: identified,
  onDidSaveTextDocument: identified,
};

/** The connection as `TextDocuments.listen` should see it: its sync handlers get only well-formed params. */
export function checkedDocumentSync(connection: Connection, warn: (message: string) => void): Connection {
  const reported = new Set<string>();
  return new Proxy(connection, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const check = typeof property === 'string' ? CHECKS[property] : undefined;
      if (!check || typeof value !== 'function') return value;
      return (handler: (params: unknown, ...rest: unknown[]) => unknown) =>
        (value as (handler: unknown) => unknown).call(target, (params: unknown, ...rest: unknown[]) => {
          const problem = check(params);
          if (problem === undefined) return handler(params, ...rest);
          const line = `Ignored a malformed ${String(property).replace(/^on/, '')} notification: ${problem}.`;
          if (!reported.has(line)) {
            reported.add(line);
            warn(line);
          }
          return property === 'onWillSaveTextDocumentWaitUntil' ? [] : undefined;
        });
    },
  });
}
