/**
 * Reading `registry.json` (bqschema format: `{"schemas":[{"urn","schema","owner","status"}]}`)
 * into entries and problems. What a JSON Schema for the file cannot say is checked here:
 * duplicate URNs and URNs that break the naming rules; and everything that makes `bqschema check`
 * refuse the registry (an `owner` or `status` that is not a string, too) is a problem.
 *
 * bqschema reads the file with Go's encoding/json into its structs, so the keys are read as Go
 * reads them: matched to the field names case-insensitively (`URN`, `Owner`, `SCHEMAS`), the last
 * of several keys for one field winning, a `null` leaving the field as it was, and a value of
 * another type anywhere failing the whole registry (checked with go1.19's encoding/json).
 */
import { messageOutsideEnvelope, parseTextSteps } from '../parse/parser';
import { columnsOf } from '../parse/document';
import { Flag, Kind, stringValue, type Columns } from '../parse/columns';
import { asObject, type ObjectNode, type ParsedDocument, type ValueNode } from '../model/tree';
import { checkUrnNaming, quotedUrn } from '../contract/urn';
import { goFold } from '../encode/go';
import type { RegistryIndexEntry, RegistryProblem } from './types';
import { runSteps, type Steps } from '../model/steps';
import { digitGroups } from '../model/count-words';
import { shortened } from '../model/describe-value';

export type RegistryIndex =
  | { readonly ok: true; readonly doc: ParsedDocument; readonly entries: readonly RegistryIndexEntry[]; readonly problems: readonly RegistryProblem[]; readonly problemList: RegistryProblems }
  | { readonly ok: false; readonly doc: ParsedDocument; readonly error: string; readonly problems: readonly RegistryProblem[] };

/** True when a registry.json text is meant to be in bqschema format (it has a `schemas` key). */
export function looksLikeRegistry(text: string): boolean {
  // Any case, as bqschema's decoder matches the key.
  return /"schemas"\s*:/i.test(text);
}

/**
 * The most problems listed for one registry.json; the rest are counted and summed up in one
 * problem after them, as the parser does past its 1,000 syntax problems. A real registry has a
 * handful; a generated one of a million bad entries would otherwise build a million messages
 * (and the editor a million diagnostics): 2 GB and tens of seconds.
 */
export const MAX_REGISTRY_PROBLEMS = 1000;

/**
 * The name of the registry file as the format calls it, and as its messages call a file of that
 * name. One of another name (`--registry sub.json`, `babelqueue.registry.path`) is called by its
 * own name in the messages about it (`registryFileName`).
 */
export const REGISTRY_FORMAT_NAME = 'registry.json';

/** The problems of one registry.json as they are found: the first MAX_REGISTRY_PROBLEMS kept, the rest counted. */
export class RegistryProblems {
  private readonly listed: RegistryProblem[] = [];
  private unlisted = 0;
  private unlistedRefuse = false;
  private firstUnlisted: { offset: number; end: number } | undefined;
  private readonly always: RegistryProblem[] = [];

  /** `name`: the registry file as the messages call it. */
  constructor(readonly name: string = REGISTRY_FORMAT_NAME) {}

  /** True once no more problems are listed: a caller may skip building a message that would only be counted. */
  get full(): boolean {
    return this.listed.length >= MAX_REGISTRY_PROBLEMS;
  }

  add(problem: RegistryProblem): void {
    if (!this.full) this.listed.push(problem);
    else this.count(problem.offset, problem.end, problem.refusesRegistry === true);
  }

  /** A problem listed past the bound: one that sums up many others (never one per entry). */
  addAlways(problem: RegistryProblem): void {
    this.always.push(problem);
  }

  /** A problem past the listed ones, counted without its message. */
  count(offset: number, end: number, refusesRegistry = false): void {
    this.unlisted++;
    this.unlistedRefuse ||= refusesRegistry;
    // The earliest in the file: the problems of registry.json's entries come before those of their schema files.
    if (this.firstUnlisted === undefined || offset < this.firstUnlisted.offset) this.firstUnlisted = { offset, end };
  }

  /** How many problems were found, listed or not; undefined when every one is listed. */
  get countWhenUnlisted(): number | undefined {
    return this.unlisted === 0 ? undefined : this.listed.length + this.always.length + this.unlisted;
  }

  /** The problems listed, then (when some were not) one that says how many more there are, where the first of them is. */
  all(): RegistryProblem[] {
    if (this.unlisted === 0) return [...this.listed, ...this.always];
    const summary: RegistryProblem = {
      ...this.firstUnlisted!,
      message: `${this.name} has ${digitGroups(this.unlisted)} more problems than the ${digitGroups(MAX_REGISTRY_PROBLEMS)} listed, the first of them here; the rest are not listed (fix the ones listed, or check this is the registry you meant).`,
      ...(this.unlistedRefuse ? { refusesRegistry: true as const } : {}),
    };
    return [...this.listed, ...this.always, summary];
  }
}

