/**
 * A code's documentation as the reader sees it: the same words in docs/diagnostics.md (made by
 * `npm run generate`) and in the help of SARIF rules, so a dashboard says what the catalogue says.
 */
import type { CodeDocs } from './definition';

/** The Markdown of one code's entry below its heading: what fires it, what to write, an example, its fixes. */
export function codeHelpMarkdownLines(docs: CodeDocs): string[] {
  const lines = [`**Fires when:** ${docs.fires}`, '', `**Write instead:** ${docs.instead}`, '', '```jsonc', '// fires', docs.example.fires, '// clean', docs.example.clean, '```', ''];
  if (docs.fixes) lines.push(`**Quick fixes:** ${docs.fixes}`, '');
  return lines;
}

/** The same entry as plain text, for consumers that show no Markdown. */
export function codeHelpText(docs: CodeDocs): string {
  const parts = [`Fires when: ${docs.fires}`, `Write instead: ${docs.instead}`, `Fires:\n${docs.example.fires}\nClean:\n${docs.example.clean}`];
  if (docs.fixes) parts.push(`Quick fixes: ${docs.fixes}`);
  return parts.join('\n\n');
}
