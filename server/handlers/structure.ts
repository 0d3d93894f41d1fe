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
  type TextEdit,
} from 'vscode-languageserver/node';
import { foldingRanges } from '../../core/language/folding';
import { formatDocument } from '../../core/language/format';
import { selectionRanges } from '../../core/language/selection';
import { documentSymbols, type DocumentSymbolNode } from '../../core/language/symbols';
import type { LineIndex } from '../../core/model/positions';
import type { ParsedDocument } from '../../core/model/tree';
import type { ServerContext } from '../context';
import { toLspEdit, toRange } from '../convert';
import { envelopes, envelopesAfterDiagnostics, requestHandler } from '../request';

/** Deeper selection chains would overflow JSON serialisation of the nested reply; core stops there. */
const MAX_SELECTION_DEPTH = 1000;

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

export function registerStructureFeatures(context: ServerContext): void {
  const { connection } = context;

  connection.onDocumentFormatting(
    requestHandler(context, 'formatting', envelopes, [], ({ parsed, lines }, params: DocumentFormattingParams): TextEdit[] => {
      const edits = formatDocument(parsed, { tabSize: params.options.tabSize, insertSpaces: params.options.insertSpaces, finalNewline: finalNewline(params.options) });
      return edits.map((edit) => toLspEdit(edit, lines));
    }),
  );

  connection.onFoldingRanges(
    requestHandler(context, 'foldingRanges', envelopesAfterDiagnostics, [], ({ parsed, lines }): FoldingRange[] =>
      foldingRanges(parsed, lines).map((range) => ({ startLine: range.startLine, endLine: range.endLine })),
    ),
  );

  // The workbench asks for a version's outline twice (the outline view and the breadcrumbs): the
  // second answer is the first one's, kept as long as that version's parse is.
  const outlines = new WeakMap<ParsedDocument, DocumentSymbol[]>();
  connection.onDocumentSymbol(
    requestHandler(context, 'documentSymbol', envelopesAfterDiagnostics, [], ({ parsed, lines }): DocumentSymbol[] => {
      let symbols = outlines.get(parsed);
      if (!symbols) outlines.set(parsed, (symbols = toLspSymbols(documentSymbols(parsed), lines)));
      return symbols;
    }),
  );

  connection.onSelectionRanges(
    requestHandler(context, 'selectionRanges', envelopes, [], ({ parsed, lines }, params: SelectionRangeParams): SelectionRange[] => {
      const chains = selectionRanges(parsed, params.positions.map((position) => lines.offsetAt(position)), MAX_SELECTION_DEPTH);
      return chains.map((chain, index) => {
        let parent: SelectionRange | undefined;
        // The reply is serialised recursively: core kept only the innermost levels of a very deep chain.
        for (let i = chain.length - 1; i >= 0; i--) parent = { range: toRange(lines, chain[i].offset, chain[i].end), ...(parent ? { parent } : {}) };
        return parent ?? { range: { start: params.positions[index], end: params.positions[index] } };
      });
    }),
  );
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