/**
 * Parses registry.json text into its entries; never throws. `name`: the file as the messages about
 * it call it (`registryFileName`), registry.json by default.
 */
export function readRegistryIndex(text: string, name: string = REGISTRY_FORMAT_NAME): RegistryIndex {
  return runSteps(readRegistryIndexSteps(text, name));
}

/**
 * How many entries are read between two steps of `readRegistryIndexSteps`: a few milliseconds of
 * work, so a caller that yields between steps answers other requests within a slice.
 */
export const ENTRIES_PER_STEP = 1000;

/**
 * The name a registry file's messages call it by: its own name (the last segment of its path, cut
 * as a quoted path is when it is long), registry.json for one so named.
 */
export function registryFileName(path: string): string {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return name === '' ? REGISTRY_FORMAT_NAME : shortened(name, MAX_NAME_SHOWN);
}

/** The longest registry file name a message quotes whole (as cli/errors.ts quotedPath bounds a path). */
const MAX_NAME_SHOWN = 200;

/**
 * `readRegistryIndex` in steps: it yields during the parse (core/parse/parser.ts) and after
 * every ENTRIES_PER_STEP entries, so a caller with a clock (the language server) can give other
 * work a turn while a registry of hundreds of thousands of entries is read. The result is the same
 * as in one go.
 */
export function* readRegistryIndexSteps(text: string, name: string = REGISTRY_FORMAT_NAME): Steps<RegistryIndex> {
  const problemList = new RegistryProblems(name);
  const doc = yield* parseTextSteps(text);
  yield;
  if (doc.syntaxProblems.length > 0) {
    const first = doc.syntaxProblems[0];
    const error = `${name} is not valid JSON: ${messageOutsideEnvelope(first.message)}`;
    return { ok: false, doc, error, problems: [{ offset: first.offset, end: first.end, message: error, refusesRegistry: true }] };
  }
  const root = asObject(doc.root);
  const schemas = root && goFieldValue(root, 'schemas');
  if (!root || schemas?.kind !== 'array') {
    const at = schemas ?? doc.root;
    const error = `${name} must be an object with a "schemas" array of {"urn", "schema", "owner", "status"} entries (bqschema format).`;
    return { ok: false, doc, error, problems: [{ offset: at?.offset ?? 0, end: at ? Math.min(at.end, at.offset + 1) : 0, message: error, refusesRegistry: true }] };
  }
  const entries: RegistryIndexEntry[] = [];
  const seen = new Map<string, number>();
  // Every container of a parsed document is read from its columns.
  const { columns, slot: list } = columnsOf(schemas)!;
  const reader = new EntryReader(columns, doc.text, problemList);
  // The entries are read a step's worth at a time by a plain function: V8 runs a loop inside a
  // generator slower, and this one runs once per entry.
  for (let item = list + 1; item < columns.next[list]; ) {
    item = readEntries(reader, columns, item, columns.next[list], entries, seen, problemList);
    yield;
  }
  return { ok: true, doc, entries, problems: problemList.all(), problemList };
}

/** Reads up to ENTRIES_PER_STEP items of the `schemas` array from `item` on (before `end`); returns the item after them. */
function readEntries(reader: EntryReader, columns: Columns, item: number, end: number, entries: RegistryIndexEntry[], seen: Map<string, number>, problems: RegistryProblems): number {
  for (let count = 0; item < end && count < ENTRIES_PER_STEP; item = columns.next[item], count++) {
    const entry = reader.read(item);
    if (!entry) continue;
    const naming = checkUrnNaming(entry.urn);
    if (naming && problems.full) problems.count(entry.urnOffset, entry.urnEnd);
    else if (naming) problems.add({ offset: entry.urnOffset, end: entry.urnEnd, message: `The URN "${quotedUrn(entry.urn)}" breaks the naming rules: ${naming.message}` });
    const first = seen.get(entry.urn);
    if (first !== undefined) {
      if (problems.full) {
        problems.count(entry.urnOffset, entry.urnEnd, true);
        continue;
      }
      problems.add({ offset: entry.urnOffset, end: entry.urnEnd, message: `Duplicate URN "${quotedUrn(entry.urn)}": it is already registered (entry ${first + 1}); bqschema rejects the registry. Remove one.`, refusesRegistry: true });
      continue;
    }
    seen.set(entry.urn, entries.length);
    entries.push(entry);
  }
  return item;
}

/** The fields of an entry, in the order their problems are reported. */
const ENTRY_FIELDS = ['urn', 'schema', 'owner', 'status'] as const;
type EntryField = (typeof ENTRY_FIELDS)[number];

/**
 * Reads the entries straight from the parser's columns: a registry of 300,000 entries would
 * otherwise build some three million tree nodes that are read once and dropped.
 */
class EntryReader {
  /** The field index (into ENTRY_FIELDS) and slot of each keyed value of the entry being read (reused). */
  private readonly fieldOf: number[] = [];
  private readonly slotOf: number[] = [];
  /** Keys as Go folds them, each distinct key folded once. */
  private readonly folded = new Map<string, number>();

