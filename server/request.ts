/**
 * The one path every document request takes: the open document, the gate (which documents the
 * request answers for), its settings, the cached parse and the registry, resolved once, then an
 * answer that only converts between core and LSP. A document that is not open or does not pass
 * the gate, a cancelled request and a failing one are all answered with the request's empty result.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { CancellationToken, ErrorCodes, ResponseError, type TextDocumentIdentifier } from 'vscode-languageserver/node';
import { malformedDocumentParams, malformedRegistryParams } from './request-shape';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { ENVELOPE_LANGUAGE_ID } from '../core/language/protocol';
import type { LineIndex } from '../core/model/positions';
import type { ParsedDocument } from '../core/model/tree';
import { NO_REGISTRY, type RegistryState } from '../core/registry/types';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import { DEFAULT_SETTINGS, type Settings } from '../core/rules/settings/settings';
import { ENVELOPE_SUFFIX } from '../workspace/fixture-files';
import { PROJECT_CONFIG_FILE } from '../core/rules/settings/project-config';
import { SUPPRESSIONS_FILE } from '../core/rules/settings/suppressions-file';
import { staleSuppressions, type ProjectFileKind, type SuppressionsJudged } from './project-files';
import { toPath, toUri } from './registry';
import type { ServerContext } from './context';
import { guard } from './guard';

interface ResolvedDocument {
  readonly document: TextDocument;
  /** This version's parse, shared with every other request through the parse cache. */
  readonly parsed: ParsedDocument;
  readonly lines: LineIndex;
  readonly settings: Settings;
}

/** An envelope fixture, with the registry its URN is looked up in (kind 'none' when there is none). */
export interface EnvelopeRequest extends ResolvedDocument {
  readonly kind: 'envelope';
  readonly registry: RegistryState;
}

/** A registry.json, with the registry it defines (loaded, or broken and why). */
export interface RegistryFileRequest extends ResolvedDocument {
  readonly kind: 'registry file';
  readonly registry: RegistryState;
}

/** A schema file that a loaded registry reads, checked as BabelQueue's validators read it. */
export interface SchemaFileRequest extends ResolvedDocument {
  readonly kind: 'schema file';
  /** Its breaking changes against the compat base, when the diagnostics asked for them (server/schema-compat.ts). */
  readonly breaks?: readonly CoreDiagnostic[];
}

/** babelq.json or babelq-suppressions.json: the project's own files, with their findings. */
export interface ProjectFileRequest extends Omit<ResolvedDocument, 'parsed'> {
  readonly kind: 'project file';
  readonly file: ProjectFileKind;
  /** For a suppressions file: the entries that match no finding any more, and those its judging's budget left unchecked. */
  readonly judged: SuppressionsJudged;
}

export type DocumentRequest = EnvelopeRequest | RegistryFileRequest | SchemaFileRequest | ProjectFileRequest;

/** Which project file a URI names, by its file name. */
export function projectFileKind(uri: string): ProjectFileKind | undefined {
  const name = uri.slice(uri.lastIndexOf('/') + 1);
  return name === PROJECT_CONFIG_FILE ? 'config' : name === SUPPRESSIONS_FILE ? 'suppressions' : undefined;
}

/** Which documents a request answers for, and what it needs of them; undefined answers empty. */
export type Gate<T extends DocumentRequest> = (context: ServerContext, document: TextDocument, token: CancellationToken) => Promise<T | undefined>;

/** Envelope fixtures by language or by name (a fixture opened as plain JSON is still one). */
export function isEnvelopeDocument(document: TextDocument): boolean {
  return document.languageId === ENVELOPE_LANGUAGE_ID || document.uri.endsWith(ENVELOPE_SUFFIX);
}

/** Envelope fixtures; other JSON gets nothing, and asks for no settings. */
export const envelopes: Gate<EnvelopeRequest> = async (context, document, token) => {
  if (!isEnvelopeDocument(document)) return undefined;
  const settings = await context.settings.forDocument(document.uri);
  if (!stillWanted(context, document, token)) return undefined;
  // Found after the settings: the registry path is a setting. A registry not loaded yet loads in
  // time slices, so other requests are answered meanwhile; this one is asked about again after it.
  const registry = await context.registries.stateWhenLoaded(document.uri, settings);
  if (!stillWanted(context, document, token)) return undefined;
  const { parsed, lines } = context.cache.get(document);
  return { kind: 'envelope', document, parsed, lines, settings, registry };
};

