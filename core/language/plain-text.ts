/**
 * The Markdown of hovers and completion documentation as plain text, for a client that takes no
 * Markdown (eglot without markdown-mode declares only `plaintext` and shows what it is sent as it
 * stands: `**`, backticks, `\_` and a table's `| --- |` rows). It reads the Markdown that core
 * writes (./markdown.ts, ./schema-markdown.ts, the hovers' own `**` and code spans), where every
 * markup character of a registry's or a fixture's text is escaped, so an unescaped one is markup.
 */

/** Markdown `text` as the plain text it shows: emphasis and link targets dropped, escapes undone, tables aligned. */
export function markdownAsPlainText(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let index = 0; index < lines.length; ) {
    if (!lines[index].startsWith('|')) {
      out.push(inlineText(lines[index++]));
      continue;
    }
    const rows: string[][] = [];
    for (; index < lines.length && lines[index].startsWith('|'); index++) {
      const cells = tableCells(lines[index]);
      // The row under the header says only how to align.
      if (!cells.every((cell) => /^:?-+:?$/.test(cell.trim()))) rows.push(cells.map((cell) => inlineText(cell.trim())));
    }
    out.push(...alignedRows(rows));
  }
  return out.join('\n');
}

/** The cells of a table row, split at the pipes that are not escaped and not the row's own ends. */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 1; i < row.length; i++) {
    if (row[i] === '\\' && row[i + 1] === '|') {
      cell += '\\|';
      i++;
    } else if (row[i] === '|') {
      cells.push(cell);
      cell = '';
    } else cell += row[i];
  }
  if (cell.trim() !== '') cells.push(cell);
  return cells;
}

/** Rows of cells in columns as wide as their widest cell, two spaces apart, trailing spaces trimmed. */
function alignedRows(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, [...cell].length)));
  return rows.map((row) => row.map((cell, column) => cell + ' '.repeat(widths[column] - [...cell].length)).join('  ').trimEnd());
}

/** One line's inline Markdown as text: code spans as their content, `**`/`_` emphasis and link targets dropped, escapes and entities undone. */
function inlineText(line: string): string {
  let text = '';
  for (let i = 0; i < line.length; ) {
    const char = line[i];
    if (char === '\\' && i + 1 < line.length && /[!-/:-@[-`{-~]/.test(line[i + 1])) {
      // In a table cell an escaped pipe inside a code span is still written `\|`; everywhere else the escape is markup.
      text += line[i + 1];
      i += 2;
    } else if (char === '`') {
      const fence = /^`+/.exec(line.slice(i))![0];
      const close = line.indexOf(fence, i + fence.length);
      if (close < 0) {
        text += fence;
        i += fence.length;
        continue;
      }
      let content = line.slice(i + fence.length, close).replace(/\\\|/g, '|');
      if (content.length > 1 && content.startsWith(' ') && content.endsWith(' ')) content = content.slice(1, -1);
      text += content;
      i = close + fence.length;
    } else if (char === '*' || char === '[' || (char === '_' && !(isWordChar(line[i - 1]) && isWordChar(line[i + 1])))) {
      // An underscore inside a word (`schema_version` in the contract's own sentences) is no emphasis.
      i++;
    } else if (char === ']' && line[i + 1] === '(') {
      const close = line.indexOf(')', i + 2);
      i = close < 0 ? i + 1 : close + 1;
    } else if (char === '&') {
      const entity = /^&(amp|lt|gt);/.exec(line.slice(i));
      text += entity ? { amp: '&', lt: '<', gt: '>' }[entity[1] as 'amp' | 'lt' | 'gt'] : '&';
      i += entity ? entity[0].length : 1;
    } else {
      text += char;
      i++;
    }
  }
  return text;
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}