  constructor(
    private readonly columns: Columns,
    private readonly text: string,
    private readonly problems: RegistryProblems,
  ) {}

  read(item: number): RegistryIndexEntry | undefined {
    const { info, start, end } = this.columns;
    if ((info[item] & Flag.KindMask) !== Kind.Object) {
      this.problems.add({ offset: start[item], end: end[item], message: 'A registry entry must be an object {"urn", "schema", "owner", "status"}.', refusesRegistry: true });
      return undefined;
    }
    const count = this.collectFields(item);
    const urn = this.stringField(item, count, 'urn');
    const schema = this.stringField(item, count, 'schema');
    // bqschema decodes the entry into Go strings: any other JSON type (null aside) fails the whole registry.
    const owner = this.stringField(item, count, 'owner', true);
    const status = this.stringField(item, count, 'status', true);
    if (urn === undefined || schema === undefined) return undefined;
    return {
      urn: stringValue(this.columns, this.text, urn),
      schemaRef: stringValue(this.columns, this.text, schema),
      // Always both keys (undefined when absent): entries of one shape are quicker to make and read.
      owner: owner !== undefined ? stringValue(this.columns, this.text, owner) : undefined,
      status: status !== undefined ? stringValue(this.columns, this.text, status) : undefined,
      offset: start[item],
      end: end[item],
      urnOffset: start[urn],
      urnEnd: end[urn],
      schemaOffset: start[schema],
      schemaEnd: end[schema],
    };
  }

  /** Notes the properties of `item` that go into an entry field, in document order; returns how many. */
  private collectFields(item: number): number {
    const { next, keys } = this.columns;
    this.fieldOf.length = 0;
    this.slotOf.length = 0;
    for (let child = item + 1; child < next[item]; child = next[child]) {
      const field = this.fieldNamed(keys[child]!);
      if (field < 0) continue;
      this.fieldOf.push(field);
      this.slotOf.push(child);
    }
    return this.slotOf.length;
  }

  private fieldNamed(key: string): number {
    let field = this.folded.get(key);
    if (field === undefined) {
      field = ENTRY_FIELDS.indexOf(goFold(key) as EntryField);
      this.folded.set(key, field);
    }
    return field;
  }

  /**
   * The slot of a string field's value: every value of another type is a refusal of the whole
   * registry, as the decoder reports it; the last value that is not null wins (a null leaves a Go
   * field as it was); `urn` and `schema` must end non-empty, `owner` and `status` may be absent.
   */
  private stringField(item: number, count: number, key: EntryField, optional = false): number | undefined {
    const { info, start, end } = this.columns;
    const field = ENTRY_FIELDS.indexOf(key);
    let mistyped = false;
    let last = -1;
    let lastNull = -1;
    for (let i = 0; i < count; i++) {
      if (this.fieldOf[i] !== field) continue;
      const slot = this.slotOf[i];
      const kind = info[slot] & Flag.KindMask;
      if (kind === Kind.Null) {
        lastNull = slot;
        continue;
      }
      last = slot;
      if (kind === Kind.String) continue;
      mistyped = true;
      this.problems.add({
        offset: start[slot],
        end: end[slot],
        message: `"${key}" must be a string${optional ? ' (free text) or left out' : ''}: bqschema cannot decode ${describeKind(kind)} into it and refuses the whole registry (\`bqschema check\` and \`validate\` fail).`,
        refusesRegistry: true,
      });
    }
    if (last >= 0 && (info[last] & Flag.KindMask) === Kind.String && (optional || stringValue(this.columns, this.text, last).trim() !== '')) return last;
    if (optional || mistyped) return undefined;
    const at = last >= 0 ? last : lastNull;
    const where = at >= 0 ? { offset: start[at], end: end[at] } : { offset: start[item], end: start[item] + 1 };
    this.problems.add({ ...where, message: `A registry entry needs a non-empty "${key}" string${key === 'schema' ? ` (the path of a draft-07 JSON Schema for data, relative to ${this.problems.name})` : ''}.`, refusesRegistry: true });
    return undefined;
  }
}

/** The values of the keys encoding/json puts into the field `name`, in document order. */
function goFieldValues(object: ObjectNode, name: string): ValueNode[] {
  const values: ValueNode[] = [];
  for (const property of object.properties) if (property.value && goFold(property.key) === name) values.push(property.value);
  return values;
}

/** The value a field ends with: the last one that is not null (a null leaves a Go field as it was). */
function goFieldValue(object: ObjectNode, name: string): ValueNode | undefined {
  const values = goFieldValues(object, name).filter((value) => value.kind !== 'null');
  return values[values.length - 1];
}

const KIND_NAMES: Record<number, string> = { [Kind.Object]: 'an object', [Kind.Array]: 'an array', [Kind.Number]: 'a number', [Kind.Boolean]: 'a boolean' };

function describeKind(kind: Kind): string {
  return KIND_NAMES[kind];
}