/** Envelope fixtures, answered once a large one's diagnostics are (the outline, folding: server/diagnostics-first.ts). */
export const envelopesAfterDiagnostics: Gate<EnvelopeRequest> = async (context, document, token) => {
  await context.diagnosticsFirst.wait(document);
  return envelopes(context, document, token);
};

/**
 * Registry files, which references, links and their diagnostics work on: a registry.json, or the
 * file the document's own settings name as the registry (babelq.json's `"registry":
 * "config/sub.json"`), whatever its name.
 */
export const registryFiles: Gate<RegistryFileRequest> = async (context, document, token) => {
  const settings = await context.settings.forDocument(document.uri);
  if (!stillWanted(context, document, token)) return undefined;
  // Read after the await, so an edit of the registry made meanwhile is seen.
  const registry = await context.registries.registryFileStateWhenLoaded(document.uri, settings);
  if (!registry || !stillWanted(context, document, token)) return undefined;
  const { parsed, lines } = context.cache.get(document);
  return { kind: 'registry file', document, parsed, lines, settings, registry };
};

/** The schema files of the registries loaded so far (their keywords get diagnostics). */
export const schemaFiles: Gate<SchemaFileRequest> = async (context, document, token) => {
  const known = context.registries.isSchemaFile(document.uri);
  if (!known && !document.uri.endsWith('.json')) return undefined;
  const settings = await context.settings.forDocument(document.uri);
  // A schema file opened before any fixture: the registry it belongs to is the one its folder finds.
  if (!known) {
    await context.registries.stateWhenLoaded(document.uri, settings);
    if (!context.registries.isSchemaFile(document.uri)) return undefined;
  }
  // The registries that own it, loaded again after an edit of it (their entries are its quick fixes' and compat's).
  await context.registries.schemaOwnersLoaded(document.uri);
  if (!stillWanted(context, document, token)) return undefined;
  const { parsed, lines } = context.cache.get(document);
  return { kind: 'schema file', document, parsed, lines, settings };
};

/** babelq.json and babelq-suppressions.json (read as JSON with comments, not parsed as envelopes). */
export const projectFiles: Gate<ProjectFileRequest> = async (context, document, token) => {
  const file = projectFileKind(document.uri);
  if (!file) return undefined;
  const settings = await context.settings.forDocument(document.uri);
  const path = toPath(document.uri);
  // The judging stops once the request is cancelled (VS Code cancels a pull when the file changes,
  // and pulls again) or the document has a newer version or closed: its answer would be thrown
  // away (a push checks the version it was for), and the newer text is judged by the newer pull.
  const version = document.version;
  const superseded = () => !stillWanted(context, document, token) || document.version !== version;
  const judged = file === 'suppressions' && path ? await staleSuppressions(context, path, document.getText(), superseded) : { stale: [] };
  if (!judged || !stillWanted(context, document, token)) return undefined;
  return { kind: 'project file', file, document, lines: context.cache.get(document).lines, settings, judged };
};

/** Envelopes and the registry's schema files (quick fixes). */
export const envelopesAndSchemaFiles: Gate<EnvelopeRequest | SchemaFileRequest> = async (context, document, token) =>
  isEnvelopeDocument(document) ? envelopes(context, document, token) : schemaFiles(context, document, token);

/**
 * registry.json files and envelopes (go to definition and find references work from both); a
 * registry.json is one by its name, whatever language the editor opened it in.
 */
export const envelopesOrRegistryFiles: Gate<EnvelopeRequest | RegistryFileRequest> = async (context, document, token) =>
  (await registryFiles(context, document, token)) ?? envelopes(context, document, token);

/** All four, for diagnostics; a registry.json opened as an envelope is checked as an envelope. */
export const envelopesAndRegistryFiles: Gate<DocumentRequest> = async (context, document, token) =>
  isEnvelopeDocument(document)
    ? envelopes(context, document, token)
    : projectFileKind(document.uri)
      ? projectFiles(context, document, token)
      : ((await registryFiles(context, document, token)) ?? schemaFiles(context, document, token));

