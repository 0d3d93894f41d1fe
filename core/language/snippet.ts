/** Completion insert texts in VS Code's snippet syntax. */

/** A value as snippet text: strings become a selected placeholder, objects and arrays a laid-out block. */
export function valueSnippet(value: unknown): string {
  if (typeof value === 'string') return `"\${1:${escapeSnippet(JSON.stringify(value).slice(1, -1))}}"`;
  if (Array.isArray(value) && value.length === 0) return '[$1]';
  if (value !== null && typeof value === 'object') {
    if (Object.keys(value).length === 0) return '{$1}';
    return escapeSnippet(JSON.stringify(value, null, '\t'));
  }
  return `\${1:${escapeSnippet(JSON.stringify(value))}}`;
}

/** Escapes the characters that mean something in a snippet. */
export function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, '\\$&');
}
