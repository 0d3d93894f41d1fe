/**
 * Registry navigation: go to definition (URN → registry entry, data key → schema property), find
 * references (registry entry → the fixtures that use its URN) and document links on the schema
 * paths of registry.json.
 */
import type { DefinitionParams, DocumentLink, Location, ReferenceParams } from 'vscode-languageserver/node';
import { registryDefinition, registryEntryAt, schemaLinks } from '../../core/language/registry-navigation';
import type { TextReader } from '../../workspace/registry-loader';
import { findUrnReferences, readFixtureFromDisk, urnReferenceIn } from '../../workspace/urn-references';
import type { ServerContext } from '../context';
import { toLocation, toRange } from '../convert';
import { toPath, toUri } from '../registry';
import { envelopes, registryFiles, requestHandler } from '../request';
import type { WorkspaceFixtures } from '../workspace-diagnostics';

export function registerNavigation(context: ServerContext, fixtures: WorkspaceFixtures): void {
  const { connection, documents } = context;
  /** An open fixture is read as its editor holds it, unsaved edits included; a closed one as an editor would show it. */
  const readOpenFirst: TextReader = (path, limit) => documents.get(toUri(path))?.getText() ?? readFixtureFromDisk(path, limit);

  connection.onDefinition(
    requestHandler(context, 'definition', envelopes, [], ({ parsed, lines, registry }, params: DefinitionParams): Location[] => {
      if (registry.kind !== 'loaded') return [];
      const target = registryDefinition(parsed, lines.offsetAt(params.position), registry.registry);
      return target ? [toLocation(target)] : [];
    }),
  );

  connection.onReferences(
    requestHandler(context, 'references', registryFiles, [], async ({ document, lines, registry }, params: ReferenceParams, token): Promise<Location[]> => {
      if (registry.kind !== 'loaded') return [];
      const entry = registryEntryAt(registry.registry, lines.offsetAt(params.position));
      if (!entry) return [];
      const root = context.registries.folderOf(toPath(document.uri)!);
      // What the workspace's report knows of each fixture it has found (the URN read of one it has not
      // analysed yet); before it has found them, a walk, with the report's ignores.
      const readUnanalysed = (path: string) => {
        const reference = urnReferenceIn(path, entry.urn, readOpenFirst);
        return reference && toLocation(reference);
      };
      const fromReport = await fixtures.referencesTo(entry.urn, root, readUnanalysed, token);
      const locations = fromReport ?? (await findUrnReferences(root, entry.urn, readOpenFirst, fixtures.ignoresFor(root), token)).map(toLocation);
      if (params.context.includeDeclaration) locations.unshift({ uri: document.uri, range: toRange(lines, entry.urnOffset, entry.urnEnd) });
      return locations;
    }),
  );

  connection.onDocumentLinks(
    requestHandler(context, 'documentLinks', registryFiles, [], ({ lines, registry }): DocumentLink[] => {
      if (registry.kind !== 'loaded') return [];
      return schemaLinks(registry.registry).map((link) => ({ range: toRange(lines, link.offset, link.end), target: toUri(link.path), tooltip: 'Open the payload schema' }));
    }),
  );
}
