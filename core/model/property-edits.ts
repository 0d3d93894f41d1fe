/**
 * Text edits on properties that keep the document valid JSON and in the file's own layout:
 * removing a property with its comma, inserting one with the object's indentation, renaming a
 * key, replacing a value. Quick fixes are built from these.
 */
import type { TextEdit } from './edits';
import type { ObjectNode, ParsedDocument, PropertyNode, ValueNode } from './tree';
import { propertyEnd } from './tree';

/** The document's line break, as its first one is written: CRLF, a lone CR (classic Mac OS) or LF (also for a text without one). */
export function eolOf(text: string): '\n' | '\r\n' | '\r' {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (cr < 0 || (lf >= 0 && lf < cr)) return '\n';
  return cr + 1 === lf ? '\r\n' : '\r';
}

/**
 * Removes a property together with the comma that separates it from its neighbour. Comments in
 * that span (a document with comments is no JSON, but still gets its quick fixes) stay: they are
 * the user's, and the fix removes the property alone.
 */
export function removeProperty(doc: ParsedDocument, property: PropertyNode): TextEdit {
  const siblings = property.parent.properties;
  const index = siblings.indexOf(property);
  const end = propertyEnd(property);
  // Not the last: up to the next key, so the removed span starts at this key.
  if (index < siblings.length - 1) return keepingComments(doc.text, { offset: property.keyOffset, end: siblings[index + 1].keyOffset }, 'before');
  if (index > 0) return keepingComments(doc.text, { offset: propertyEnd(siblings[index - 1]), end }, 'after');
  // The only property: leave an empty object behind.
  const object = property.parent;
  return keepingComments(doc.text, { offset: object.offset + 1, end: object.closed ? object.end - 1 : end }, 'after');
}

/**
 * The removal of `range` with the comments in it written back: `before` what follows the range
 * (each comment then separated from it), or `after` what precedes it (each comment set off by a
 * space). A line comment ends with a line break unless one already follows the range.
 */
function keepingComments(text: string, range: { offset: number; end: number }, side: 'before' | 'after'): TextEdit {
  const comments = commentsIn(text, range.offset, range.end);
  if (comments.length === 0) return { ...range, newText: '' };
  const eol = eolOf(text);
  // Before what follows: a line comment's line break is followed by the indentation of the line the
  // range ends on (the next key's, which the range removes with the rest of the span).
  const indent = side === 'before' ? indentOfLine(text, range.end) : '';
  const lineBreakFollows = /^[ \t]*[\r\n]/.test(text.slice(range.end));
  const parts = comments.map((comment, index) => {
    const isLine = comment.startsWith('//');
    if (side === 'before') return `${comment}${isLine ? eol + indent : ' '}`;
    const last = index === comments.length - 1;
    return ` ${comment}${isLine && !(last && lineBreakFollows) ? eol + indentOfLine(text, range.offset) : ''}`;
  });
  return { ...range, newText: parts.join('') };
}

/** The comments (`// …` to the line's end, `/* … *\/`) in `[offset, end)`, outside strings. */
function commentsIn(text: string, offset: number, end: number): string[] {
  const comments: string[] = [];
  let i = offset;
  while (i < end) {
    const char = text[i];
    if (char === '"') {
      i++;
      while (i < end && text[i] !== '"' && text[i] !== '\n' && text[i] !== '\r') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (char === '/' && text[i + 1] === '/') {
      let stop = i;
      while (stop < end && text[stop] !== '\n' && text[stop] !== '\r') stop++;
      comments.push(text.slice(i, stop));
      i = stop;
    } else if (char === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const stop = close < 0 || close + 2 > end ? end : close + 2;
      comments.push(text.slice(i, stop));
      i = stop;
    } else i++;
  }
  return comments;
}

/** Replaces a key token with another key, keeping the value. */
export function renameKey(property: PropertyNode, key: string): TextEdit {
  return { offset: property.keyOffset, end: property.keyEnd, newText: JSON.stringify(key) };
}

/** Replaces a value token with new JSON text. */
export function replaceValue(value: ValueNode, json: string): TextEdit {
  return { offset: value.offset, end: value.end, newText: json };
}

/** The whitespace that starts the line containing `offset`. */
function indentOfLine(text: string, offset: number): string {
  const lineStart = lineStartOf(text, offset);
  let end = lineStart;
  while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
  return text.slice(lineStart, end);
}

/** Where the line holding `offset` starts, after an LF, a CR or a CRLF. */
export function lineStartOf(text: string, offset: number): number {
  let lineStart = offset;
  while (lineStart > 0 && text[lineStart - 1] !== '\n' && text[lineStart - 1] !== '\r') lineStart--;
  return lineStart;
}

/** True when only whitespace stands between the start of its line and `offset`. */
function startsLine(text: string, offset: number): boolean {
  for (let i = offset - 1; i >= 0; i--) {
    const char = text[i];
    if (char === '\n' || char === '\r') return true;
    if (char !== ' ' && char !== '\t') return false;
  }
  return true;
}

/** The file's indentation unit, guessed from the first indented line (two spaces by default). */
function indentUnit(text: string): string {
  const match = /[\r\n]([ \t]+)\S/.exec(text);
  if (!match) return '  ';
  return match[1].startsWith('\t') ? '\t' : match[1].length >= 4 && match[1].length % 4 === 0 ? '    ' : '  ';
}

/** Serialises a value as JSON in the file's layout: pretty when the object is laid out on lines. */
function renderValue(value: unknown, multiline: boolean, indent: string, unit: string, eol: string): string {
  if (!multiline) return inlineJson(value);
  return JSON.stringify(value, null, unit).split('\n').join(eol + indent);
}

/** One-line JSON with a space after colons and commas, as people write it inline. */
function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${inlineJson(item)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** Appends `"key": value` at the end of an object, matching its indentation and line breaks. */
export function insertProperty(doc: ParsedDocument, object: ObjectNode, key: string, value: unknown): TextEdit {
  return insertProperties(doc, object, [[key, value]]);
}

/** Appends several properties at the end of an object, in order, as one edit in the object's layout. */
export function insertProperties(doc: ParsedDocument, object: ObjectNode, entries: readonly (readonly [string, unknown])[]): TextEdit {
  const { text } = doc;
  const eol = eolOf(text);
  const unit = indentUnit(text);
  const last = object.properties[object.properties.length - 1];
  if (last) {
    const multiline = startsLine(text, last.keyOffset);
    const indent = multiline ? indentOfLine(text, last.keyOffset) : '';
    const bodies = entries.map(([key, value]) => `${JSON.stringify(key)}: ${renderValue(value, multiline, indent, unit, eol)}`);
    return { offset: propertyEnd(last), end: propertyEnd(last), newText: bodies.map((body) => (multiline ? `,${eol}${indent}${body}` : `, ${body}`)).join('') };
  }
  // An empty object: open it onto lines when the document itself is laid out on lines.
  const multiline = /[\r\n]/.test(text);
  const closeIndent = indentOfLine(text, object.offset);
  const indent = closeIndent + unit;
  const bodies = entries.map(([key, value]) => `${JSON.stringify(key)}: ${renderValue(value, multiline, indent, unit, eol)}`);
  const inner = { offset: object.offset + 1, end: object.closed ? object.end - 1 : object.offset + 1 };
  return { ...inner, newText: multiline ? `${eol}${indent}${bodies.join(`,${eol}${indent}`)}${eol}${closeIndent}` : bodies.join(', ') };
}
