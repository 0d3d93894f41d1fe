/**
 * What VS Code's JSON support would give a plain `json` file, for the envelope language:
 * formatting, folding ranges, the outline (document symbols) and selection ranges.
 */
import {
  SymbolKind,
  type DocumentFormattingParams,
  type DocumentSymbol,
  type FoldingRange,
  type FormattingOptions,
  type SelectionRange,
  type SelectionRangeParams,
  type SymbolInformation,
  type TextEdit,
} from 'vscode-languageserver/node';
import { DEFAULT_FOLDING_LIMIT, documentFolding } from '../../core/language/folding';
import { DEFAULT_MAX_OUTPUT_LENGTH, documentFormatting } from '../../core/language/format';
import { selectionChains } from '../../core/language/selection';
import { DEFAULT_SYMBOL_DEPTH, DEFAULT_SYMBOL_LIMIT, documentOutline, type DocumentSymbolNode, type Outline } from '../../core/language/symbols';
import { digitGroups } from '../../core/model/count-words';
import type { LineIndex } from '../../core/model/positions';
import type { ParsedDocument } from '../../core/model/tree';
import { CapNotices, shownName } from '../cap-notices';
import type { ServerContext } from '../context';
import { toLspEdit, toRange } from '../convert';
import { envelopes, envelopesAfterDiagnostics, requestHandler } from '../request';

/** Deeper selection chains would overflow JSON serialisation of the nested reply; core stops there. */
const MAX_SELECTION_DEPTH = 1000;

/**
 * At most this many ranges in one selection reply, shared among its positions (about 20 MB of
 * JSON): 10,000 cursors with 1,000 levels each made a reply longer than V8's longest string, and
 * the request failed after seconds and a gigabyte of memory.
 */
const MAX_SELECTION_RANGES = 200_000;

const SYMBOL_KINDS: Record<DocumentSymbolNode['kind'], SymbolKind> = {
  object: SymbolKind.Module,
  array: SymbolKind.Array,
  string: SymbolKind.String,
  number: SymbolKind.Number,
  boolean: SymbolKind.Boolean,
  null: SymbolKind.Null,
  property: SymbolKind.Property,
};

/**
 * The editor's final-newline options as the formatter's: insert one, or leave whether the file
 * ends with one alone (LSP's `insertFinalNewline: false` means "do not add", not "remove", and
 * `trimFinalNewlines` trims the line breaks after the final one, never that one). Blank lines after
 * the last bracket go either way: the formatter lays out all whitespace between and after tokens.
 */
function finalNewline(options: FormattingOptions): boolean | undefined {
  return options.insertFinalNewline ? true : undefined;
}

export function registerStructureFeatures(context: ServerContext, hierarchicalSymbols: () => boolean = () => true): void {
  const { connection } = context;

  const notices = new CapNotices(connection);
  context.documents.onDidClose((event) => notices.forget(event.document.uri));

  connection.onDocumentFormatting(
    requestHandler(context, 'formatting', envelopes, [], ({ document, parsed, lines }, params: DocumentFormattingParams): TextEdit[] => {
      const { edits, refused } = documentFormatting(parsed, { tabSize: params.options.tabSize, insertSpaces: params.options.insertSpaces, finalNewline: finalNewline(params.options) });
      if (refused) notices.say(document.uri, `formatting refused: ${refused}`, formattingRefusedMessage(document.uri, refused));
      return edits.map((edit) => toLspEdit(edit, lines));
    }),
  );

  connection.onFoldingRanges(
    requestHandler(context, 'foldingRanges', envelopesAfterDiagnostics, [], ({ document, parsed, lines }): FoldingRange[] => {
      const folding = documentFolding(parsed, lines);
      if (folding.capped) {
        const limit = digitGroups(DEFAULT_FOLDING_LIMIT);
        notices.say(document.uri, 'folding', `${shownName(document.uri)} has more foldable blocks than ${limit}: only the first ${limit} fold.`);
      }
      return folding.ranges.map((range) => ({ startLine: range.startLine, endLine: range.endLine }));
    }),
  );

  // The workbench asks for a version's outline twice (the outline view and the breadcrumbs): the
  // second answer is the first one's, kept as long as that version's parse is.
  const outlines = new WeakMap<ParsedDocument, DocumentSymbol[]>();
  connection.onDocumentSymbol(
    requestHandler(context, 'documentSymbol', envelopesAfterDiagnostics, [], ({ document, parsed, lines }): DocumentSymbol[] | SymbolInformation[] => {
      let symbols = outlines.get(parsed);
      if (!symbols) {
        const outline = documentOutline(parsed);
        if (outline.cut) notices.say(document.uri, 'outline', outlineCutMessage(document.uri, outline.cut));
        outlines.set(parsed, (symbols = toLspSymbols(outline.symbols, lines)));
      }
      return hierarchicalSymbols() ? symbols : flatSymbols(symbols, document.uri);
    }),
  );

  connection.onSelectionRanges(
    requestHandler(context, 'selectionRanges', envelopes, [], ({ document, parsed, lines }, params: SelectionRangeParams): SelectionRange[] => {
      const count = params.positions.length;
      const depth = Math.min(MAX_SELECTION_DEPTH, Math.max(1, Math.floor(MAX_SELECTION_RANGES / Math.max(1, count))));
      const { chains, capped } = selectionChains(parsed, params.positions.map((position) => lines.offsetAt(position)), depth);
      if (capped) {
        const from = count === 1 ? 'the cursor' : `each of ${digitGroups(count)} cursors`;
        notices.say(document.uri, 'selection', `Expand selection in ${shownName(document.uri)} stops ${digitGroups(depth)} levels out from ${from}: the document nests deeper than that.`);
      }
      return chains.map((chain, index) => {
        let parent: SelectionRange | undefined;
        // The reply is serialised recursively: core kept only the innermost levels of a very deep chain.
        for (let i = chain.length - 1; i >= 0; i--) parent = { range: toRange(lines, chain[i].offset, chain[i].end), ...(parent ? { parent } : {}) };
        return parent ?? { range: { start: params.positions[index], end: params.positions[index] } };
      });
    }),
  );
}

