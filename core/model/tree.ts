/**
 * The document tree every rule, hover, completion and fix reads.
 *
 * It is our own small interface, not a parser library's types, so the parser underneath can be
 * replaced (for speed) without touching a single rule. Offsets are UTF-16 code-unit offsets into
 * the document text; `end` is exclusive.
 */

export type ValueNode = ObjectNode | ArrayNode | StringNode | NumberNode | BooleanNode | NullNode;
export type ContainerNode = ObjectNode | ArrayNode;

interface NodeBase {
  readonly offset: number;
  end: number;
  /** The object or array that holds this value; undefined for the root. */
  readonly parent: ContainerNode | undefined;
  /** The property whose value this node is; undefined for the root and for array items. */
  readonly property: PropertyNode | undefined;
}

export interface ObjectNode extends NodeBase {
  readonly kind: 'object';
  readonly properties: PropertyNode[];
  /** How many properties it has, when the parser that made it can count them without building them (core/parse/document.ts). */
  readonly childCount?: number;
  /** False when the text ends (or a mismatched bracket comes) before the closing `}`. */
  closed: boolean;
}

export interface ArrayNode extends NodeBase {
  readonly kind: 'array';
  readonly items: ValueNode[];
  /** How many items it has, as ObjectNode's childCount. */
  readonly childCount?: number;
  closed: boolean;
}

export interface StringNode extends NodeBase {
  readonly kind: 'string';
  /** The decoded string value (escapes resolved). */
  readonly value: string;
}

export interface NumberNode extends NodeBase {
  readonly kind: 'number';
  /** The number exactly as written, e.g. `1.0`, `-0`, `1e21`. */
  readonly raw: string;
  readonly value: number;
  /** True when the literal has neither a fraction nor an exponent (`1`, `-42`; not `1.0`, `1e2`). */
  readonly isIntegerLiteral: boolean;
}

export interface BooleanNode extends NodeBase {
  readonly kind: 'boolean';
  readonly value: boolean;
}

export interface NullNode extends NodeBase {
  readonly kind: 'null';
}

export interface PropertyNode {
  readonly key: string;
  /** Range of the key token including its quotes. */
  readonly keyOffset: number;
  readonly keyEnd: number;
  /** Offset of the `:`; -1 when the colon is missing. */
  colonOffset: number;
  /** Undefined when the text has a key but no value yet (`"job":` while typing). */
  value: ValueNode | undefined;
  readonly parent: ObjectNode;
}

export interface SyntaxProblem {
  readonly offset: number;
  readonly end: number;
  readonly message: string;
  /**
   * Only on the problem that ends a list the parser cut at its bound (`PROBLEMS_TRUNCATED` in
   * core/parse/parser.ts): true when every problem left out is a bare NaN, Infinity or -Infinity,
   * which some decoders read (Python's json.loads), false when any other is among them.
   */
  readonly unlistedAllNonFinite?: boolean;
  /**
   * The repairs the parser is sure of (core/parse/repairs.ts): one when the mistake has one
   * reading, two when its message offers two, none when what was meant is unknown. json-syntax's
   * quick fixes are made from these; the parser builds them only for the problems it reports.
   */
  readonly repairs?: readonly SyntaxRepair[];
}

/** One repair of a syntax problem: `text` written over `[offset, end)`, with the title its quick fix shows. */
export interface SyntaxRepair {
  readonly title: string;
  readonly offset: number;
  readonly end: number;
  readonly text: string;
}

/** A parsed document: the text, its root value (if any) and every syntax problem found. */
export interface ParsedDocument {
  readonly text: string;
  readonly root: ValueNode | undefined;
  readonly syntaxProblems: readonly SyntaxProblem[];
}

/** The end offset of a property: its value's end, else its colon, else its key. */
export function propertyEnd(property: PropertyNode): number {
  if (property.value) return property.value.end;
  if (property.colonOffset >= 0) return property.colonOffset + 1;
  return property.keyEnd;
}

/**
 * The property of `object` named `key` (byte-wise, case-sensitive) as a JSON decoder reads it: of
 * a key written more than once, the last copy (every SDK decoder keeps the last, facts part 2, §2
 * and §1.7; JSON.parse and ajv's input too). A copy without a value (broken text) counts only when
 * no copy has one. Go's merging of repeated objects is modelled where Go is (core/encode/go.ts).
 */
export function getProperty(object: ObjectNode | undefined, key: string): PropertyNode | undefined {
  if (!object) return undefined;
  const properties = object.properties;
  if (properties.length > INDEXED_FROM) {
    const index = propertyIndex(properties);
    if (index) return index.get(key);
  }
  let valueless: PropertyNode | undefined;
  for (let i = properties.length - 1; i >= 0; i--) {
    const property = properties[i];
    if (property.key !== key) continue;
    if (property.value) return property;
    valueless ??= property;
  }
  return valueless;
}

/** Objects with more properties than this may be looked up through an index. */
const INDEXED_FROM = 64;
/** Lookups by scanning an object's properties before it gets an index (each costs what building it costs, about). */
const SCANS_BEFORE_INDEX = 8;

interface PropertyLookups {
  /** The properties' count when the index was made: a list that grew since (an encoder's copy) is indexed again. */
  length: number;
  scans: number;
  index: Map<string, PropertyNode> | undefined;
}

const lookupsByList = new WeakMap<readonly PropertyNode[], PropertyLookups>();

/**
 * The index of a large object's properties once it has been looked up in often enough, else
 * undefined (scan it). A rule asking one thing of a large object per finding (meta's "lang" for
 * each of 20,000 findings beside a meta of 20,000 keys) scanned it each time, growing with the
 * square of the file; a keystroke's few lookups in a fresh version scan as before.
 */
