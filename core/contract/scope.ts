/** Where an object sits in the envelope, for hover, completion and fixes. */
import type { EnvelopeScope } from './envelope';
import type { ObjectNode } from '../model/tree';

export type ObjectScope = EnvelopeScope | 'data' | 'meta.ext' | 'other';

/** The envelope block an object is: the root, meta, dead_letter, data, meta.ext, or other. */
export function scopeOfObject(object: ObjectNode): ObjectScope {
  if (!object.parent) return 'root';
  const key = object.property?.key;
  const parent = object.parent;
  if (parent.kind === 'object' && !parent.parent) {
    if (key === 'meta') return 'meta';
    if (key === 'dead_letter') return 'dead_letter';
    if (key === 'data') return 'data';
    return 'other';
  }
  if (key === 'ext' && parent.kind === 'object' && scopeOfObject(parent) === 'meta') return 'meta.ext';
  return 'other';
}

/** Narrows a scope to the three blocks the contract defines fields for. */
export function asEnvelopeScope(scope: ObjectScope): EnvelopeScope | undefined {
  return scope === 'root' || scope === 'meta' || scope === 'dead_letter' ? scope : undefined;
}
