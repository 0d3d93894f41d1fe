/**
 * Completion for the contract: the keys an object still lacks (with value skeletons), the
 * `meta.lang` and `dead_letter.reason` enums, and `1` for `schema_version`.
 */
import { fieldsOf, fieldSpec, URN_ALIAS_FIELD, type EnvelopeScope, type FieldSpec } from '../contract/envelope';
import type { Fresh } from '../model/fresh';
import { asEnvelopeScope, scopeOfObject } from '../contract/scope';
import { registryCompletions } from './registry-completion';
import { isDeprecatedStatus, type RegistryState } from '../registry/types';
import { hintsFrom, skeletonValue, type SkeletonHints } from '../contract/skeletons';
import { commaBefore, findSlot, nextSignificant, type Slot } from './completion-slot';
import { valueSnippet } from './snippet';
import { getProperty, type ParsedDocument } from '../model/tree';
import type { CoreCompletionItem } from './completion-item';

export type { CoreCompletionItem } from './completion-item';

/** The completion items at `offset`; with a registry, also URNs and the payload schema's fields. */
export function complete(doc: ParsedDocument, offset: number, fresh: Fresh, registry?: RegistryState): CoreCompletionItem[] {
  return completeList(doc, offset, fresh, registry).items;
}

/** As `complete`, saying whether the list is incomplete (a large registry's URNs: the editor asks again as the user types). */
export function completeList(doc: ParsedDocument, offset: number, fresh: Fresh, registry?: RegistryState): { items: CoreCompletionItem[]; incomplete: boolean } {
  const slot = findSlot(doc, offset);
  if (!slot) return { items: [], incomplete: false };
  const typed = doc.text.slice(slot.offset, Math.max(slot.offset, Math.min(offset, slot.end)));
  const fromRegistry = registry?.kind === 'loaded' ? registryCompletions(doc, slot, registry.registry, typed) : undefined;
  if (fromRegistry) return fromRegistry;
  if (slot.kind === 'key') {
    const scope = asEnvelopeScope(scopeOfObject(slot.object));
    return { items: scope ? keyItems(doc, slot, scope, fresh, registry) : [], incomplete: false };
  }
  const scope = asEnvelopeScope(scopeOfObject(slot.property.parent));
  return { items: scope ? valueItems(doc, slot, scope, fresh) : [], incomplete: false };
}

function keyItems(doc: ParsedDocument, slot: Extract<Slot, { kind: 'key' }>, scope: EnvelopeScope, fresh: Fresh, registry: RegistryState | undefined): CoreCompletionItem[] {
  const present = (key: string) => {
    const property = getProperty(slot.object, key);
    return property !== undefined && property !== slot.replacing;
  };
  const candidates: FieldSpec[] = fieldsOf(scope).filter((field) => !present(field.name));
  // With the urn alias present, offering job would build the job+urn shape that drops one of them.
  const offered = scope === 'root' && present('urn') ? candidates.filter((field) => field.name !== 'job') : candidates;
  const hasColon = slot.replacing !== undefined && slot.replacing.colonOffset >= 0;
  const needsComma = !hasColon && nextSignificant(doc.text, slot.end) === '"';
  return offered.map((field) => {
    const value = skeletonValue(scope, field.name, fresh, hintsFrom(doc));
    const keyText = JSON.stringify(field.name);
    // With a registry, `job` offers its URNs as the snippet's choice (active first) instead of a placeholder URN.
    const urns = scope === 'root' && field.name === 'job' ? registeredUrnChoice(registry) : undefined;
    const insertText = hasColon ? keyText : `${keyText}: ${urns ?? valueSnippet(value)}${needsComma ? ',' : ''}`;
    return {
      label: field.name,
      kind: 'property' as const,
      detail: `${field.required ? 'required' : 'optional'} · ${scope === 'root' ? '' : `${scope}.`}${field.name}`,
      documentation: field.doc,
      insertText,
      isSnippet: !hasColon,
      offset: slot.offset,
      end: slot.end,
      ...commaBefore(slot),
      sortText: `${field.required ? '0' : '1'}_${String(fieldsOf(scope).indexOf(field)).padStart(2, '0')}`,
    };
  });
}

