/** The registry entry an envelope's payload is checked against, when everything it needs is there. */
import { routingUrn } from '../../contract/urn';
import { getProperty, type ObjectNode, type PropertyNode } from '../../model/tree';
import type { CompiledSchema, RegistryEntry } from '../../registry/types';
import type { RuleContext } from '../context';

export interface PayloadEntry {
  readonly entry: RegistryEntry;
  /** Absent when only draft-07 refuses the schema: BabelQueue's validators still judge the payload by it. */
  readonly compiled: CompiledSchema | undefined;
  readonly data: ObjectNode;
  readonly dataProperty: PropertyNode;
}

/**
 * The loaded registry's entry for the envelope's URN, with its compiled schema and the `data`
 * object; undefined when any is missing (the registry-error, unknown-urn and wrong-type findings
 * say why). A schema that bqschema reads but draft-07 refuses comes without `compiled`.
 */
export function payloadEntry(context: RuleContext<never>): PayloadEntry | undefined {
  const { root, data } = context.envelope;
  const state = context.registry;
  if (!root || !data || state.kind !== 'loaded') return undefined;
  const resolved = routingUrn(root);
  const entry = resolved && state.registry.byUrn.get(resolved.node.value);
  const compiled = entry?.schema?.compiled;
  const readable = compiled !== undefined || (entry?.schema?.subsetReadable === true && entry.schema.doc?.root?.kind === 'object');
  const dataProperty = getProperty(root, 'data');
  return entry && readable && dataProperty ? { entry, compiled, data, dataProperty } : undefined;
}