function propertyIndex(properties: readonly PropertyNode[]): Map<string, PropertyNode> | undefined {
  let lookups = lookupsByList.get(properties);
  if (!lookups) lookupsByList.set(properties, (lookups = { length: properties.length, scans: 0, index: undefined }));
  if (lookups.index && lookups.length === properties.length) return lookups.index;
  if (++lookups.scans <= SCANS_BEFORE_INDEX) return undefined;
  // What the scan answers: the last copy with a value, else the last copy without one.
  const index = new Map<string, PropertyNode>();
  for (const property of properties) {
    const seen = index.get(property.key);
    if (property.value || !seen?.value) index.set(property.key, property);
  }
  lookups.index = index;
  lookups.length = properties.length;
  return index;
}

/** The value of the property named `key` as a decoder reads it (its last copy), if the object has one. */
export function getValue(object: ObjectNode | undefined, key: string): ValueNode | undefined {
  return getProperty(object, key)?.value;
}

/** `value` when it is an object, else undefined. */
export function asObject(value: ValueNode | undefined): ObjectNode | undefined {
  return value?.kind === 'object' ? value : undefined;
}

/**
 * Visits every value below (and including) `root` in document order without recursion, so a
 * file nested 100,000 levels deep cannot overflow the stack. A value `skip` picks is neither
 * visited nor entered.
 */
export function forEachValue(root: ValueNode, visit: (node: ValueNode) => void, skip?: (node: ValueNode) => boolean): void {
  const stack: ValueNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (skip?.(node)) continue;
    visit(node);
    if (node.kind === 'object') {
      const properties = node.properties;
      for (let i = properties.length - 1; i >= 0; i--) {
        const value = properties[i].value;
        if (value) stack.push(value);
      }
    } else if (node.kind === 'array') {
      const items = node.items;
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    }
  }
}

/** Where an offset falls in the tree: the innermost value and, if any, the property around it. */
export interface NodeLocation {
  /** The innermost value whose range contains the offset (start inclusive, end inclusive). */
  readonly node: ValueNode | undefined;
  /** Set when the offset is inside a property's key token. */
  readonly inKeyOf: PropertyNode | undefined;
  /** The innermost property whose range contains the offset (key start to value end). */
  readonly property: PropertyNode | undefined;
}

/** Above this many properties or items, `locateAtCursor` does not look inside a container (its nodes would take some 30 MB to build). */
export const MAX_CHILDREN_LOOKED_INTO = 250_000;

/** The index of the last element of `list` (in text order) that starts at or before `offset`; -1 when none does. */
function lastStartingAtOrBefore<T>(list: readonly T[], offset: number, startOf: (element: T) => number): number {
  let low = 0;
  let high = list.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (startOf(list[middle]) <= offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** The index of `item` among `items` (in text order), found by halving: a pointer into an array of 240,000 items costs 18 looks, not a search from the start. */
export function indexOfItem(items: readonly ValueNode[], item: ValueNode): number {
  const found = lastStartingAtOrBefore(items, item.offset, (candidate) => candidate.offset);
  return items[found] === item ? found : items.indexOf(item);
}

/**
 * `locate` for what answers the user's cursor (hover, completion, selection, definition): a
 * container of more than MAX_CHILDREN_LOOKED_INTO items is the innermost node found, as building
 * its items to look inside would take gigabytes for one hover in a generated 60 MB fixture. The
 * places of findings (their JSON Pointers, which suppressions match, and their fixes) use `locate`.
 */
export function locateAtCursor(root: ValueNode | undefined, offset: number): NodeLocation {
  return locate(root, offset, MAX_CHILDREN_LOOKED_INTO);
}

/** Finds the innermost node at `offset` (iterative; the end offset counts as inside), looking inside no container of more than `maxChildren` items. */
export function locate(root: ValueNode | undefined, offset: number, maxChildren = Infinity): NodeLocation {
  let node: ValueNode | undefined;
  let property: PropertyNode | undefined;
  let inKeyOf: PropertyNode | undefined;
  let current = root;
  while (current && offset >= current.offset && offset <= current.end) {
    node = current;
    let next: ValueNode | undefined;
    if (maxChildren < Infinity && (current.kind === 'object' || current.kind === 'array') && (current.childCount ?? 0) > maxChildren) break;
    if (current.kind === 'object') {
      // Properties lie in text order: the one around the offset is among the last two that start at or
      // before it (found by halving, so a finding's place in an object of 100,000 keys costs 17 looks, not 100,000).
      const { properties } = current;
      const last = lastStartingAtOrBefore(properties, offset, (candidate) => candidate.keyOffset);
      for (let index = Math.max(0, last - 1); index <= last; index++) {
        const candidate = properties[index];
        if (offset <= candidate.keyEnd && offset > candidate.keyOffset) {
          inKeyOf = candidate;
          property = candidate;
          break;
        }
        if (offset <= propertyEnd(candidate)) {
          property = candidate;
          if (candidate.value && offset >= candidate.value.offset) next = candidate.value;
          break;
        }
      }
    } else if (current.kind === 'array') {
      const { items } = current;
      const last = lastStartingAtOrBefore(items, offset, (item) => item.offset);
      for (let index = Math.max(0, last - 1); index <= last; index++) {
        if (offset <= items[index].end) {
          next = items[index];
          break;
        }
      }
    }
    if (inKeyOf || !next) break;
    current = next;
  }
  return { node, inKeyOf, property };
}