function formattingRefusedMessage(uri: string, refused: 'syntax' | 'size'): string {
  const name = shownName(uri);
  if (refused === 'syntax') return `${name} was not formatted: it has syntax errors (see the Problems), and laying out text the parser misread could move or lose what was typed.`;
  return `${name} was not formatted: laid out one value per line it would be longer than ${digitGroups(DEFAULT_MAX_OUTPUT_LENGTH)} characters, as its indentation grows with every level of nesting.`;
}

function outlineCutMessage(uri: string, cut: NonNullable<Outline['cut']>): string {
  const name = shownName(uri);
  if (cut === 'depth') return `The outline of ${name} stops ${digitGroups(DEFAULT_SYMBOL_DEPTH)} levels deep: the document nests deeper than that.`;
  return `The outline of ${name} shows its first ${digitGroups(DEFAULT_SYMBOL_LIMIT)} entries, level by level from the top: the document has more.`;
}

/** Converts the symbol tree without recursion (a deep file must not overflow the stack). */
function toLspSymbols(roots: DocumentSymbolNode[], lines: LineIndex): DocumentSymbol[] {
  const convert = (node: DocumentSymbolNode): DocumentSymbol => ({
    name: node.name || '""',
    ...(node.detail ? { detail: node.detail } : {}),
    kind: SYMBOL_KINDS[node.kind],
    range: toRange(lines, node.offset, node.end),
    selectionRange: toRange(lines, node.selectionOffset, node.selectionEnd),
    children: [],
  });
  const result = roots.map(convert);
  const stack: [DocumentSymbolNode, DocumentSymbol][] = roots.map((node, index) => [node, result[index]]);
  while (stack.length > 0) {
    const [node, symbol] = stack.pop()!;
    for (const child of node.children) {
      const converted = convert(child);
      symbol.children!.push(converted);
      stack.push([child, converted]);
    }
  }
  return result;
}

/**
 * The outline as SymbolInformation, for a client that does not declare
 * `hierarchicalDocumentSymbolSupport` (LSP answers DocumentSymbol[] only to one that does): every
 * symbol of the tree in its order, depth first, each with its range and its parent's name as
 * `containerName`. Walked with a stack of its own: the outline is capped in depth, not the stack.
 */
export function flatSymbols(symbols: readonly DocumentSymbol[], uri: string): SymbolInformation[] {
  const flat: SymbolInformation[] = [];
  const stack: { symbol: DocumentSymbol; container?: string }[] = symbols.map((symbol) => ({ symbol })).reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { symbol, container } = next;
    flat.push({ name: symbol.name, kind: symbol.kind, location: { uri, range: symbol.range }, ...(container !== undefined ? { containerName: container } : {}) });
    const children = symbol.children ?? [];
    for (let index = children.length - 1; index >= 0; index--) stack.push({ symbol: children[index], container: symbol.name });
  }
  return flat;
}
