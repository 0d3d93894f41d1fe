/**
 * Registry navigation: go to definition (URN → registry entry, data key → schema property), find
 * references (registry entry → the fixtures that use its URN) and document links on the schema
 * paths of registry.json.
 */
import { readFileSync } from 'node:fs';
import type { DefinitionParams, DocumentLink, DocumentLinkParams, Location, ReferenceParams } from 'vscode-languageserver/node';
import { parseJson } from '../../core/parse/parser';
import { LineIndex } from '../../core/model/positions';
import { envelopeUrn, registryDefinition, registryEntryAt, schemaLinks } from '../../core/language/registry-navigation';
import { findFixtureFiles } from '../../workspace/fixture-files';
import type { ServerContext } from '../context';
import { toRange } from '../convert';
import { guard } from '../guard';
import { toPath, toUri } from '../registry';
import { isEnvelopeDocument } from './diagnostics';

export function registerNavigation(context: ServerContext): void {
  const { connection, documents, cache } = context;
  const log = connection.console;

  connection.onDefinition(
    guard(log, 'definition', async (params: DefinitionParams): Promise<Location[]> => {
      const document = documents.get(params.textDocument.uri);
      if (!document || !isEnvelopeDocument(document)) return [];
      const state = context.registries.stateFor(document.uri, await context.settings.forDocument(document.uri));
      if (state.kind !== 'loaded') return [];
      const entry = cache.get(document);
      const target = registryDefinition(entry.parsed, entry.lines.offsetAt(params.position), state.registry);
      if (!target) return [];
      return [{ uri: toUri(target.path), range: toRange(new LineIndex(target.text), target.offset, target.end) }];
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
      const registryPath = toPath(document.uri)!;
      const locations: Location[] = [];
      for (const path of findFixtureFiles(context.registries.folderOf(registryPath))) {
        const uri = toUri(path);
        const open = documents.get(uri);
        let text: string;
        try {
          text = open ? open.getText() : readFileSync(path, 'utf8');
        } catch {
          continue;
        }
        // A cheap text test first: most fixtures do not mention the URN at all.
        if (!text.includes(entry.urn)) continue;
        const found = envelopeUrn(parseJson(text));
        if (found?.urn !== entry.urn) continue;
        locations.push({ uri, range: toRange(new LineIndex(text), found.offset, found.end) });
      }
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
