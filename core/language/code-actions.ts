/**
 * Quick fixes for diagnostics. Each fix is a list of non-overlapping text edits whose result is
 * valid JSON; `isPreferred` marks the one obvious fix when there is exactly one.
 */
import { decodeTimestampToMs } from '../contract/timestamps';
import { shiftToInteger } from '../model/decimal';
import type { CoreDiagnostic } from '../rules/diagnostic';
import type { TextEdit } from '../model/edits';
import { forbiddenKey, knownKeys, MILLIS_CEILING, RESERVED_ROOT_KEY, SDK_LANGS, SECONDS_CEILING, type EnvelopeScope } from '../contract/envelope';
import type { Fresh } from '../model/fresh';
import { insertProperty, removeProperty, renameKey, replaceValue } from '../model/property-edits';
import { asEnvelopeScope, scopeOfObject } from '../contract/scope';
import { hintsFrom, skeletonValue } from '../contract/skeletons';
import { asObject, getProperty, getValue, locate, type ObjectNode, type ParsedDocument, type PropertyNode, type ValueNode } from '../model/tree';
import { maskValue } from '../registry/pii';
import { closest } from '../model/edit-distance';
import type { Registry, RegistryState } from '../registry/types';
import { checkUrnNaming, resolveUrn } from '../contract/urn';

export interface CoreCodeAction {
  readonly title: string;
  readonly kind: 'quickfix';
  readonly isPreferred: boolean;
  /** The diagnostic this action fixes. */
  readonly diagnostic: CoreDiagnostic;
  readonly edits: readonly TextEdit[];
}

type Fix = { title: string; edits: TextEdit[] };

/** The quick fixes for the given diagnostics of a document. */
export function codeActions(doc: ParsedDocument, diagnostics: readonly CoreDiagnostic[], fresh: Fresh, registry?: RegistryState): CoreCodeAction[] {
  const actions: CoreCodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const fixes = fixesFor(doc, diagnostic, fresh, registry);
    for (const [index, fix] of fixes.entries()) {
      actions.push({ title: fix.title, kind: 'quickfix', isPreferred: index === 0 && preferFirst(diagnostic, fixes), diagnostic, edits: fix.edits });
    }
  }
  return actions;
}

/** A fix is preferred when it is the only one, or when the first of several is the obvious one. */
function preferFirst(diagnostic: CoreDiagnostic, fixes: readonly Fix[]): boolean {
  if (fixes.length === 1) return diagnostic.code !== 'float-currency';
  // Cents assume two decimal places (not JPY, not BHD), so no float-currency fix is preferred.
  return diagnostic.code === 'forbidden-key' && fixes[0].title.startsWith('Move');
}

function fixesFor(doc: ParsedDocument, diagnostic: CoreDiagnostic, fresh: Fresh, registry: RegistryState | undefined): Fix[] {
  switch (diagnostic.code) {
    case 'unknown-urn':
      return registry?.kind === 'loaded' ? unknownUrnFixes(doc, diagnostic, registry.registry) : [];
    case 'pii-in-fixture':
      return maskFixes(doc, diagnostic);
    case 'forbidden-key':
      return forbiddenKeyFixes(doc, diagnostic);
    case 'reserved-key':
      return removeKeyFix(doc, diagnostic, (key) => `Remove the reserved "${key}" key`);
    case 'urn-alias':
      return urnAliasFixes(doc, diagnostic);
    case 'missing-field':
      return missingFieldFixes(doc, diagnostic, fresh);
    case 'wrong-type':
      return wrongTypeFixes(doc, diagnostic);
    case 'invalid-urn':
      return invalidUrnFixes(doc, diagnostic);
    case 'unknown-lang':
      return unknownLangFixes(doc, diagnostic);
    case 'timestamp-unit':
      return timestampUnitFixes(doc, diagnostic);
    case 'case-mismatch':
      return caseMismatchFixes(doc, diagnostic);
    case 'float-currency':
      return floatCurrencyFixes(doc, diagnostic);
    case 'non-json-boolean':
      return booleanFixes(doc, diagnostic);
    case 'id-equals-trace':
    case 'invalid-uuid':
      return uuidFixes(doc, diagnostic, fresh);
    default:
      return [];
  }
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

function scopeOfProperty(property: PropertyNode): EnvelopeScope | undefined {
  return asEnvelopeScope(scopeOfObject(property.parent));
}

function removeKeyFix(doc: ParsedDocument, diagnostic: CoreDiagnostic, title: (key: string) => string): Fix[] {
  const property = propertyAtKey(doc, diagnostic);
  return property ? [{ title: title(property.key), edits: [removeProperty(property)] }] : [];
}

function forbiddenKeyFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const property = propertyAtKey(doc, diagnostic);
  if (!property) return [];
  const scope = scopeOfProperty(property);
  const name = scope === 'meta' ? `meta.${property.key}` : property.key;
  const remove: Fix = { title: `Remove forbidden key "${name}"`, edits: [removeProperty(property)] };
  if (scope !== 'root' || property.key !== 'timestamp') return [remove];
  const meta = asObject(getValue(asObject(doc.root), 'meta'));
  const milliseconds = property.value ? decodeTimestampToMs(property.value) : undefined;
  if (!meta || getProperty(meta, 'created_at') || milliseconds === undefined || !isMillisecondRange(milliseconds)) return [remove];
  // The removal is at the root and the insertion inside meta, so the two edits never overlap.
  return [
    { title: `Move "timestamp" into meta.created_at as Unix milliseconds (${milliseconds})`, edits: [removeProperty(property), insertProperty(doc, meta, 'created_at', milliseconds)] },
    remove,
  ];
}

function urnAliasFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const urn = propertyAtKey(doc, diagnostic);
  if (!urn) return [];
  const job = getProperty(urn.parent, 'job');
  if (!job) return [{ title: 'Rename "urn" to "job"', edits: [renameKey(urn, 'job')] }];
  if (resolveUrn(job, urn)?.from === 'job') return [{ title: 'Remove "urn" ("job" wins)', edits: [removeProperty(urn)] }];
  // job is blank or not a string: the urn alias is what consumers route on, so it becomes job.
  return [{ title: 'Replace the unusable "job" with "urn" renamed to "job"', edits: [removeProperty(job), renameKey(urn, 'job')] }];
}

function missingFieldFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic, fresh: Fresh): Fix[] {
  const subject = diagnostic.subject;
  const root = asObject(doc.root);
  if (!subject || !root) return [];
  const [scopeName, field] = subject.includes('.') ? subject.split('.', 2) : ['root', subject];
  const scope = scopeName as EnvelopeScope;
  const object: ObjectNode | undefined = scope === 'root' ? root : asObject(getValue(root, scopeName));
  if (!object || getProperty(object, field)) return [];
  const value = skeletonValue(scope, field, fresh, hintsFrom(doc));
  if (value === undefined) return [];
  return [{ title: `Add "${subject}": ${describeInsert(value)}`, edits: [insertProperty(doc, object, field, value)] }];
}

function describeInsert(value: unknown): string {
  if (value !== null && typeof value === 'object') return Object.keys(value).length === 0 ? '{}' : '{…}';
  return JSON.stringify(value);
}

function wrongTypeFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const value = valueAt(doc, diagnostic);
  const key = value?.property?.key;
  if (!value || !key) return [];
  const integerField = ['attempts', 'schema_version', 'created_at', 'failed_at'].includes(key);
  if (integerField && value.kind === 'string' && /^\d+$/.test(value.value) && Number.isSafeInteger(Number(value.value))) {
    return [{ title: `Write "${key}" as the integer ${Number(value.value)}`, edits: [replaceValue(value, String(Number(value.value)))] }];
  }
  if (integerField && value.kind === 'number' && Number.isSafeInteger(value.value) && !Object.is(value.value, -0)) {
    return [{ title: `Write "${key}" as the integer literal ${value.value}`, edits: [replaceValue(value, String(value.value))] }];
  }
  if (key === 'data' && value.kind === 'array' && value.items.length === 0) {
    return [{ title: 'Replace the empty array with an empty object {}', edits: [replaceValue(value, '{}')] }];
  }
  return [];
}

function invalidUrnFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const value = valueAt(doc, diagnostic);
  if (value?.kind !== 'string') return [];
  const repaired = value.value.trim().toLowerCase();
  if (repaired === value.value || checkUrnNaming(repaired)) return [];
  return [{ title: `Trim and lowercase the URN to "${repaired}"`, edits: [replaceValue(value, JSON.stringify(repaired))] }];
}

function unknownLangFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const value = valueAt(doc, diagnostic);
  if (value?.kind !== 'string') return [];
  const lower = value.value.trim().toLowerCase();
  if (!(SDK_LANGS as readonly string[]).includes(lower)) return [];
  return [{ title: `Write "${lower}"`, edits: [replaceValue(value, JSON.stringify(lower))] }];
}

function timestampUnitFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const value = valueAt(doc, diagnostic);
  if (value?.kind !== 'number' || !value.isIntegerLiteral || value.value <= 0) return [];
  const key = value.property?.key ?? 'timestamp';
  // Offer only the readings that land in the millisecond range, so the fix really fixes.
  const readings: { unit: string; text: string | undefined }[] =
    value.value < SECONDS_CEILING
      ? [{ unit: 'seconds', text: shiftToInteger(value.raw, 3) }]
      : [
          { unit: 'microseconds', text: value.raw.slice(0, -3) },
          { unit: 'nanoseconds', text: value.raw.slice(0, -6) },
        ];
  return readings
    .filter((reading): reading is { unit: string; text: string } => reading.text !== undefined && reading.text !== '' && isMillisecondRange(Number(reading.text)))
    .map((reading) => ({ title: `Convert "${key}" from ${reading.unit} to milliseconds (${reading.text})`, edits: [replaceValue(value, reading.text)] }));
}

function isMillisecondRange(value: number): boolean {
  return value >= SECONDS_CEILING && value <= MILLIS_CEILING;
}

function caseMismatchFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const property = propertyAtKey(doc, diagnostic);
  const scope = property && scopeOfProperty(property);
  if (!property || !scope) return [];
  const meant = knownKeys(scope).find((key) => key.toLowerCase() === property.key.toLowerCase());
  // Renaming onto a forbidden or reserved key, or onto a key already present, would add a problem.
  if (!meant || forbiddenKey(scope, meant) || meant === RESERVED_ROOT_KEY || getProperty(property.parent, meant)) return [];
  return [{ title: `Rename "${property.key}" to "${meant}"`, edits: [renameKey(property, meant)] }];
}

function floatCurrencyFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const value = valueAt(doc, diagnostic);
  const property = value?.property;
  if (value?.kind !== 'number' || !property) return [];
  const fixes: Fix[] = [];
  const cents = shiftToInteger(value.raw, 2);
  const centsKey = /[a-z0-9][A-Z]/.test(property.key) ? `${property.key}Cents` : `${property.key}_cents`;
  if (cents !== undefined && !getProperty(property.parent, centsKey)) {
    fixes.push({ title: `Convert to integer minor units: "${centsKey}": ${cents}`, edits: [renameKey(property, centsKey), replaceValue(value, cents)] });
  }
  fixes.push({ title: `Carry the amount as a decimal string: "${value.raw}"`, edits: [replaceValue(value, JSON.stringify(value.raw))] });
  return fixes;
}

function booleanFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const value = valueAt(doc, diagnostic);
  if (!value) return [];
  const truthy = value.kind === 'number' ? value.raw === '1' : value.kind === 'string' && value.value.toLowerCase() === 'true';
  return [{ title: `Write the JSON boolean ${truthy}`, edits: [replaceValue(value, String(truthy))] }];
}

function uuidFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic, fresh: Fresh): Fix[] {
  const value = valueAt(doc, diagnostic);
  if (value?.kind !== 'string') return [];
  const name = value.property?.parent.parent ? `meta.${value.property.key}` : value.property?.key ?? 'id';
  return [{ title: `Replace "${name}" with a fresh UUID`, edits: [replaceValue(value, JSON.stringify(fresh.uuid()))] }];
}

function unknownUrnFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic, registry: Registry): Fix[] {
  const value = valueAt(doc, diagnostic);
  if (value?.kind !== 'string') return [];
  return closest(value.value, registry.byUrn.keys()).map((urn) => ({ title: `Change the URN to "${urn}"`, edits: [replaceValue(value, JSON.stringify(urn))] }));
}

function maskFixes(doc: ParsedDocument, diagnostic: CoreDiagnostic): Fix[] {
  const value = valueAt(doc, diagnostic);
  if (!value) return [];
  const masked = maskValue(value.kind === 'string' ? value.value : undefined);
  return [{ title: `Mask the value as ${JSON.stringify(masked)}`, edits: [replaceValue(value, JSON.stringify(masked))] }];
}
