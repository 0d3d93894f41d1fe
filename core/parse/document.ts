/**
 * The parsed document: its columns (`./columns.ts`) and the node tree of `core/model/tree.ts`, built
 * from them lazily. The root is made on first access and each object's properties (each array's
 * items) when they are first read, one level at a time and once, so a hover deep in a 20 MB file
 * makes the few hundred nodes on its path, not millions. Every node is made once: identity holds.
 */
import type { ArrayNode, ContainerNode, ObjectNode, ParsedDocument, PropertyNode, SyntaxProblem, ValueNode } from '../model/tree';
import { Flag, Kind, stringValue, type Columns } from './columns';
import { decimalValue, integerValue } from '../model/number-value';

/**
 * How a document was made from the previous version's parse (`./incremental.ts`): only the
 * string or number value in `slot` changed, and every offset at or after `threshold` moved by `delta`.
 */
export interface ValueEdit {
  readonly previous: ParsedText;
  readonly slot: number;
  readonly threshold: number;
  readonly delta: number;
  /** What the edited value is (it was the same kind before). */
  readonly kind: 'string' | 'number';
}

export class ParsedText implements ParsedDocument {
  private rootNode: ValueNode | undefined | null = null;

  constructor(
    readonly text: string,
    readonly columns: Columns,
    readonly syntaxProblems: readonly SyntaxProblem[],
    private madeBy?: ValueEdit,
  ) {}

  /** How this document was made from the previous version, while that is still known. */
  get edit(): ValueEdit | undefined {
    return this.madeBy;
  }

  /** Drops the link to the previous version (so versions never chain in memory). */
  forgetEdit(): void {
    this.madeBy = undefined;
  }

  get root(): ValueNode | undefined {
    if (this.rootNode === null) this.rootNode = this.columns.count > 0 ? this.node(0, undefined, undefined) : undefined;
    return this.rootNode;
  }

  /** The node of a slot (made by the caller's parent, once). */
  node(slot: number, parent: ContainerNode | undefined, property: PropertyNode | undefined): ValueNode {
    const { info, start, end } = this.columns;
    const flags = info[slot];
    const offset = start[slot];
    switch (flags & Flag.KindMask) {
      case Kind.Object:
        return new LazyObject(this, slot, offset, end[slot], parent, property, (flags & Flag.Closed) !== 0);
      case Kind.Array:
        return new LazyArray(this, slot, offset, end[slot], parent, property, (flags & Flag.Closed) !== 0);
      case Kind.String:
        return { kind: 'string', offset, end: end[slot], parent, property, value: stringValue(this.columns, this.text, slot) };
      case Kind.Number: {
        const raw = this.text.slice(offset, end[slot]);
        return { kind: 'number', offset, end: end[slot], parent, property, raw, value: Number(raw), isIntegerLiteral: (flags & Flag.Integer) !== 0 };
      }
      case Kind.Boolean:
        return { kind: 'boolean', offset, end: end[slot], parent, property, value: (flags & Flag.True) !== 0 };
      default:
        return { kind: 'null', offset, end: end[slot], parent, property };
    }
  }

  /** The properties of an object slot, as nodes. */
  properties(object: LazyObject, slot: number): PropertyNode[] {
    const { next, keys, keyStart, keyEnd, colon, info } = this.columns;
    const properties: PropertyNode[] = [];
    for (let child = slot + 1; child < next[slot]; child = next[child]) {
      const property: PropertyNode = { key: keys[child]!, keyOffset: keyStart[child], keyEnd: keyEnd[child], colonOffset: colon[child], value: undefined, parent: object };
      if ((info[child] & Flag.KindMask) !== Kind.None) property.value = this.node(child, object, property);
      properties.push(property);
    }
    return properties;
  }

  /** The items of an array slot, as nodes. */
  items(array: LazyArray, slot: number): ValueNode[] {
    const { next } = this.columns;
    const items: ValueNode[] = [];
    for (let child = slot + 1; child < next[slot]; child = next[child]) items.push(this.node(child, array, undefined));
    return items;
  }
}

/** What the lazy object and array nodes share: the document and slot they were made from. */
abstract class LazyContainer {
  readonly #document: ParsedText;
  readonly #slot: number;
  #childCount: number | undefined;

  constructor(
    document: ParsedText,
    slot: number,
    readonly offset: number,
    public end: number,
    readonly parent: ContainerNode | undefined,
    readonly property: PropertyNode | undefined,
    public closed: boolean,
  ) {
    this.#document = document;
    this.#slot = slot;
  }

  protected get document(): ParsedText {
    return this.#document;
  }

  protected get slot(): number {
    return this.#slot;
  }

  /** Its properties or items, counted along the columns without building a node (once). */
  get childCount(): number {
    if (this.#childCount === undefined) {
      const { next } = this.#document.columns;
      let count = 0;
      for (let child = this.#slot + 1; child < next[this.#slot]; child = next[child]) count++;
      this.#childCount = count;
    }
    return this.#childCount;
  }

  /** The document and slot of a node made here; undefined for any other node. */
  static origin(node: ValueNode): { document: ParsedText; slot: number } | undefined {
    return #slot in node ? { document: node.#document, slot: node.#slot } : undefined;
  }
}

class LazyObject extends LazyContainer implements ObjectNode {
  readonly kind = 'object' as const;
  #list: PropertyNode[] | undefined;

  get properties(): PropertyNode[] {
    return (this.#list ??= this.document.properties(this, this.slot));
  }
}

class LazyArray extends LazyContainer implements ArrayNode {
  readonly kind = 'array' as const;
  #list: ValueNode[] | undefined;

