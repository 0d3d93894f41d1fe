/**
 * Hovers for the contract: a core key explains its field (type, required, mutable, one sentence
 * from the contract); `created_at` and `failed_at` show the UTC date and time they mean.
 */
import { fieldSpec, forbiddenKey, type EnvelopeScope, type FieldSpec } from '../contract/envelope';
import { registryHover } from './registry-navigation';
import type { RegistryState } from '../registry/types';
import { asEnvelopeScope, scopeOfObject } from '../contract/scope';
import { formatUtc } from '../contract/time';
import { numberLiteral } from '../model/describe-value';
import { locateAtCursor, type ParsedDocument, type PropertyNode } from '../model/tree';

export interface CoreHover {
  /** Markdown. */
  readonly contents: string;
  readonly offset: number;
  readonly end: number;
}

const TYPE_NAMES: Record<FieldSpec['type'], string> = {
  string: 'string',
  uuid: 'string (UUID)',
  urn: 'string (URN)',
  object: 'object',
  integer: 'integer',
  timestamp: 'integer (Unix ms, UTC)',
  'nullable-string': 'string or null',
  enum: 'string (enum)',
};

/** The hover at `offset` (registry entries and payload fields first), or undefined. */
export function hover(doc: ParsedDocument, offset: number, registry?: RegistryState): CoreHover | undefined {
  if (registry?.kind === 'loaded') {
    const fromRegistry = registryHover(doc, offset, registry.registry);
    if (fromRegistry) return fromRegistry;
  }
  const location = locateAtCursor(doc.root, offset);
  const property = location.inKeyOf ?? (location.node?.property && location.node.kind !== 'object' && location.node.kind !== 'array' ? location.node.property : undefined);
  if (!property) return undefined;
  const scope = asEnvelopeScope(scopeOfObject(property.parent));
  if (!scope) return undefined;
  const onKey = property === location.inKeyOf;
  const range = onKey ? { offset: property.keyOffset, end: property.keyEnd } : { offset: property.value!.offset, end: property.value!.end };
  const contents = describeProperty(scope, property);
  return contents ? { contents, ...range } : undefined;
}

function describeProperty(scope: EnvelopeScope, property: PropertyNode): string | undefined {
  const path = scope === 'root' ? property.key : `${scope}.${property.key}`;
  const forbidden = forbiddenKey(scope, property.key);
  if (forbidden) return `**\`${path}\`** — forbidden\n\nNot part of the envelope contract. Use ${forbidden.replacement}.`;
  const spec = fieldSpec(scope, property.key);
  if (!spec) return undefined;
  const facts = [TYPE_NAMES[spec.type], spec.required ? 'required' : 'optional', spec.mutable ? 'mutable (transport state)' : 'immutable'];
  const lines = [`**\`${path}\`** · ${facts.join(' · ')}`, '', spec.doc];
  if (spec.values) lines.push('', `Values: ${spec.values.map((value) => `\`${value}\``).join(', ')}`);
  const value = property.value;
  if (spec.type === 'timestamp' && value?.kind === 'number' && Number.isFinite(value.value)) {
    // The number as written, shortened: a timestamp of thousands of digits would fill the hover.
    lines.push('', `\`${numberLiteral(value.raw)}\` ms = **${formatUtc(value.value)}** (UTC)`);
  }
  return lines.join('\n');
}
