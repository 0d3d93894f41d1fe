/**
 * Offers the whole-envelope snippets (client/whole-envelope-snippets.ts) where a whole envelope can
 * go: an empty document, or one holding only the prefix being typed; nowhere inside an object.
 */
import * as vscode from 'vscode';
import { ENVELOPE_LANGUAGE_ID } from '../core/language/protocol';
import { WHOLE_ENVELOPE_SNIPPETS, wholeEnvelopeFitsInLines, wordAt } from './whole-envelope-snippets';

export function registerWholeEnvelopeCompletion(context: vscode.ExtensionContext): void {
  const provider: vscode.CompletionItemProvider = {
    provideCompletionItems(document, position) {
      // Line by line: the whole text of a large document is not copied at each completion asked for.
      if (!wholeEnvelopeFitsInLines(document.lineCount, (line) => document.lineAt(line).text, position.line, position.character)) return undefined;
      const word = wordAt(document.lineAt(position.line).text, position.character);
      const range = new vscode.Range(position.line, word.start, position.line, word.end);
      return Object.entries(WHOLE_ENVELOPE_SNIPPETS).flatMap(([name, snippet]) =>
        snippet.prefix.map((prefix) => {
          const item = new vscode.CompletionItem(prefix, vscode.CompletionItemKind.Snippet);
          item.insertText = new vscode.SnippetString(snippet.body.join('\n'));
          item.detail = name;
          item.documentation = snippet.description;
          item.range = range;
          return item;
        }),
      );
    },
  };
  context.subscriptions.push(vscode.languages.registerCompletionItemProvider({ language: ENVELOPE_LANGUAGE_ID }, provider));
}
