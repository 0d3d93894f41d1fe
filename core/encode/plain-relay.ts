/**
 * Whether no SDK encoder would note anything lossy or against the contract when it relays a
 * document (what it writes may still differ in spelling, and a typed SDK may refuse or blank a
 * core field of the wrong type, which its encoder reports as a failure, not as a note). Decided
 * from the parser's columns in one pass, so a rule that acts only on such notes (consumer-rejects)
 * need not run the six encoders on the everyday fixture.
 *
 * Conservative by construction: each condition rules out one source of such notes in the encoders
 * (core/encode/*.ts), and anything not plainly safe answers false, which only means "encode and
 * look". test/core/encode/plain-relay.test.ts holds the claim against the encoders themselves.
 */
import { DEAD_LETTER_FIELDS, META_FIELDS, ROOT_FIELDS, type FieldSpec } from '../contract/envelope';
import type { ParsedDocument } from '../model/tree';
import { Flag, Kind, type Columns } from '../parse/columns';
import { columnsOf } from '../parse/document';

const INT32_MAX = 2 ** 31 - 1;

/** The keys a typed SDK (Go, Java, .NET) decodes in a scope, each with its field; the others it drops. */
const fieldsOf = (specs: readonly FieldSpec[]) => new Map(specs.map((spec) => [spec.name, spec]));
const ROOT = fieldsOf(ROOT_FIELDS);
const META = fieldsOf(META_FIELDS);
const DEAD_LETTER = fieldsOf(DEAD_LETTER_FIELDS);

/** True when no encoder would note a lossy or contract change relaying `doc` (see the file's comment). */
export function relaysUnchanged(doc: ParsedDocument): boolean {
  if (doc.syntaxProblems.length > 0 || !doc.root || doc.root.kind !== 'object') return false;
  const origin = columnsOf(doc.root);
  if (!origin || origin.slot !== 0) return false;
  const { columns } = origin;
  let data = -1;
  // The envelope's own scopes: only the fields the typed SDKs know (what they drop is a note), with
  // `data` an object that PHP writes as one, and integer fields every SDK reads as written.
  for (let slot = 1; slot < columns.next[0]; slot = columns.next[slot]) {
    const key = columns.keys[slot];
    const field = key === undefined ? undefined : ROOT.get(key);
    if (!field) return false;
    if (key === 'data') data = slot;
    if ((key === 'meta' || key === 'dead_letter') && !scopeKnown(columns, slot, key === 'meta' ? META : DEAD_LETTER)) return false;
    if (!valueReadAsWritten(columns, slot, field)) return false;
  }
  if (data < 0 || (columns.info[data] & Flag.KindMask) !== Kind.Object) return false;
  return everyValuePlain(columns);
}

/** An object whose keys are all fields of the scope, each holding a value read as written. */
function scopeKnown(columns: Columns, slot: number, fields: ReadonlyMap<string, FieldSpec>): boolean {
  if ((columns.info[slot] & Flag.KindMask) !== Kind.Object) return false;
  for (let child = slot + 1; child < columns.next[slot]; child = columns.next[child]) {
    const key = columns.keys[child];
    const field = key === undefined ? undefined : fields.get(key);
    if (!field || !valueReadAsWritten(columns, child, field)) return false;
  }
  return true;
}

/** An integer field holds an integer every SDK writes as is, within the narrowest type one reads it into. */
function valueReadAsWritten(columns: Columns, slot: number, field: FieldSpec): boolean {
  if (field.type !== 'integer' && field.type !== 'timestamp') return true;
  const flags = columns.info[slot];
  if ((flags & Flag.KindMask) !== Kind.Number || !(flags & Flag.Integer) || !(flags & Flag.PlainNumber)) return false;
  return Math.abs(columns.values[slot]) <= (field.type === 'integer' ? INT32_MAX : Number.MAX_SAFE_INTEGER);
}

/**
 * Every value and key of the document, in one pass: numbers and strings every SDK writes as is,
 * keys of printable ASCII, no key twice in an object, no empty object and none keyed "0", "1", …
 * (PHP writes those as arrays), no missing value.
 */
function everyValuePlain(columns: Columns): boolean {
  const { info, keys, next, count } = columns;
  for (let slot = 0; slot < count; slot++) {
    const flags = info[slot];
    switch (flags & Flag.KindMask) {
      case Kind.None:
        return false;
      case Kind.Number:
        if (!(flags & Flag.PlainNumber)) return false;
        break;
      case Kind.String:
        if (!(flags & Flag.WrittenAsIs)) return false;
        break;
      case Kind.Object: {
        if (next[slot] === slot + 1) return false;
        startObject();
        for (let child = slot + 1; child < next[slot]; child = next[child]) {
          const key = keys[child];
          if (key === undefined || key === '0' || !plainKey(key) || !firstTime(key)) return false;
        }
        break;
      }
    }
  }
  return true;
}

/**
 * The keys of the object being read: its first few in an array reused from object to object, the
 * rest in a set made once an object has more. A fixture is analysed by the thousand in a lint or
 * the workspace's report, and a set per object was a tenth of all that allocated.
 */
const LINEAR_KEYS = 16;
const firstKeys: string[] = new Array<string>(LINEAR_KEYS).fill('');
let keyCount = 0;
let moreKeys: Set<string> | undefined;

function startObject(): void {
  keyCount = 0;
  moreKeys = undefined;
}

/** Records `key` for the object being read: false when it had that key already. */
function firstTime(key: string): boolean {
  if (keyCount < LINEAR_KEYS) {
    for (let i = 0; i < keyCount; i++) if (firstKeys[i] === key) return false;
    firstKeys[keyCount++] = key;
    return true;
  }
  moreKeys ??= new Set(firstKeys);
  if (moreKeys.has(key)) return false;
  moreKeys.add(key);
  return true;
}

/** Printable ASCII without quote or backslash: every SDK writes such a key exactly as it is. */
function plainKey(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}
