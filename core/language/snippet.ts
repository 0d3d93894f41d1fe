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

/**
 * What a client without snippet support is sent: the snippet's plain text (below), with a value
 * laid out on lines (meta's and dead_letter's skeletons, an object of a payload schema) written on
 * one line, `{ "id": "…", "queue": "default" }`. Such a client inserts the text as it stands: Vim's
 * complete() (Neovim 0.7's omnifunc) puts a NUL character where the text breaks a line, and one
 * that keeps the breaks keeps the tab layout from column 0 whatever the line's indentation. Every
 * line break in it is the layout's (JSON writes none inside a string), so each with its
 * indentation becomes a space.
 */
export function plainCompletionText(snippet: string): string {
  return snippetToPlainText(snippet).replace(/\r?\n\t*/g, ' ');
}

/**
 * A snippet as the plain text it expands to with every placeholder left at its default: `${1:x}`
 * is `x`, a choice `${1|a,b|}` its first option, a bare tab stop `$1` nothing, and escapes are
 * undone. For clients that announce no snippet support (eglot without yasnippet inserts the
 * snippet's syntax as it stands).
 */
export function snippetToPlainText(snippet: string): string {
  let out = '';
  let index = 0;
  /** Inside `${…}`: the placeholder's default text, or a choice's first option. */
  const stack: { kind: 'placeholder' | 'choice'; text: string; options: string[] }[] = [];
  const emit = (text: string) => {
    const top = stack.at(-1);
    if (top) top.text += text;
    else out += text;
  };
  while (index < snippet.length) {
    const char = snippet[index];
    const top = stack.at(-1);
    if (char === '\\' && index + 1 < snippet.length && '\\$}|,'.includes(snippet[index + 1])) {
      emit(snippet[index + 1]);
      index += 2;
      continue;
    }
    if (char === '$') {
      const tabStop = /^\$(\d+)/.exec(snippet.slice(index));
      if (tabStop) {
        index += tabStop[0].length;
        continue;
      }
      const opening = /^\$\{(\d+)([:|])?/.exec(snippet.slice(index));
      if (opening) {
        index += opening[0].length;
        if (opening[2] === undefined) {
          // `${1}`: a tab stop with nothing in it; its `}` follows.
          if (snippet[index] === '}') index++;
          continue;
        }
        stack.push({ kind: opening[2] === '|' ? 'choice' : 'placeholder', text: '', options: [] });
        continue;
      }
    }
    if (top?.kind === 'choice' && (char === ',' || (char === '|' && snippet[index + 1] === '}'))) {
      top.options.push(top.text);
      top.text = '';
      if (char === '|') {
        stack.pop();
        emit(top.options[0] ?? '');
        index += 2;
      } else index++;
      continue;
    }
    if (top?.kind === 'placeholder' && char === '}') {
      stack.pop();
      emit(top.text);
      index++;
      continue;
    }
    emit(char);
    index++;
  }
  // An unclosed placeholder (not one the server writes) keeps what it held.
  while (stack.length > 0) {
    const open = stack.pop()!;
    emit(open.kind === 'choice' ? [...open.options, open.text][0] : open.text);
  }
  return out;
}
