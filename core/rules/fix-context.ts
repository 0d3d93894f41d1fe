/** The fix context of one finding: the document, the finding, and the nodes its range covers. */
import type { Fresh } from '../model/fresh';
import { locate, type ParsedDocument, type PropertyNode, type ValueNode } from '../model/tree';
import type { RegistryState } from '../registry/types';
import type { FixContext, SchemaOwner } from './definition';
import type { CoreDiagnostic } from './diagnostic';

/** The context a definition's fixes receive for `diagnostic` (`owners`: for a schema file, the registry entries it is the schema of). */
export function fixContext(doc: ParsedDocument, diagnostic: CoreDiagnostic, fresh: Fresh, registry: RegistryState | undefined, owners: readonly SchemaOwner[] = []): FixContext {
  return {
    doc,
    diagnostic,
    fresh,
    registry,
    owners,
    propertyAtKey: () => propertyAtKey(doc, diagnostic),
    valueAt: () => valueAt(doc, diagnostic),
  };
}

/** The property whose key token the diagnostic covers. */
function propertyAtKey(doc: ParsedDocument, diagnostic: CoreDiagnostic): PropertyNode | undefined {
  const found = locate(doc.root, diagnostic.offset + 1).inKeyOf;
  return found && found.keyOffset === diagnostic.offset && found.keyEnd === diagnostic.end ? found : undefined;
}

/** The value token the diagnostic covers exactly. */
function valueAt(doc: ParsedDocument, diagnostic: CoreDiagnostic): ValueNode | undefined {
  const { node } = locate(doc.root, diagnostic.offset);
  if (!node || node.offset !== diagnostic.offset) return undefined;
  // Diagnostics on an object or array cover only its opening bracket.
  const container = node.kind === 'object' || node.kind === 'array';
  return node.end === diagnostic.end || (container && diagnostic.end === node.offset + 1) ? node : undefined;
}
