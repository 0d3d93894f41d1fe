/**
 * Registry navigation: go to definition (URN → registry entry, data key → schema property, a
 * schema path in registry.json → its file), find references (a registry entry, or the URN an
 * envelope routes on → the fixtures that route on it) and document links on the schema paths of
 * registry.json.
 */
import type { DefinitionParams, DocumentLink, Location, ReferenceParams } from 'vscode-languageserver/node';
import { registryDefinition, registryEntryAt, routedEntryAt, schemaLinks, schemaPathDefinition } from '../../core/language/registry-navigation';
import type { TextReader } from '../../workspace/registry-loader';
import { findUrnReferences, readFixtureFromDisk, urnReferenceIn } from '../../workspace/urn-references';
import type { ServerContext } from '../context';
import { toLocation, toRange } from '../convert';
import { toPath, toUri } from '../registry';
import { envelopesOrRegistryFiles, registryFiles, requestHandler } from '../request';
import type { WorkspaceFixtures } from '../workspace-diagnostics';

export function registerNavigation(context: ServerContext, fixtures: WorkspaceFixtures): void {
  const { connection, documents } = context;
  /**
   * An open fixture is read as its editor holds it, unsaved edits included; a closed one as an
   * editor would show it. Open documents are found by path: an editor may spell a file's URI
   * otherwise than `toUri` does (VS Code percent-encodes `(`, `)` and `+`, which Node's file URLs keep).
   */
  const readOpenFirst = (): TextReader => {
    const openByPath = new Map<string, string>();
    for (const document of documents.all()) {
      const path = toPath(document.uri);
      if (path !== undefined) openByPath.set(path, document.uri);
    }
    return (path, limit) => documents.get(openByPath.get(path) ?? toUri(path))?.getText() ?? readFixtureFromDisk(path, limit);
  };

  connection.onDefinition(
    requestHandler(context, 'definition', envelopesOrRegistryFiles, [], ({ kind, parsed, lines, registry }, params: DefinitionParams): Location[] => {
      if (registry.kind !== 'loaded') return [];
      const offset = lines.offsetAt(params.position);
      const target = kind === 'registry file' ? schemaPathDefinition(registry.registry, offset) : registryDefinition(parsed, offset, registry.registry);
      return target ? [toLocation(target)] : [];
    }),
  );

  connection.onReferences(
    requestHandler(context, 'references', envelopesOrRegistryFiles, [], async ({ kind, document, parsed, lines, registry }, params: ReferenceParams, token): Promise<Location[]> => {
      if (registry.kind !== 'loaded') return [];
      const offset = lines.offsetAt(params.position);
      const entry = kind === 'registry file' ? registryEntryAt(registry.registry, offset) : routedEntryAt(parsed, offset, registry.registry);
      if (!entry) return [];
      // The folder of the file asked from (the registry's own, or the fixture's): never wider, even
      // for a registry a setting names outside it.
      const root = context.registries.folderOf(toPath(document.uri)!);
      // What the workspace's report knows of each fixture it has found (the URN read of one it has not
      // analysed yet); before it has found them, a walk, with the report's ignores.
      const readFixture = readOpenFirst();
      const readUnanalysed = (path: string) => {
        const reference = urnReferenceIn(path, entry.urn, readFixture);
        return reference && toLocation(reference);
      };
      const fromReport = await fixtures.referencesTo(entry.urn, root, readUnanalysed, token);
      const locations = fromReport ?? (await findUrnReferences(root, entry.urn, readFixture, fixtures.ignoresFor(root), token)).map(toLocation);
      if (params.context.includeDeclaration) locations.unshift(toLocation({ path: registry.registry.path, text: registry.registry.doc.text, offset: entry.urnOffset, end: entry.urnEnd }));
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
