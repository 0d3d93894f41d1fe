/**
 * Folding ranges for objects and arrays, with the line rules of VS Code's JSON support: a range
 * ends on the line before its closing bracket (so the bracket stays visible) and only exists when
 * that leaves at least one line to hide.
 */
import type { LineIndex } from '../model/positions';
import type { ContainerNode, ParsedDocument } from '../model/tree';
import { Flag, Kind, type Columns } from '../parse/columns';
import { columnsOf } from '../parse/document';

/** A foldable block of lines (zero-based, both inclusive). */
export interface FoldingLines {
  readonly startLine: number;
  readonly endLine: number;
}

/** VS Code's own default cap on folding ranges per document. */
export const DEFAULT_FOLDING_LIMIT = 5000;

/** Folding ranges, and whether some were left out at the limit. */
export interface Folding {
  readonly ranges: FoldingLines[];
  readonly capped: boolean;
}

/**
 * Folding ranges of every multi-line object and array in document order, at most `limit`; of
 * several blocks opening on one line the outermost wins, since an editor folds one block per line.
 * Read from the parser's columns where the document has them (no node is built: a 5 MB fixture's
 * 5,000 ranges after every keystroke), else from its tree.
 */
export function foldingRanges(doc: ParsedDocument, lineIndex: LineIndex, limit: number = DEFAULT_FOLDING_LIMIT): FoldingLines[] {
  return documentFolding(doc, lineIndex, limit).ranges;
}

/** `foldingRanges`, saying whether ranges were left out (the editor cannot tell: those blocks simply do not fold). */
export function documentFolding(doc: ParsedDocument, lineIndex: LineIndex, limit: number = DEFAULT_FOLDING_LIMIT): Folding {
  const root = doc.root;
  if (!root || (root.kind !== 'object' && root.kind !== 'array') || limit <= 0) return { ranges: [], capped: false };
  const origin = columnsOf(root);
  return origin && origin.slot === 0 ? columnFolding(origin.columns, lineIndex, limit) : treeFolding(root, lineIndex, limit);
}

/** The same ranges from the columns: slots are in document order, each container before what it holds. */
function columnFolding(columns: Columns, lineIndex: LineIndex, limit: number): Folding {
  const { count, info, start, end, next } = columns;
  const ranges: FoldingLines[] = [];
  let lastStartLine = -1;
  let slot = 0;
  while (slot < count) {
    const flags = info[slot];
    const kind = flags & Flag.KindMask;
    if ((kind !== Kind.Object && kind !== Kind.Array) || !(flags & Flag.Closed)) {
      slot++;
      continue;
    }
    const startLine = lineIndex.positionAt(start[slot]).line;
    const closeLine = lineIndex.positionAt(end[slot] - 1).line;
    if (closeLine === startLine) {
      slot = next[slot];
      continue;
    }
    if (closeLine > startLine + 1 && startLine !== lastStartLine) {
      // Found one more than fits: the answer is capped (and the scan stops here).
      if (ranges.length >= limit) return { ranges, capped: true };
      ranges.push({ startLine, endLine: closeLine - 1 });
      lastStartLine = startLine;
    }
    slot++;
  }
  return { ranges, capped: false };
}

/** The ranges from the tree, for a document parsed without columns. */
export function treeFoldingRanges(root: ContainerNode, lineIndex: LineIndex, limit: number = DEFAULT_FOLDING_LIMIT): FoldingLines[] {
  return treeFolding(root, lineIndex, limit).ranges;
}

/** `treeFoldingRanges`, saying whether ranges were left out. */
export function treeFolding(root: ContainerNode, lineIndex: LineIndex, limit: number = DEFAULT_FOLDING_LIMIT): Folding {
  const ranges: FoldingLines[] = [];
  const stack: ContainerNode[] = [root];
  let lastStartLine = -1;
  while (stack.length > 0) {
    const node = stack.pop()!;
    // An unclosed container has no closing line to fold up to (and its `end` is only a guess).
    if (node.closed) {
      const startLine = lineIndex.positionAt(node.offset).line;
      const closeLine = lineIndex.positionAt(node.end - 1).line;
      // Everything inside a one-line container is on that line too: nothing below can fold.
      if (closeLine === startLine) continue;
      // Pre-order visits start lines in ascending order, so the first block per line is the outermost.
      if (closeLine > startLine + 1 && startLine !== lastStartLine) {
        if (ranges.length >= limit) return { ranges, capped: true };
        ranges.push({ startLine, endLine: closeLine - 1 });
        lastStartLine = startLine;
      }
    }
    pushContainerChildren(node, stack);
  }
  return { ranges, capped: false };
}

/** Pushes the container children of `node` so that they pop in document order. */
function pushContainerChildren(node: ContainerNode, stack: ContainerNode[]): void {
  if (node.kind === 'object') {
    for (let i = node.properties.length - 1; i >= 0; i--) {
      const value = node.properties[i].value;
      if (value && (value.kind === 'object' || value.kind === 'array')) stack.push(value);
    }
  } else {
    for (let i = node.items.length - 1; i >= 0; i--) {
      const item = node.items[i];
      if (item.kind === 'object' || item.kind === 'array') stack.push(item);
    }
  }
}