  get items(): ValueNode[] {
    return (this.#list ??= this.document.items(this, this.slot));
  }
}

/**
 * The columns of the document a container node was parsed into, and its slot; undefined for a
 * node this parser did not make (the caller then walks the tree).
 */
export function columnsOf(node: ValueNode): { columns: Columns; slot: number; text: string; document: ParsedText } | undefined {
  const origin = LazyContainer.origin(node);
  return origin && { columns: origin.document.columns, slot: origin.slot, text: origin.document.text, document: origin.document };
}

/** The last plain value computed per document (the payload, for the schema), by slot. */
const plainValues = new WeakMap<ParsedText, { readonly slot: number; readonly value: unknown }>();

/**
 * `plainValue` of a container slot, remembered per document. After a string or number edit it is derived
 * from the previous version's value: the containers on the path to the string are copied, every
 * other part is shared (nothing mutates these values: they are only validated).
 */
export function documentPlainValue(document: ParsedText, slot: number): unknown {
  const cached = plainValues.get(document);
  if (cached && cached.slot === slot) return cached.value;
  const value = editedPlainValue(document, slot) ?? plainValue(document.columns, document.text, slot);
  plainValues.set(document, { slot, value });
  return value;
}

function editedPlainValue(document: ParsedText, slot: number): unknown {
  const edit = document.edit;
  const previous = edit && plainValues.get(edit.previous);
  if (!edit || !previous || previous.slot !== slot) return undefined;
  const { info, next, parent, keys } = document.columns;
  // An edit outside this subtree leaves its value as it was.
  if (!(slot < edit.slot && edit.slot < next[slot])) return previous.value;
  // The path from the subtree down to the string: a key or an index per step.
  const steps: (string | number)[] = [];
  for (let at = edit.slot; at !== slot; at = parent[at]) {
    const holder = parent[at];
    if (info[at] & Flag.Keyed) {
      const key = keys[at]!;
      // A later duplicate of the key holds the value; "__proto__" needs defineProperty: rebuild instead.
      if (key === '__proto__') return undefined;
      for (let sibling = next[at]; sibling < next[holder]; sibling = next[sibling]) if (keys[sibling] === key) return undefined;
      steps.push(key);
    } else {
      let index = 0;
      for (let sibling = holder + 1; sibling !== at; sibling = next[sibling]) if ((info[sibling] & Flag.KindMask) !== Kind.None) index++;
      steps.push(index);
    }
  }
  const root = copyContainer(previous.value);
  let cursor = root as Record<string | number, unknown>;
  for (let i = steps.length - 1; i > 0; i--) {
    const copy = copyContainer(cursor[steps[i]]);
    cursor[steps[i]] = copy;
    cursor = copy as Record<string | number, unknown>;
  }
  cursor[steps[0]] = edit.kind === 'number' ? numberValue(document.columns, document.text, edit.slot) : stringValue(document.columns, document.text, edit.slot);
  return root;
}

function copyContainer(value: unknown): unknown {
  return Array.isArray(value) ? value.slice() : { ...(value as Record<string, unknown>) };
}

/**
 * The plain JS value of a slot's subtree, as `JSON.parse` (and `toJsValue` on the tree) gives
 * it: a duplicate key keeps its first position and its last value, `"__proto__"` is an own key,
 * a property without a value is left out. Iterative, straight from the columns.
 */
export function plainValue(columns: Columns, text: string, slot: number): unknown {
  const { info, start, end, next, parent, keys, decoded } = columns;
  const containerSlots: number[] = [];
  const containers: (Record<string, unknown> | unknown[])[] = [];
  let root: unknown;
  for (let at = slot, last = next[slot]; at < last; at++) {
    const flags = info[at];
    let value: unknown;
    switch (flags & Flag.KindMask) {
      case Kind.None:
        continue;
      case Kind.Object:
        value = {};
        break;
      case Kind.Array:
        value = [];
        break;
      case Kind.String:
        value = flags & Flag.Decoded ? decoded.get(at) : text.slice(start[at] + 1, end[at] - 1);
        break;
      case Kind.Number:
        value = numberValue(columns, text, at);
        break;
      case Kind.Boolean:
        value = (flags & Flag.True) !== 0;
        break;
      default:
        value = null;
    }
    if (at === slot) {
      root = value;
    } else {
      const holder = parent[at];
      while (containerSlots[containerSlots.length - 1] !== holder) {
        containerSlots.pop();
        containers.pop();
      }
      const target = containers[containers.length - 1];
      if (flags & Flag.Keyed) {
        const key = keys[at]!;
        // A plain assignment to "__proto__" would set the prototype; JSON.parse makes it an own key.
        if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
        else (target as Record<string, unknown>)[key] = value;
      } else {
        (target as unknown[]).push(value);
      }
    }
    if (typeof value === 'object' && value !== null) {
      containerSlots.push(at);
      containers.push(value as Record<string, unknown> | unknown[]);
    }
  }
  return root;
}

/**
 * The value of a Number slot, as `JSON.parse` (or `Number()`, for a malformed token) reads it:
 * the parser's for a plain literal (`values`), read from the text otherwise.
 */
export function numberValue(columns: Columns, text: string, slot: number): number {
  const { info, start, end } = columns;
  const flags = info[slot];
  if (flags & Flag.PlainNumber) return columns.values[slot];
  return flags & Flag.Integer ? integerValue(text, start[slot], end[slot]) : decimalValue(text, start[slot], end[slot]);
}

