/**
 * Registry navigation: go to definition (URN → registry entry, data key → schema property), find
 * references (registry entry → the fixtures that use its URN) and document links on the schema
 * paths of registry.json.
 */
import type { DefinitionParams, DocumentLink, DocumentLinkParams, Location, ReferenceParams } from 'vscode-languageserver/node';
import { registryDefinition, registryEntryAt, schemaLinks } from '../../core/language/registry-navigation';
import { readFromDisk, type TextReader } from '../../workspace/registry-loader';
import { findUrnReferences } from '../../workspace/urn-references';
import type { ServerContext } from '../context';
import { toLocation, toRange } from '../convert';
import { guard } from '../guard';
import { toPath, toUri } from '../registry';
import { isEnvelopeDocument } from './diagnostics';

export function registerNavigation(context: ServerContext): void {
  const { connection, documents, cache } = context;
  const log = connection.console;
  /** An open fixture is read as its editor holds it, unsaved edits included. */
  const readOpenFirst: TextReader = (path) => documents.get(toUri(path))?.getText() ?? readFromDisk(path);

  connection.onDefinition(
    guard(log, 'definition', async (params: DefinitionParams): Promise<Location[]> => {
      const document = documents.get(params.textDocument.uri);
      if (!document || !isEnvelopeDocument(document)) return [];
      const state = context.registries.stateFor(document.uri, await context.settings.forDocument(document.uri));
      if (state.kind !== 'loaded') return [];
      const entry = cache.get(document);
      const target = registryDefinition(entry.parsed, entry.lines.offsetAt(params.position), state.registry);
      return target ? [toLocation(target)] : [];
    }, []),
  );

  connection.onReferences(
    guard(log, 'references', (params: ReferenceParams): Location[] => {
      const document = documents.get(params.textDocument.uri);
      const state = document && context.registries.registryFileState(document.uri);
      if (!document || state?.kind !== 'loaded') return [];
      const lines = cache.get(document).lines;
      const entry = registryEntryAt(state.registry, lines.offsetAt(params.position));
      if (!entry) return [];
      const root = context.registries.folderOf(toPath(document.uri)!);
      const locations = findUrnReferences(root, entry.urn, readOpenFirst).map(toLocation);
      if (params.context.includeDeclaration) locations.unshift({ uri: document.uri, range: toRange(lines, entry.urnOffset, entry.urnEnd) });
      return locations;
    }, []),
  );

  connection.onDocumentLinks(
    guard(log, 'documentLinks', (params: DocumentLinkParams): DocumentLink[] => {
      const document = documents.get(params.textDocument.uri);
      const state = document && context.registries.registryFileState(document.uri);
      if (!document || state?.kind !== 'loaded') return [];
      const lines = cache.get(document).lines;
      return schemaLinks(state.registry).map((link) => ({ range: toRange(lines, link.offset, link.end), target: toUri(link.path), tooltip: 'Open the payload schema' }));
    }, []),
  );
}
