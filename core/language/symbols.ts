/**
 * The document outline: one symbol per property (named by its key) and per array item (named by
 * its index), nested like the document, in the shape of an LSP DocumentSymbol but in offsets.
 */
import { propertyEnd, type ContainerNode, type ParsedDocument, type PropertyNode, type ValueNode } from '../model/tree';
import { Flag, Kind, stringValue, type Columns } from '../parse/columns';
import { columnsOf } from '../parse/document';

/** A value kind, or `property` for a key still waiting for its value. */
export type DocumentSymbolKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'property';

/** One outline entry; `offset`/`end` span key and value, `selection*` the key (or the item). */
export interface DocumentSymbolNode {
  readonly name: string;
  readonly detail?: string;
  readonly kind: DocumentSymbolKind;
  readonly offset: number;
  readonly end: number;
  readonly selectionOffset: number;
  readonly selectionEnd: number;
  readonly children: DocumentSymbolNode[];
}

/**
 * At most this many outline entries per document (VS Code's JSON features stop at 5,000). The
 * workbench asks for the outline again after every pause in typing, often twice (outline and
 * breadcrumbs): on the 5 MB bench fixture 5,000 entries were 1 MB of JSON per answer, and the
 * squiggles after a keystroke took 1.2 s to appear instead of 0.45 s with 1,000
 * (`npm run bench:workbench`). Built breadth-first, 1,000 still cover every shallow level.
 */
export const DEFAULT_SYMBOL_LIMIT = 1000;

/**
 * Symbols nest at most this deep by default: the LSP transport serialises with JSON.stringify,
 * which overflows the stack at a few thousand levels, and no outline is read that deep.
 */
export const DEFAULT_SYMBOL_DEPTH = 1000;

/** Longest value preview shown next to a symbol, in UTF-16 units (including the ellipsis). */
const MAX_DETAIL_LENGTH = 60;

/** Longest symbol name, in UTF-16 units (including the ellipsis): the outline, breadcrumbs and the symbol picker show one line. */
const MAX_NAME_LENGTH = 120;

/** An outline, and where it was cut short: at the entry limit, at the depth limit, or not at all. */
export interface Outline {
  readonly symbols: DocumentSymbolNode[];
  readonly cut?: 'entries' | 'depth';
}

/**
 * The outline of `doc`: at most `limit` symbols, nested at most `maxDepth` deep. Built breadth-first,
 * like VS Code's JSON outline, so a document over the limit still shows its whole shallow structure.
 * Read from the parser's columns where the document has them: the tree would make a node for every
 * item of a long array (and every property of each) to show the thousand that fit, after every
 * pause in typing in a large file.
 */
export function documentSymbols(doc: ParsedDocument, limit: number = DEFAULT_SYMBOL_LIMIT, maxDepth: number = DEFAULT_SYMBOL_DEPTH): DocumentSymbolNode[] {
  return documentOutline(doc, limit, maxDepth).symbols;
}

/** `documentSymbols`, saying whether entries were left out (the editor cannot tell a cut outline from a short document). */
export function documentOutline(doc: ParsedDocument, limit: number = DEFAULT_SYMBOL_LIMIT, maxDepth: number = DEFAULT_SYMBOL_DEPTH): Outline {
  const root = doc.root;
  if (!root || (root.kind !== 'object' && root.kind !== 'array')) return { symbols: [] };
  const origin = columnsOf(root);
  return origin && origin.slot === 0 ? columnOutline(origin.columns, origin.text, limit, maxDepth) : treeOutline(root, limit, maxDepth);
}

/** The outline from the tree, for a document parsed without columns. */
export function treeSymbols(root: ContainerNode, limit: number = DEFAULT_SYMBOL_LIMIT, maxDepth: number = DEFAULT_SYMBOL_DEPTH): DocumentSymbolNode[] {
  return treeOutline(root, limit, maxDepth).symbols;
}

/** `treeSymbols`, saying where the outline was cut. */
export function treeOutline(root: ContainerNode, limit: number = DEFAULT_SYMBOL_LIMIT, maxDepth: number = DEFAULT_SYMBOL_DEPTH): Outline {
  const result: DocumentSymbolNode[] = [];
  const queue: { readonly node: ContainerNode; readonly into: DocumentSymbolNode[]; readonly depth: number }[] = [{ node: root, into: result, depth: 1 }];
  let count = 0;
  for (let head = 0; head < queue.length; head++) {
    const { node, into, depth } = queue[head];
    // Only containers with entries are queued: one past the depth limit has entries left out.
    if (depth > maxDepth) return { symbols: result, cut: 'depth' };
    const entries = node.kind === 'object' ? node.properties.length : node.items.length;
    for (let i = 0; i < entries; i++) {
      if (count >= limit) return { symbols: result, cut: 'entries' };
      const symbol = node.kind === 'object' ? propertySymbol(node.properties[i]) : itemSymbol(node.items[i], i);
      into.push(symbol);
      count++;
      const value = node.kind === 'object' ? node.properties[i].value : node.items[i];
      if (value && hasEntries(value)) queue.push({ node: value as ContainerNode, into: symbol.children, depth: depth + 1 });
    }
  }
  return { symbols: result };
}

/** The kinds of the values of slots, as the tree names them (an item without a value is `null`, as its node is). */
const KIND_NAMES: readonly DocumentSymbolKind[] = ['null', 'object', 'array', 'string', 'number', 'boolean', 'null'];

