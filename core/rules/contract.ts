/**
 * Contract rules: forbidden-key, unsupported-schema-version, invalid-uuid, id-equals-trace,
 * unknown-lang, timestamp-unit, dead-letter-order, case-mismatch, extension-key.
 * (The URN rules live in ./urn.ts.)
 */
import {
  forbiddenKey,
  isBlank,
  isUuid,
  knownKeys,
  META_EXTENSION_KEY,
  MILLIS_CEILING,
  SDK_LANGS,
  SECONDS_CEILING,
  type EnvelopeScope,
} from '../contract/envelope';
import { formatUtc } from '../contract/time';
import { getValue, type NumberNode, type ObjectNode, type ValueNode } from '../model/tree';
import { keyRange, type Rule, type RuleContext } from './context';

/** forbidden-key: the forbidden table, at the top level and in meta. */
export const checkForbiddenKeys: Rule = (context) => {
  const { root, meta } = context.envelope;
  for (const [scope, object] of [['root', root], ['meta', meta]] as const) {
    if (!object) continue;
    for (const property of object.properties) {
      const entry = forbiddenKey(scope, property.key);
      if (!entry) continue;
      const where = scope === 'root' ? `"${entry.key}"` : `"meta.${entry.key}"`;
      context.report('forbidden-key', keyRange(property), `${where} is forbidden by the envelope contract (consumers drop it with a warning, encoders reject it). Use ${entry.replacement} instead.`);
    }
  }
};

/** unsupported-schema-version: an integer schema_version other than 1. */
export const checkSchemaVersion: Rule = (context) => {
  const version = getValue(context.envelope.meta, 'schema_version');
  if (version?.kind === 'number' && version.isIntegerLiteral && version.value !== 1) {
    context.report('unsupported-schema-version', version, `schema_version ${version.raw} is not supported: the envelope is frozen at 1, and consumers must reject or quarantine any other version.`);
  }
};

/** invalid-uuid and id-equals-trace on trace_id and meta.id. */
export const checkIdentifiers: Rule = (context) => {
  const { root, meta } = context.envelope;
  const traceId = getValue(root, 'trace_id');
  const id = getValue(meta, 'id');
  for (const [name, value] of [['trace_id', traceId], ['meta.id', id]] as const) {
    if (value?.kind === 'string' && !isBlank(value.value) && !isUuid(value.value)) {
      context.report('invalid-uuid', value, `"${name}" is not a UUID (8-4-4-4-12 hex digits, e.g. "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b"); SDKs accept any string on decode, but producers mint UUIDs.`);
    }
  }
  // UUIDs compare case-insensitively: "ABC…" and "abc…" are the same identifier.
  if (traceId?.kind === 'string' && id?.kind === 'string' && !isBlank(id.value) && id.value.toLowerCase() === traceId.value.toLowerCase()) {
    context.report('id-equals-trace', id, '"meta.id" equals "trace_id": meta.id identifies this one message (the dedup key), trace_id correlates a whole chain. Mint a fresh meta.id.');
  }
};

/** unknown-lang on meta.lang and dead_letter.lang. */
export const checkLang: Rule = (context) => {
  const { meta, deadLetter } = context.envelope;
  for (const [name, value] of [['meta.lang', getValue(meta, 'lang')], ['dead_letter.lang', getValue(deadLetter, 'lang')]] as const) {
    if (value?.kind !== 'string' || (SDK_LANGS as readonly string[]).includes(value.value)) continue;
    const lower = value.value.trim().toLowerCase();
    const hint = (SDK_LANGS as readonly string[]).includes(lower) ? ` Did you mean "${lower}"?` : '';
    context.report(
      'unknown-lang',
      value,
      `"${name}" ${JSON.stringify(value.value)} is not one of ${SDK_LANGS.join(', ')}. Consumers accept and forward it, but a producer may not emit it.${hint}`,
    );
  }
};

/** timestamp-unit and dead-letter-order on created_at and failed_at. */
export const checkTimestamps: Rule = (context) => {
  const { meta, deadLetter } = context.envelope;
  const createdAt = integerValue(getValue(meta, 'created_at'));
  const failedAt = integerValue(getValue(deadLetter, 'failed_at'));
  let unitsDiffer = false;
  for (const [name, node] of [['meta.created_at', createdAt], ['dead_letter.failed_at', failedAt]] as const) {
    if (!node || node.value < 0) continue;
    const message = timestampUnitMessage(name, node.value);
    if (message) {
      unitsDiffer = true;
      context.report('timestamp-unit', node, message);
    }
  }
  // Comparing seconds with milliseconds would only add noise to the unit warning.
  if (!unitsDiffer && createdAt && failedAt && failedAt.value >= 0 && failedAt.value < createdAt.value) {
    context.report(
      'dead-letter-order',
      failedAt,
      `"dead_letter.failed_at" (${formatUtc(failedAt.value)}) is earlier than "meta.created_at" (${formatUtc(createdAt.value)}): a message cannot fail before it was created.`,
    );
  }
};

