/**
 * A breaking schema change caught while it is typed: an open schema file of the registry against
 * its version at the compat base (setting `babelqueue.compat.base` or babelq.json's `compatBase`,
 * default git `HEAD`), as `babelq compat --base` and bqschema compat judge it. Each break is a
 * `breaking-change` on the changed keyword, its message counting the workspace's fixtures of the
 * URN that the schema as typed rejects (once the registry reads the text typed: one that reads the
 * file through a symbolic link reads it as saved). Nothing is compared outside a git work tree,
 * without git, for a file new since the base, for an entry already marked deprecated (its
 * successor carries the new shape), or in a workspace the user has not trusted (git reads the
 * checkout's own config).
 */
import type { ParsedDocument } from '../core/model/tree';
import { parseText } from '../core/parse/parser';
import { isDeprecatedStatus } from '../core/registry/types';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import { fileDiagnostics } from '../core/rules/file-diagnostics';
import { GitBase } from '../workspace/git-base';
import { MAX_SCHEMA_FILE_BYTES } from '../workspace/registry-loader';
import type { ServerContext } from './context';
import { toPath } from './registry';
import type { SchemaFileRequest } from './request';
import type { WorkspaceFixtures } from './workspace-diagnostics';

export class SchemaCompat {
  private trusted: boolean;
  /** The last base parsed per file: a keystroke in the schema does not parse its base again. */
  private readonly bases = new Map<string, { readonly text: string; readonly doc: ParsedDocument }>();

  constructor(
    private readonly context: ServerContext,
    private readonly fixtures: WorkspaceFixtures,
    /** What the client said at start: VS Code sends its workspace trust; other editors trust what they open. */
    trustedAtStart: boolean,
    private readonly git = new GitBase(MAX_SCHEMA_FILE_BYTES),
  ) {
    this.trusted = trustedAtStart;
  }

  /** The user trusted the workspace (VS Code's notification): schema files are compared from now on. */
  trust(): void {
    this.trusted = true;
  }

  /** The breaking changes of an open schema file against its base, each counting the fixtures it breaks. */
  async breaks(request: SchemaFileRequest): Promise<CoreDiagnostic[]> {
    const base = request.settings.compatBase;
    const path = toPath(request.document.uri);
    if (!this.trusted || base === undefined || path === undefined) return [];
    const owners = this.context.registries.schemaOwners(request.document.uri);
    // An entry marked deprecated has (or is about to get) its successor: changing it is accepted, as bqschema's users do.
    if (owners.length > 0 && owners.every((owner) => isDeprecatedStatus(owner.entry.status))) return [];
    const baseText = await this.git.textAt(path, base);
    if (baseText === undefined) return [];
    // Of the entries in use, one whose registry reads the text typed comes first: two registries can
    // read one file, one by its own path (the text typed) and one through a symbolic link (from disk),
    // and which of them was loaded first must not decide whether the fixtures are counted.
    const current = owners.filter((candidate) => !isDeprecatedStatus(candidate.entry.status));
    const owner = current.find((candidate) => candidate.entry.schema?.doc?.text === request.parsed.text) ?? current[0];
    const urn = owner?.entry.urn;
    const change = { base: this.parsedBase(path, baseText), current: request.parsed, ...(urn !== undefined ? { urn } : {}) };
    const found = fileDiagnostics('schemaChange', change, request.settings);
    if (found.length === 0 || urn === undefined) return found;
    // The fixtures are checked against the schema the registry read: a registry that reads this
    // file through a symbolic link reads it from disk, so an edit typed at the place the link
    // leads to is not what they were checked against until it is saved, and is not counted.
    if (owner?.entry.schema?.doc?.text !== request.parsed.text) return found;
    // Only a schema that breaks something has its fixtures counted (each is read and checked).
    const fixtures = await this.fixtures.rejectedBy(urn);
    return fixtures === undefined ? found : fileDiagnostics('schemaChange', { ...change, fixtures }, request.settings);
  }

  private parsedBase(path: string, text: string): ParsedDocument {
    const known = this.bases.get(path);
    if (known?.text === text) return known.doc;
    const doc = parseText(text);
    this.bases.set(path, { text, doc });
    // Bounded as the git texts are: the schema files a session edits, not every one of a registry.
    if (this.bases.size > 64) this.bases.delete(this.bases.keys().next().value!);
    return doc;
  }
}