/** The same outline from the columns: the same entries, in the same order, with the same words. */
function columnOutline(columns: Columns, text: string, limit: number, maxDepth: number): Outline {
  const { info, start, end, next, keys, keyStart, keyEnd, colon } = columns;
  const result: DocumentSymbolNode[] = [];
  const queue: { readonly slot: number; readonly into: DocumentSymbolNode[]; readonly depth: number }[] = [{ slot: 0, into: result, depth: 1 }];
  let count = 0;
  for (let head = 0; head < queue.length; head++) {
    const { slot, into, depth } = queue[head];
    if (depth > maxDepth) return { symbols: result, cut: 'depth' };
    const inObject = (info[slot] & Flag.KindMask) === Kind.Object;
    let index = 0;
    for (let child = slot + 1; child < next[slot]; child = next[child], index++) {
      if (count >= limit) return { symbols: result, cut: 'entries' };
      const kind = info[child] & Flag.KindMask;
      const detail = kind === Kind.None ? (inObject ? undefined : 'null') : slotDetail(columns, text, child, kind);
      const symbol: DocumentSymbolNode = inObject
        ? {
            name: keyName(keys[child]!),
            ...(detail === undefined ? {} : { detail }),
            kind: kind === Kind.None ? 'property' : KIND_NAMES[kind],
            offset: keyStart[child],
            end: kind !== Kind.None ? end[child] : colon[child] >= 0 ? colon[child] + 1 : keyEnd[child],
            selectionOffset: keyStart[child],
            selectionEnd: keyEnd[child],
            children: [],
          }
        : { name: `[${index}]`, ...(detail === undefined ? {} : { detail }), kind: KIND_NAMES[kind], offset: start[child], end: end[child], selectionOffset: start[child], selectionEnd: end[child], children: [] };
      into.push(symbol);
      count++;
      if ((kind === Kind.Object || kind === Kind.Array) && next[child] > child + 1) queue.push({ slot: child, into: symbol.children, depth: depth + 1 });
    }
  }
  return { symbols: result };
}

/** `detailOf` for a slot with a value. */
function slotDetail(columns: Columns, text: string, slot: number, kind: Kind): string | undefined {
  switch (kind) {
    case Kind.String:
      return preview(stringValue(columns, text, slot));
    case Kind.Number:
      return preview(text.slice(columns.start[slot], columns.end[slot]));
    case Kind.Boolean:
      return String((columns.info[slot] & Flag.True) !== 0);
    case Kind.Object:
      return columns.next[slot] === slot + 1 ? '{}' : undefined;
    case Kind.Array:
      return columns.next[slot] === slot + 1 ? '[]' : undefined;
    default:
      return 'null';
  }
}

function propertySymbol(property: PropertyNode): DocumentSymbolNode {
  const value = property.value;
  const detail = value ? detailOf(value) : undefined;
  return {
    name: keyName(property.key),
    ...(detail === undefined ? {} : { detail }),
    kind: value ? value.kind : 'property',
    offset: property.keyOffset,
    end: propertyEnd(property),
    selectionOffset: property.keyOffset,
    selectionEnd: property.keyEnd,
    children: [],
  };
}

function itemSymbol(item: ValueNode, index: number): DocumentSymbolNode {
  const detail = detailOf(item);
  return {
    name: `[${index}]`,
    ...(detail === undefined ? {} : { detail }),
    kind: item.kind,
    offset: item.offset,
    end: item.end,
    selectionOffset: item.offset,
    selectionEnd: item.end,
    children: [],
  };
}

function hasEntries(value: ValueNode): boolean {
  return (value.kind === 'object' && value.properties.length > 0) || (value.kind === 'array' && value.items.length > 0);
}

function detailOf(value: ValueNode): string | undefined {
  switch (value.kind) {
    case 'string':
      return preview(value.value);
    case 'number':
      return preview(value.raw);
    case 'boolean':
      return String(value.value);
    case 'null':
      return 'null';
    // Empty containers get a detail so the outline does not suggest children that are not there.
    case 'object':
      return value.properties.length === 0 ? '{}' : undefined;
    case 'array':
      return value.items.length === 0 ? '[]' : undefined;
  }
}

/**
 * A key as a symbol's name: LSP rejects an empty name, and `""` is what the user sees for an empty
 * key anyway; a key of megabytes is named by its beginning (its range still spans all of it).
 */
function keyName(key: string): string {
  if (key === '') return '""';
  if (key.length <= MAX_NAME_LENGTH) return key;
  let cut = MAX_NAME_LENGTH - 1;
  const last = key.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${key.slice(0, cut)}…`;
}

/** A one-line, bounded preview: a 5 MB string must not become a 5 MB outline label. */
function preview(text: string): string {
  const head = text.length > MAX_DETAIL_LENGTH * 2 ? text.slice(0, MAX_DETAIL_LENGTH * 2) : text;
  const flat = head.replace(/[\u0000-\u001f\u2028\u2029]+/g, ' ');
  if (head.length === text.length && flat.length <= MAX_DETAIL_LENGTH) return flat;
  let cut = Math.min(flat.length, MAX_DETAIL_LENGTH - 1);
  // Never cut a surrogate pair in half.
  const last = flat.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${flat.slice(0, cut)}…`;
}