/** What a request about a folder or a file that need not be open resolves: its settings and registry. */
export interface RegistryRequest {
  readonly settings: Settings;
  readonly registry: RegistryState;
}

/**
 * The same path for the extension's requests about a registry, which name a URI rather than an open
 * document (New Envelope… asks for a folder, or a file not saved yet): the settings and the
 * registry that URI's fixtures use (a folder stands for a fixture directly inside it), resolved
 * once, the empty result for a request without a URI or one cancelled meanwhile, and a log instead
 * of a crash.
 */
export function registryRequestHandler<P extends { readonly uri?: string }, R>(
  context: ServerContext,
  name: string,
  empty: R,
  answer: (request: RegistryRequest, params: P) => R,
  needsUrn = false,
): (params: P, token?: CancellationToken) => Promise<R> {
  const guarded = guard(context.connection.console, name, async (params: P, token: CancellationToken = CancellationToken.None): Promise<R> => {
    const uri = typeof params?.uri === 'string' ? params.uri : undefined;
    if (!uri) return answer({ settings: DEFAULT_SETTINGS, registry: NO_REGISTRY }, params);
    const probe = fixtureUriIn(uri);
    const settings = await context.settings.forDocument(probe);
    if (token.isCancellationRequested) return empty;
    const registry = await context.registries.stateWhenLoaded(probe, settings);
    if (token.isCancellationRequested) return empty;
    return answer({ settings, registry }, params);
  }, empty);
  return async (params: P, token?: CancellationToken): Promise<R> => {
    const problem = malformedRegistryParams(params, needsUrn);
    if (problem === undefined) return guarded(params, token);
    return refuseMalformed(context, name, problem);
  };
}

/** A folder URI stands for a fixture directly inside it, so the registry search starts there; any other URI is looked up as it is. */
function fixtureUriIn(uri: string): string {
  const path = toPath(uri);
  try {
    if (path && statSync(path).isDirectory()) return toUri(join(path, 'new.babel.json'));
  } catch {
    // A path that does not exist yet (an unsaved file) is looked up as it is.
  }
  return uri;
}

/**
 * False once the request was cancelled or its document closed while it waited: its answer would
 * be thrown away, and parsing a closed document would only put it back into the cache.
 */
function stillWanted(context: ServerContext, document: TextDocument, token: CancellationToken): boolean {
  return !token.isCancellationRequested && context.documents.get(document.uri) === document;
}

/**
 * An LSP request handler for the documents `gate` lets through. A cancellation arrives as a
 * message, read only while the handler awaits: the gate's awaits are checked here, an answer that
 * awaits itself (references walks the workspace in time slices) is given the token to stop on, and
 * an answer that comes after its request was cancelled is dropped for the empty result.
 */
export function requestHandler<P extends { readonly textDocument: TextDocumentIdentifier }, T extends DocumentRequest, R>(
  context: ServerContext,
  name: string,
  gate: Gate<T>,
  empty: R,
  answer: (request: T, params: P, token: CancellationToken) => R | Promise<R>,
): (params: P, token?: CancellationToken) => Promise<R> {
  const guarded = guard(context.connection.console, name, async (params: P, token: CancellationToken = CancellationToken.None): Promise<R> => {
    const document = context.documents.get(params.textDocument.uri);
    if (!document) return empty;
    const request = await gate(context, document, token);
    if (!request || token.isCancellationRequested) return empty;
    const answered = await answer(request, params, token);
    return token.isCancellationRequested ? empty : answered;
  }, empty);
  return async (params: P, token?: CancellationToken): Promise<R> => {
    const problem = malformedDocumentParams(name, params);
    if (problem === undefined) return guarded(params, token);
    return refuseMalformed(context, name, problem);
  };
}

/** Answers a request whose params have not the shape it needs with InvalidParams, saying what is wrong (logged once per kind). */
export function refuseMalformed(context: ServerContext, name: string, problem: string): never {
  context.malformed.report(name, problem);
  throw new ResponseError(ErrorCodes.InvalidParams, `Malformed ${name} params: ${problem}.`);
}