/** The reading of a timestamp that is not in milliseconds, or undefined when it looks like ms. */
export function timestampUnitMessage(name: string, value: number): string | undefined {
  if (value < SECONDS_CEILING) {
    return `"${name}" ${value} looks like seconds, not Unix milliseconds: as milliseconds it means ${formatUtc(value)}, as seconds ${formatUtc(value * 1000)}. Write ${value * 1000}.`;
  }
  if (value > MILLIS_CEILING) {
    return `"${name}" ${value} looks like microseconds or nanoseconds, not Unix milliseconds: as milliseconds it means ${formatUtc(value)}, as microseconds ${formatUtc(value / 1e3)}, as nanoseconds ${formatUtc(value / 1e6)}.`;
  }
  return undefined;
}

function integerValue(value: ValueNode | undefined): NumberNode | undefined {
  return value?.kind === 'number' && value.isIntegerLiteral ? value : undefined;
}

/** case-mismatch in the three blocks, extension-key in meta. */
export const checkKeyNames: Rule = (context) => {
  const { root, meta, deadLetter } = context.envelope;
  if (root) checkCase(context, root, 'root');
  if (deadLetter) checkCase(context, deadLetter, 'dead_letter');
  if (meta) {
    const mismatched = checkCase(context, meta, 'meta');
    checkExtensionKeys(context, meta, mismatched);
  }
};

const lowerCaseKeyMaps = new Map<EnvelopeScope, ReadonlyMap<string, string>>();

/** The known keys of a block by their lowercase spelling (made once per block). */
function lowerCaseKeys(scope: EnvelopeScope, known: readonly string[]): ReadonlyMap<string, string> {
  let map = lowerCaseKeyMaps.get(scope);
  if (!map) {
    map = new Map(known.map((key) => [key.toLowerCase(), key]));
    lowerCaseKeyMaps.set(scope, map);
  }
  return map;
}

/** Reports case-mismatched keys in one block; returns the keys it reported. */
function checkCase(context: RuleContext, object: ObjectNode, scope: EnvelopeScope): Set<string> {
  const known = knownKeys(scope);
  const byLower = lowerCaseKeys(scope, known);
  const reported = new Set<string>();
  for (const property of object.properties) {
    if (known.includes(property.key)) continue;
    const meant = byLower.get(property.key.toLowerCase());
    if (!meant) continue;
    reported.add(property.key);
    const where = scope === 'root' ? '' : `${scope}.`;
    context.report(
      'case-mismatch',
      keyRange(property),
      `"${where}${property.key}" is not "${where}${meant}": keys match byte-wise and case-sensitively, so this is an unknown key (preserved on re-emit). Did you mean "${meant}"?`,
    );
  }
  return reported;
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

function checkExtensionKeys(context: RuleContext, meta: ObjectNode, skip: Set<string>): void {
  const known = knownKeys('meta');
  for (const property of meta.properties) {
    if (known.includes(property.key) || skip.has(property.key)) continue;
    const naming = SNAKE_CASE.test(property.key) ? '' : ' It is not snake_case either.';
    context.report(
      'extension-key',
      keyRange(property),
      `Extra meta key "${property.key}": typed SDKs (Go, Java, .NET) drop unknown keys when they relay a message. Put vendor data under "meta.ext.<vendor>".${naming}`,
    );
  }
  const ext = meta.properties.find((property) => property.key === META_EXTENSION_KEY)?.value;
  if (!ext) return;
  if (ext.kind !== 'object') {
    context.report('extension-key', ext, '"meta.ext" holds vendor blocks: an object such as { "acme": { "tier": "gold" } }.');
    return;
  }
  for (const vendor of ext.properties) {
    if (!SNAKE_CASE.test(vendor.key)) context.report('extension-key', keyRange(vendor), `Vendor name "${vendor.key}" should be snake_case.`);
    if (vendor.value && vendor.value.kind !== 'object') {
      context.report('extension-key', vendor.value, `"meta.ext.${vendor.key}" should be an object of the vendor's keys.`);
      continue;
    }
    for (const key of vendor.value?.kind === 'object' ? vendor.value.properties : []) {
      if (!SNAKE_CASE.test(key.key)) context.report('extension-key', keyRange(key), `Extension key "${key.key}" should be snake_case.`);
    }
  }
}