/** The most URNs the `job` key's snippet offers as a choice (a registry of 300,000 made a 10 MB snippet). */
const MAX_URN_CHOICES = 100;

/** `"${1|urn:a,urn:b|}"`: the registry's URNs as a snippet choice, active ones first; undefined without a usable one. */
function registeredUrnChoice(registry: RegistryState | undefined): string | undefined {
  if (registry?.kind !== 'loaded') return undefined;
  const entries = [...registry.registry.byUrn.values()];
  // A choice cannot hold these characters unescaped; a URN that does is left to value completion.
  // A choice list is for picking by eye: past MAX_URN_CHOICES, value completion inside the quotes filters the rest.
  const urns = [...entries.filter((entry) => !isDeprecatedStatus(entry.status)), ...entries.filter((entry) => isDeprecatedStatus(entry.status))]
    .map((entry) => entry.urn)
    .filter((urn) => !/[,|\\$}"]/.test(urn))
    .slice(0, MAX_URN_CHOICES);
  return urns.length > 0 ? `"\${1|${urns.join(',')}|}"` : undefined;
}

function valueItems(doc: ParsedDocument, slot: Extract<Slot, { kind: 'value' }>, scope: EnvelopeScope, fresh: Fresh): CoreCompletionItem[] {
  const key = slot.property.key;
  const spec = fieldSpec(scope, key);
  if (!spec || spec === URN_ALIAS_FIELD) return [];
  const base = { offset: slot.offset, end: slot.end, isSnippet: false };
  if (spec.values) {
    return spec.values.map((value, index) => ({
      ...base,
      label: value,
      kind: 'enum' as const,
      detail: `${scope}.${key}`,
      insertText: JSON.stringify(value),
      sortText: String(index).padStart(2, '0'),
    }));
  }
  // As the key skeletons do, the value agrees with what the envelope already says (a dead letter's
  // original_queue names meta.queue, a creation time is not after the failure), so accepting it
  // draws no original-queue-mismatch or dead-letter-order; the value being typed is no hint to itself.
  const hints = hintsFrom(doc, slot.property.value);
  // One reading of the clock for the value and for its detail, which tells "now" by comparing with it.
  const now = fresh.now();
  const pinned: Fresh = { uuid: () => fresh.uuid(), now: () => now };
  const value = skeletonValue(scope, key, pinned, hints);
  if (value === undefined || (value !== null && typeof value === 'object')) return [];
  const path = scope === 'root' ? key : `${scope}.${key}`;
  return [{ ...base, label: JSON.stringify(value), kind: 'value', detail: `${path}: ${describe(scope, key, value, pinned, hints)}`, insertText: JSON.stringify(value), preselect: true }];
}

/** Where a value completion comes from, as its detail says. */
function describe(scope: EnvelopeScope, key: string, value: unknown, fresh: Fresh, hints: SkeletonHints): string {
  if (key === 'schema_version') return 'the only supported version';
  if (key === 'trace_id' || key === 'id') return 'a fresh UUID';
  if (key === 'created_at' || key === 'failed_at') {
    if (value === fresh.now()) return 'now, in Unix milliseconds';
    if (key === 'created_at' && value === hints.createdAt) return 'the legacy timestamp, in Unix milliseconds';
    return key === 'created_at' ? 'as dead_letter.failed_at (a message is not created after it failed)' : 'as meta.created_at (a message does not fail before it was created)';
  }
  if (key === 'queue' || key === 'original_queue') {
    if (hints.queue === undefined) return 'default';
    return scope === 'meta' ? 'as dead_letter.original_queue' : 'as meta.queue';
  }
  if (scope === 'dead_letter' && key === 'attempts' && hints.attempts !== undefined) return 'as the top-level attempts';
  return 'default';
}
