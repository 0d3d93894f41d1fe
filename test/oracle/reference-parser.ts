/*
 * The reference for test/oracle/differential.ts: the straightforward parser that core/parse/parser.ts
 * replaced (one object per value, regular expressions for numbers), kept verbatim apart from its
 * import paths. The fast parser must produce the same tree and the same problems.
 */
/**
 * A strict (RFC 8259), error-tolerant JSON parser that builds the tree of `core/model/tree.ts`.
 *
 * Strict: comments, trailing commas, single quotes, unquoted keys, NaN/Infinity, a byte-order
 * mark, leading zeros and raw control characters in strings are all reported. Tolerant: each
 * problem is reported once and parsing goes on, so the rules still see everything that parsed.
 * Iterative: containers live on an explicit stack, so no nesting depth can overflow the call stack.
 */
import type {
  ArrayNode,
  ContainerNode,
  NumberNode,
  ObjectNode,
  ParsedDocument,
  PropertyNode,
  StringNode,
  SyntaxProblem,
  SyntaxRepair,
  ValueNode,
} from '../../core/model/tree';
import { Char } from '../../core/parse/chars';
import { shortened } from '../../core/model/describe-value';
import { afterPreviousToken, braceRepair, closersAtEnd, closingQuote, doubleQuoted, escapeControl, insert, nullOrString, remove, removeComment, removeTrailingComma, replace, separatorRepair } from '../../core/parse/repairs';

/** More problems than this in one file are summarised, so garbage input stays cheap to report. */
const MAX_PROBLEMS = 1000;
const UNTERMINATED = 'Unterminated string: add the closing double quote.';
const STRING_ACROSS_LINES = 'This string runs onto the next line: a JSON string cannot hold a raw line break; write \\n or join the lines.';


/**
 * A string's text without its quotes as JSON writes it: as it is when every backslash starts a valid
 * escape; else a pasted path, every backslash doubled but a `\"` (the escaped quote it was read as) and a `\\` (one escaped already).
 */
function pastedPathWritten(written: string): string {
  const escapes = written.match(/\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})?/g) ?? [];
  if (escapes.every((escape) => escape.length > 1)) return written;
  return written.replace(/\\(["\\]?)/g, (escape, next: string) => (next === '' ? escape + escape : escape));
}

/** A word before a property name; alone on its line it may be a key still being typed. */
function strayWordBeforeKeyMessage(word: string, aloneOnItsLine: boolean): string {
  const shown = shortened(word);
  return aloneOnItsLine
    ? `Unexpected word '${shown}' before the property name on the next line: write a property of its own as "${shown}": value, followed by a comma, or remove it.`
    : `Unexpected word '${shown}' before the property name; remove it.`;
}

type ObjectState = 'key' | 'colon' | 'value' | 'comma';
type ArrayState = 'value' | 'comma';

interface ObjectFrame {
  readonly node: ObjectNode;
  state: ObjectState;
  pending: PropertyNode | undefined;
  /** Offset of the last comma, for the trailing-comma report; -1 after anything else. */
  lastComma: number;
}

interface ArrayFrame {
  readonly node: ArrayNode;
  state: ArrayState;
  lastComma: number;
}

type Frame = ObjectFrame | ArrayFrame;

const STRICT_NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LOOSE_NUMBER = /[-+.0-9A-Za-z_]+/y;
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const VALID_ESCAPES = '"\\/bfnrt';
const ESCAPE_VALUES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Parses `text` into the document tree; never throws. */
export function parseJson(text: string): ParsedDocument {
  return new Parser(text).run();
}

/** A token that is a JSON value by itself: an integer without leading zeros, or a literal. */
const PLAIN_TOKEN = /^(?:0|[1-9][0-9]*|true|false|null)$/;
/**
 * The rest of a string value typed without its opening quote, up to the quote that ends the value on
 * its line: no control character; a valid escape, or a backslash that starts none (a path pasted as it is).
 */
const UNOPENED_STRING_REST = /^(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})|\\(?![\x00-\x1f"\\/bfnrt]|u[0-9a-fA-F]{4}))*(?="[ \t]*(?:[,}\]\n\r]|$))/;

/**
 * The same rest when it is a path pasted as it is that ends in a backslash (`C:\orders\in\",`): a
 * backslash that starts no escape, then the first `\"` with the value's end after it, which is the
 * path's last backslash and its closing quote.
 */
const PASTED_PATH_REST = /^(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*?\\(?![\x00-\x1f"\\/bfnrt]|u[0-9a-fA-F]{4})(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4}|\\(?![\x00-\x1f"\\/bfnrt]|u[0-9a-fA-F]{4}))*?\\(?="[ \t]*(?:[,}\]\n\r]|$))/;

/** The rest of a string value typed without its opening quote (see UNOPENED_STRING_REST, PASTED_PATH_REST), or null. */
function unopenedStringRest(rest: string): RegExpExecArray | null {
  return PASTED_PATH_REST.exec(rest) ?? UNOPENED_STRING_REST.exec(rest);
}

class Parser {
  private pos = 0;
  private readonly problems: SyntaxProblem[] = [];
  private readonly stack: Frame[] = [];
  private root: ValueNode | undefined;
  private truncated = false;
  /** Nodes `openMissingBracket` has moved one level down so far, kept below the text's length as the fast parser keeps its slots. */
  private moved = 0;
  /** Set when `parseValue` reported a stray word before a value and stopped at that value, which is read next in its place. */
  private strayWord = false;

  constructor(private readonly text: string) {}

  run(): ParsedDocument {
    const { text } = this;
    if (text.charCodeAt(0) === Char.Bom) {
      this.problem(0, 1, 'The file starts with a byte-order mark (U+FEFF); strict JSON must not. Save it as UTF-8 without BOM.');
      this.pos = 1;
    }
    while (true) {
      this.skipTrivia();
      if (this.pos >= text.length) break;
      const frame = this.stack[this.stack.length - 1];
      if (!frame) {
        if (this.root && this.reopenRoot()) continue;
        if (this.root) {
          this.problem(this.pos, this.pos + firstTokenLength(text.slice(this.pos)), 'Unexpected text after the end of the JSON value; a file holds exactly one envelope.');
          break;
        }
        this.root = this.parseValue(undefined, undefined);
        continue;
      }
      if (frame.node.kind === 'object') this.stepObject(frame as ObjectFrame);
      else this.stepArray(frame as ArrayFrame);
    }
    if (this.stack.length === 1 && this.closeMissingBrace()) this.stack.pop();
    const closeAtEnd = closersAtEnd(text);
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const { node } = this.stack[i];
      node.end = text.length;
      const closer = node.kind === 'object' ? "'}'" : "']'";
      this.problem(node.offset, node.offset + 1, `This ${node.kind} is never closed: expected ${closer} before the end of the file.`, closeAtEnd(closer[1]));
    }
    if (this.root === undefined && this.problems.length === 0) {
      this.problem(0, text.length, 'The file is empty; expected a JSON object (the envelope).');
    }
    return { text, root: this.root, syntaxProblems: this.problems };
  }

  private problem(offset: number, end: number, message: string, repairs?: readonly SyntaxRepair[]): void {
    if (this.problems.length >= MAX_PROBLEMS) {
      if (!this.truncated) {
        this.truncated = true;
        this.problems.push({ offset, end, message: `More than ${MAX_PROBLEMS} syntax problems; the rest are not listed.` });
      }
      return;
    }
    this.problems.push(repairs ? { offset, end: Math.max(end, offset), message, repairs } : { offset, end: Math.max(end, offset), message });
  }

  /** Skips JSON whitespace; reports and skips comments, which strict JSON does not allow. */
  private skipTrivia(): void {
    const { text } = this;
    while (this.pos < text.length) {
      const code = text.charCodeAt(this.pos);
      if (code === Char.Space || code === Char.LineFeed || code === Char.CarriageReturn || code === Char.Tab) {
        this.pos++;
        continue;
      }
      if (code === Char.Slash) {
        const next = text.charCodeAt(this.pos + 1);
        if (next === Char.Slash) {
          const lineEnd = findLineEnd(text, this.pos);
          this.problem(this.pos, lineEnd, 'Comments are not allowed in JSON; remove the comment.', [removeComment(this.pos, lineEnd)]);
          this.pos = lineEnd;
          continue;
        }
        if (next === 0x2a) {
          const close = text.indexOf('*/', this.pos + 2);
          const end = close < 0 ? text.length : close + 2;
          this.problem(this.pos, end, close < 0 ? 'Unterminated block comment; comments are not allowed in JSON.' : 'Comments are not allowed in JSON; remove the comment.', close < 0 ? undefined : [removeComment(this.pos, end)]);
          this.pos = end;
          continue;
        }
      }
      return;
    }
  }

  private stepObject(frame: ObjectFrame): void {
    const { text } = this;
    const code = text.charCodeAt(this.pos);
    const start = this.pos;
    switch (frame.state) {
      case 'key': {
        if (code === Char.CloseBrace) {
          // `"a": 1, } "b": 2`: a stray "}" before the next key.
          if (frame.lastComma >= 0 && /^\}[ \t\n\r]*"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(text.slice(start))) {
            this.problem(start, start + 1, "Unexpected '}': the object goes on after it; remove it.", [remove(start, start + 1, '}')]);
            this.pos++;
            return;
          }
          if (frame.lastComma >= 0) this.trailingComma(frame.lastComma);
          this.close(frame, start);
          return;
        }
        if (code === Char.Comma) {
          this.problem(start, start + 1, 'Unexpected comma: expected a property name in double quotes.', [remove(start, start + 1, ',')]);
          this.pos++;
          return;
        }
        if (code === Char.CloseBracket) {
          this.closer(code);
          return;
        }
        if (code === Char.OpenBrace && this.openMissingBracket(frame)) return;
        const key = this.readKey();
        if (key === undefined) return;
        const property: PropertyNode = { key: key.value, keyOffset: start, keyEnd: this.pos, colonOffset: -1, value: undefined, parent: frame.node };
        frame.node.properties.push(property);
        frame.pending = property;
        frame.state = 'colon';
        frame.lastComma = -1;
        return;
      }
      case 'colon': {
        if (code === Char.Colon) {
          frame.pending!.colonOffset = start;
          frame.state = 'value';
          this.pos++;
          return;
        }
        if (code === Char.Comma && this.strayBraceBeforeString(frame)) return;
        if (this.splitKeyAtColon(frame.pending!) || this.colonMistyped(frame.pending!) || this.wordBeforeColon(frame.pending!)) {
          frame.state = 'value';
          return;
        }
        const valueMissing = code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket;
        this.problem(frame.pending!.keyOffset, frame.pending!.keyEnd, `Expected ':' after the property name "${shortened(frame.pending!.key)}".`, valueMissing ? undefined : [insert(frame.pending!.keyEnd, ':')]);
        if (valueMissing) {
          frame.state = 'comma';
          return;
        }
        frame.state = 'value';
        return;
      }
      case 'value': {
        const scalarAhead = /^[,}\]][ \t\n\r]*(?:[{[]|(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null|"(?:\\[^\n\r]|[^"\\\n\r])*")[ \t]*(?:[,}\]\n\r]|$))/;
        // A string after the comma not followed by one may be the next key, typed up to its name (`"job": ,"meta"}`).
        const keyTyped = /^,[ \t\n\r]*"(?:\\[^\n\r]|[^"\\\n\r])*"(?![ \t]*,)/;
        if (frame.pending!.colonOffset >= 0 && (code === Char.Colon || (code === Char.Comma && scalarAhead.test(text.slice(start)) && !keyTyped.test(text.slice(start))))) {
          // `"queue":: "orders"`, `"queue":, "orders"`: one finding, and the value after it is the property's.
          const message = code === Char.Colon ? `Unexpected second ':' after the property name "${shortened(frame.pending!.key)}"; remove it.` : `Unexpected ',' after the property name "${shortened(frame.pending!.key)}" and its colon, before the value; remove it.`;
          this.problem(start, start + 1, message, [remove(start, start + 1, text[start])]);
          this.pos++;
          return;
        }
        if ((code === Char.CloseBrace || code === Char.CloseBracket) && frame.pending!.colonOffset >= 0 && scalarAhead.test(text.slice(start))) {
          // `"queue": } "orders"`: a stray bracket before the value.
          this.problem(start, start + 1, `Unexpected '${text[start]}' before the value of "${shortened(frame.pending!.key)}"; remove it.`, [remove(start, start + 1, text[start])]);
          this.pos++;
          return;
        }
        if (code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket) {
          const property = frame.pending!;
          this.problem(property.keyOffset, property.colonOffset >= 0 ? property.colonOffset + 1 : property.keyEnd, `Expected a value for "${property.key}".`);
          frame.state = 'comma';
          return;
        }
        const property = frame.pending!;
        const value = this.parseValue(frame.node, property);
        if (value) property.value = value;
        frame.state = this.strayWord ? 'value' : 'comma';
        return;
      }
      case 'comma': {
        if (code === Char.Comma) {
          frame.state = 'key';
          frame.lastComma = start;
          this.pos++;
          return;
        }
        if (code === Char.CloseBrace) {
          this.close(frame, start);
          return;
        }
        if (code === Char.CloseBracket && !this.stack.some((open) => open.node.kind === 'array') && /^\][ \t\n\r]*"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(text.slice(start))) {
          // `"orders"]` / `"lang": …`: a "]" typed for the comma.
          this.problem(start, start + 1, "Expected ',' instead of ']'.", [replace(start, start + 1, ',', "Write ','")]);
          frame.state = 'key';
          this.pos++;
          return;
        }
        if (code === Char.CloseBracket) {
          this.closer(code);
          return;
        }
        if (isWordStart(code) && this.endStringBeforeComma(frame)) return;
        if (isWordStart(code) && this.wordAfterValue(frame)) return;
        if (code === Char.Colon && this.openMissingBrace(frame)) return;
        if (code === Char.Quote && this.reopenObject(frame)) return;
        if (code === Char.Quote || code === Char.Apostrophe || isWordStart(code)) {
          this.problem(start, start + 1, "Expected ',' between properties.", [insert(afterPreviousToken(text, start), ',')]);
          frame.state = 'key';
          return;
        }
        this.unexpected("Expected ',' or '}'", (from, to) => separatorRepair(text, from, to));
        if (/^[ \t\n\r]*"/.test(text.slice(this.pos))) frame.state = 'key';
        return;
      }
    }
  }

  private stepArray(frame: ArrayFrame): void {
    const code = this.text.charCodeAt(this.pos);
    const start = this.pos;
    if (frame.state === 'value') {
      if (code === Char.CloseBracket) {
        if (frame.lastComma >= 0) this.trailingComma(frame.lastComma);
        this.close(frame, start);
        return;
      }
      if (code === Char.Comma) {
        this.problem(start, start + 1, 'Expected a value before this comma.');
        this.pos++;
        return;
      }
      if (code === Char.CloseBrace) {
        this.closer(code);
        return;
      }
      const value = this.parseValue(frame.node, undefined);
      if (value) {
        frame.node.items.push(value);
        frame.state = 'comma';
        frame.lastComma = -1;
      }
      return;
    }
    if (code === Char.Comma) {
      frame.state = 'value';
      frame.lastComma = start;
      this.pos++;
      return;
    }
    if (code === Char.CloseBracket) {
      this.close(frame, start);
      return;
    }
    if (code === Char.CloseBrace) {
      this.closer(code);
      return;
    }
    if (code === Char.Colon && this.closeMissingBracket(frame)) return;
    if (this.endStringBeforeComma(frame)) return;
    if (isWordStart(code) && this.wordAfterValue()) return;
    if (code === Char.Colon) {
      // `["a", "b": "c"]`: one finding on the colon, and the value after it is the next item.
      const scalar = /^:[ \t\n\r]*("(?:\\[^\n\r]|[^"\\\n\r])*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![A-Za-z0-9_$.+-])|(?:true|false|null)(?![A-Za-z0-9_$]))/.exec(this.text.slice(start));
      const after = this.text.slice(start + 1).replace(/^[ \t\n\r]*/, '');
      const removal = scalar ? `: ${shortened(scalar[1])}` : after.startsWith('{') ? ': {…}' : after.startsWith('[') ? ': […]' : ':';
      this.problem(start, start + 1, `Arrays hold values, not key: value pairs; write an object {…} or remove \`${removal}\`.`);
      if (!/^[,\]]/.test(after)) frame.state = 'value';
      this.pos++;
      return;
    }
    this.problem(start, start + 1, "Expected ',' between array values.", [insert(afterPreviousToken(this.text, start), ',')]);
    frame.state = 'value';
  }

  /** A key missing its closing quote (`"queue: "orders"`, `"version: 1,`): the name before its colon, the value after it. */
  private splitKeyAtColon(property: PropertyNode): boolean {
    const { text } = this;
    const token = text.slice(property.keyOffset, property.keyEnd);
    const last = this.problems[this.problems.length - 1];
    const open = last !== undefined && last.offset === property.keyOffset && last.message === UNTERMINATED;
    // Split at the last colon, the one typed after the name (which may hold colons of its own).
    const tookValue = !open && /^"[^"\\]*:[ \t]*[^ \t:][^:]*,[ \t]*"$/.test(token) && /^(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(text.slice(property.keyEnd));
    // Or it took its value's "[" or "{" (`"tags: ["a"`), and its closing quote opens the first item or key.
    const opener = open || tookValue ? null : /^"([^"\\]*?) *:[ \t]*([[{][ \t[{]*)"$/.exec(token);
    if (opener && opener[1].length > 0) {
      const item = /[[][ \t]*$/.test(opener[2]);
      const rest = text.slice(property.keyEnd);
      if (item ? /^(?:\\[^\n\r]|[^"\\\n\r])*"[ \t]*(?:[,}\]\n\r]|$)/.test(rest) : /^(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(rest)) {
        const name = opener[1];
        const editable = property as { key: string; keyEnd: number };
        editable.key = name;
        editable.keyEnd = property.keyOffset + 1 + name.length;
        this.problem(property.keyOffset, property.keyEnd, `The property name "${name}" lacks its closing double quote: write "${name}".`, [insert(property.keyEnd, '"', `Write "${shortened(name)}"`)]);
        this.pos = property.keyOffset + token.length - 1 - opener[2].length;
        return true;
      }
    }
    // Or, left open after its colon, its value is on the lines below (`"tags:` / `["a"]`).
    const below = open ? /^"([^"\\]*?) *:[ \t]*$/.exec(token) : null;
    if (below && below[1].length > 0 && /^[ \t\n\r]*(?:[{[]|(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null|"(?:\\[^\n\r]|[^"\\\n\r])*")[ \t]*(?:[,}\]\n\r]|$))/.test(text.slice(property.keyEnd))) {
      this.problems.pop();
      const name = below[1];
      const editable = property as { key: string; keyEnd: number };
      editable.key = name;
      editable.keyEnd = property.keyOffset + 1 + name.length;
      this.problem(property.keyOffset, property.keyEnd, `The property name "${name}" lacks its closing double quote: write "${name}".`, [insert(property.keyEnd, '"', `Write "${shortened(name)}"`)]);
      this.pos = property.keyOffset + token.length;
      return true;
    }
    const match = (open || tookValue ? /^"([^"\\]*?) *:(?=[^:]*$)([ \t]*)(?=[^ \t])/ : /^"([^"\\]*?) *:[ \t]*"$/).exec(token);
    if (!match || match[1].length === 0) return false;
    if (!open && !tookValue && /^(?:[\n\r,:}\]]|$)/.test(text.slice(this.pos))) return false;
    // Closed, the key took its value's opening quote only if the rest of that string follows at once, closed on its line.
    if (!open && !tookValue && !/^(?:\\[^\n\r]|[^"\\\n\r])*"[ \t]*(?:[,}\]\n\r]|$)/.test(text.slice(property.keyEnd))) return false;
    if (open) this.problems.pop();
    const name = match[1];
    const editable = property as { key: string; keyEnd: number };
    editable.key = name;
    editable.keyEnd = property.keyOffset + 1 + name.length;
    this.problem(property.keyOffset, property.keyEnd, `The property name "${name}" lacks its closing double quote: write "${name}".`, [insert(property.keyEnd, '"', `Write "${shortened(name)}"`)]);
    this.pos = open || tookValue ? property.keyOffset + match[0].length : property.keyOffset + token.length - 1;
    return true;
  }

  /** `{"a": 1, }` / `"b": 2}`: a stray "}" closed the root object, and its keys go on after it. */
  private reopenRoot(): boolean {
    const { text, problems } = this;
    const root = this.root!;
    if (root.kind !== 'object' || !root.closed) return false;
    const rest = text.slice(this.pos);
    if (!/^,?[ \t\n\r]*"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(rest) || (!rest.startsWith(',') && !rest.startsWith('"'))) return false;
    const brace = root.end - 1;
    // A key indented otherwise than the first: the stray "}" was in an inner object.
    const key = this.pos + /^,?[ \t\n\r]*/.exec(rest)![0].length;
    const indentBefore = (at: number) => {
      const line = /(?:^|[\n\r])([ \t]*)$/.exec(text.slice(Math.max(0, at - 256), at));
      return line && (line[0].length > line[1].length || at - line[1].length === 0) ? line[1].length : -1;
    };
    const first = root.properties[0];
    for (const at of [key, root.properties[root.properties.length - 1]?.keyOffset ?? -1]) {
      if (first && at >= 0 && indentBefore(at) >= 0 && indentBefore(first.keyOffset) >= 0 && indentBefore(at) !== indentBefore(first.keyOffset)) return false;
    }
    const last = problems[problems.length - 1];
    const trailingComma = last !== undefined && last.message.startsWith('Trailing comma') && /^,[ \t\n\r]*$/.test(text.slice(last.offset, brace));
    if (trailingComma) problems.pop();
    root.closed = false;
    root.end = text.length;
    const comma = rest.startsWith(',');
    this.stack.push({ node: root, state: trailingComma || !comma ? 'key' : 'comma', pending: undefined, lastComma: trailingComma ? last.offset : -1 });
    const stray = comma || trailingComma || root.properties.length === 0;
    this.problem(brace, brace + 1, stray ? "Unexpected '}': the object goes on after it; remove it." : "Expected ',' instead of '}': the object goes on after it.", [braceRepair(brace, stray)]);
    return true;
  }

  /** `"data": {}` / `    "order_id": …`: a key deeper than the line its object value opens on, after that object's "}": the "}" is stray. */
  private reopenObject(frame: ObjectFrame): boolean {
    const { text } = this;
    const property = frame.node.properties[frame.node.properties.length - 1];
    const value = property?.value;
    if (!value || value.kind !== 'object' || !value.closed || !/^[ \t\n\r]*$/.test(text.slice(value.end, this.pos))) return false;
    if (!/^"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(text.slice(this.pos))) return false;
    const lineIndent = (at: number) => {
      const line = /(?:^|[\n\r])([ \t]*)[^\n\r]*$/.exec(text.slice(Math.max(0, at - 256), at));
      return line && (/^[\n\r]/.test(line[0]) || at - line[0].length === 0) ? line[1].length : -1;
    };
    const own = lineIndent(value.offset);
    const lineBefore = /(?:^|[\n\r])([^\n\r]*)$/.exec(text.slice(Math.max(0, this.pos - 256), this.pos))!;
    const column = /^[\n\r]/.test(lineBefore[0]) || this.pos - lineBefore[0].length === 0 ? lineBefore[1].length : -1;
    const between = text.slice(Math.max(value.offset, this.pos - 257), this.pos);
    const brace = value.end - 1;
    const braceLine = /(?:^|[\n\r])([ \t]*)$/.exec(text.slice(Math.max(0, brace - 256), brace));
    const braceIndent = braceLine && (braceLine[0].length > braceLine[1].length || brace - braceLine[1].length === 0) ? braceLine[1].length : -1;
    if (own < 0 || column <= own || !(/[\n\r]/.test(between) || this.pos - value.offset > 257) || braceIndent === own) return false;
    value.closed = false;
    value.end = text.length;
    this.stack.push({ node: value, state: 'key', pending: undefined, lastComma: -1 });
    this.problem(brace, brace + 1, value.properties.length === 0 ? "Unexpected '}': the object goes on after it; remove it." : "Expected ',' instead of '}': the object goes on after it.", [braceRepair(brace, value.properties.length === 0)]);
    return true;
  }

  /** `"EUR"x,`: a stray word after a value, before its comma or closing bracket on the line. */
  private wordAfterValue(frame?: ObjectFrame): boolean {
    const forComma = frame ? /^[A-Za-z0-9_$]+(?=[ \t]*[\n\r][ \t\n\r]*"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:)/.exec(this.text.slice(this.pos)) : null;
    if (forComma && !/[ \t\n\r]/.test(this.text[this.pos - 1])) {
      // `"orders"x` / `"lang": …`: a word typed for the comma.
      this.problem(this.pos, this.pos + forComma[0].length, `Expected ',' after the value, found '${shortened(forComma[0])}'.`, [replace(this.pos, this.pos + forComma[0].length, ',', "Write ','")]);
      frame!.state = 'key';
      this.pos += forComma[0].length;
      return true;
    }
    const match = (frame ? /^[A-Za-z0-9_$]+(?=[ \t\n\r]*[,}\]])/ : /^[A-Za-z0-9_$]+(?=[ \t]*[,}\]])/).exec(this.text.slice(this.pos));
    // In an array a word after a space may be the next item; in an object it is no key.
    if (!match || (!frame && /[ \t\n\r]/.test(this.text[this.pos - 1]))) return false;
    this.problem(this.pos, this.pos + match[0].length, `Unexpected word '${shortened(match[0])}' after the value; remove it.`, [remove(this.pos, this.pos + match[0].length, match[0])]);
    this.pos += match[0].length;
    return true;
  }

  /** `"job": {"urn:babel:orders:created",`: a "{" before a string value, read as an object's first key, a comma after it. */
  private strayBraceBeforeString(frame: ObjectFrame): boolean {
    const { text } = this;
    const outer = this.stack[this.stack.length - 2];
    const node = frame.node;
    if (!outer || node.properties.length !== 1) return false;
    const key = node.properties[0];
    const token = text.slice(key.keyOffset, key.keyEnd);
    // The string on the "{"'s line: on a line after it, it is a key of an object written over lines.
    if (!/^[ \t]*$/.test(text.slice(node.offset + 1, key.keyOffset)) || !/^"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"$/.test(token)) return false;
    const after = text.slice(this.pos + 1).replace(/^[ \t\n\r]*/, '');
    if (after === '' || /^[}\],]/.test(after)) return false;
    if (outer.node.kind === 'object' && !/^"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(after)) return false;
    // Pretty-printed, the next key indented further than the property line the "{" is on is the object's own.
    const gap = /^,([ \t\n\r]*)/.exec(text.slice(this.pos))![1];
    if (outer.node.kind === 'object' && /[\n\r]/.test(gap.slice(-256))) {
      const braceLine = /(?:^|[\n\r])([ \t]*)([^\n\r]*)$/.exec(text.slice(Math.max(0, node.offset - 256), node.offset));
      const onLine = braceLine && (/^[\n\r]/.test(braceLine[0]) || node.offset - braceLine[0].length === 0);
      const nextIndent = /[ \t]*$/.exec(gap)![0];
      if (onLine && braceLine[2].startsWith('"') && nextIndent.length < 256 && nextIndent.length > braceLine[1].length) return false;
    }
    // The text after the comma closes every open container, this object too: the "{" is the object's own.
    if (outer.node.kind === 'object' && closersAfter(text, this.pos) >= this.stack.length) return false;
    if (outer.node.kind === 'array') {
      const scalar = /^,[ \t\n\r]*(?:"(?:\\[^\n\r]|[^"\\\n\r])*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)[ \t\n\r]*/.exec(text.slice(this.pos));
      if (!scalar) return false;
      const rest = text.slice(this.pos + scalar[0].length);
      if (!(rest.startsWith(']') || (/^,[ \t\n\r]*[^ \t\n\r}]/.test(rest) && !/^,[ \t\n\r]*"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(rest)))) return false;
    }
    const value: StringNode = { kind: 'string', offset: key.keyOffset, end: key.keyEnd, parent: node.parent, property: node.property, value: key.key };
    if (outer.node.kind === 'object') (node.property as { value: ValueNode }).value = value;
    else outer.node.items[outer.node.items.length - 1] = value;
    this.stack.pop();
    outer.state = 'comma';
    this.problem(node.offset, node.offset + 1, `Unexpected '{' before the string ${shortened(token)}; remove it.`, [remove(node.offset, node.offset + 1, '{')]);
    return true;
  }

  /** `"queue"x: "orders"`: a stray word between a property name and its colon. */
  private wordBeforeColon(property: PropertyNode): boolean {
    const rest = this.text.slice(this.pos);
    if (/^,[ \t\n\r]*(?:[{[]|(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null|"(?:\\[^\n\r]|[^"\\\n\r])*")[ \t]*(?:[,}\]\n\r]|$))/.test(rest)) {
      this.problem(this.pos, this.pos + 1, `Expected ':' after the property name "${shortened(property.key)}", found ','.`, [replace(this.pos, this.pos + 1, ':', "Write ':'")]);
      this.pos++;
      return true;
    }
    if (/^[{}\]][ \t\n\r]*(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null|"(?:\\[^\n\r]|[^"\\\n\r])*")[ \t]*(?:[,}\]\n\r]|$)/.test(rest)) {
      // `"queue"{ "orders",`: a brace or "]" typed for the colon, before a scalar value.
      this.problem(this.pos, this.pos + 1, `Expected ':' after the property name "${shortened(property.key)}", found '${rest[0]}'.`, [replace(this.pos, this.pos + 1, ':', "Write ':'")]);
      this.pos++;
      return true;
    }
    const stray = /^[,"{}[\]][ \t]*:/.exec(rest);
    if (stray) {
      this.problem(this.pos, this.pos + 1, `Unexpected '${rest[0]}' between the property name "${shortened(property.key)}" and its colon; remove it.`, [remove(this.pos, this.pos + 1, rest[0])]);
      (property as { colonOffset: number }).colonOffset = this.pos + stray[0].length - 1;
      this.pos += stray[0].length;
      return true;
    }
    const match = /^[A-Za-z_$][A-Za-z0-9_$]*(?=[ \t]*:)/.exec(this.text.slice(this.pos));
    if (!match) return false;
    const colon = this.text.indexOf(':', this.pos + match[0].length);
    this.problem(this.pos, this.pos + match[0].length, `Unexpected word '${shortened(match[0])}' between the property name "${shortened(property.key)}" and its colon; remove it.`, [remove(this.pos, this.pos + match[0].length, match[0])]);
    (property as { colonOffset: number }).colonOffset = colon;
    this.pos = colon + 1;
    return true;
  }

  /** `"queue" = "orders"`: a character no value starts with stands for the colon before a value. */
  private colonMistyped(property: PropertyNode): boolean {
    const { text } = this;
    if (!/^[\x21-\x7f](?<![A-Za-z0-9_$"'{}[\],\/+.\-])[ \t]*["{[\-A-Za-z0-9_$]/.test(text.slice(this.pos))) return false;
    this.problem(this.pos, this.pos + 1, `Expected ':' after the property name "${shortened(property.key)}", found ${describe(text[this.pos])}.`, [replace(this.pos, this.pos + 1, ':', "Write ':'")]);
    this.pos++;
    return true;
  }

  /** `"meta": "id": "…", …}`: the string before this colon is the first key of an object whose "{" is missing. */
  private openMissingBrace(frame: ObjectFrame): boolean {
    const { text } = this;
    const property = frame.node.properties[frame.node.properties.length - 1];
    const value = property?.value;
    if (!value || value.kind !== 'string' || text[value.offset] !== '"' || !/^[ \t\n\r]*$/.test(text.slice(value.end, this.pos))) return false;
    const after = text.slice(this.pos + 1).replace(/^[ \t\n\r]*/, '');
    if (after.startsWith('"') ? /^"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(after) : !/^[{[\-A-Za-z0-9_$]/.test(after)) return false;
    const node: ObjectNode = { kind: 'object', offset: value.offset, end: text.length, parent: frame.node, property, properties: [], closed: false };
    const key: PropertyNode = { key: value.value, keyOffset: value.offset, keyEnd: value.end, colonOffset: this.pos, value: undefined, parent: node };
    node.properties.push(key);
    (property as { value: ValueNode }).value = node;
    this.stack.push({ node, state: 'value', pending: key, lastComma: -1 });
    this.problem(value.offset, value.end, `Expected '{' before "${value.value}": the object's opening brace is missing.`, [insert(value.offset, '{')]);
    this.pos++;
    return true;
  }

  /**
   * Only the root object left open at the end: the first key that starts its line no deeper than
   * the line its object opens on, in an object whose first key is deeper, belongs to the object
   * around it, the object's "}" left out before the comma ahead of it. The keys from there on go
   * one object up, and each "}" after them closes the object around the one it closed.
   */
  private closeMissingBrace(): boolean {
    const { text } = this;
    const root = this.stack[0].node;
    if (root.kind !== 'object' || root.parent !== undefined) return false;
    const lineStartOf = (at: number) => Math.max(text.lastIndexOf('\n', at - 1), text.lastIndexOf('\r', at - 1)) + 1;
    const indentAt = (at: number): number => (/^[ \t]*$/.test(text.slice(lineStartOf(at), at)) ? at - lineStartOf(at) : -1);
    const lineIndent = (at: number): number => /^[ \t]*/.exec(text.slice(lineStartOf(at)))![0].length;
    // Indentation lengths compare only between lines of spaces, or of tabs, or where one has none.
    const indentKind = (at: number): string => {
      const indent = /^[ \t]*/.exec(text.slice(lineStartOf(at)))![0];
      return indent === '' ? 'none' : /^ +$/.test(indent) ? 'spaces' : /^\t+$/.test(indent) ? 'tabs' : 'mixed';
    };
    const alike = (a: number, b: number): boolean => indentKind(a) === 'none' || indentKind(b) === 'none' || (indentKind(a) === indentKind(b) && indentKind(a) !== 'mixed');
    // The keys in document order, each before what its value holds.
    let found: PropertyNode | undefined;
    const visit: { container: ContainerNode; next: number }[] = [{ container: root, next: 0 }];
    while (visit.length > 0 && !found) {
      const top = visit[visit.length - 1];
      const { container } = top;
      if (top.next >= (container.kind === 'object' ? container.properties.length : container.items.length)) {
        visit.pop();
        continue;
      }
      const i = top.next++;
      let value: ValueNode | undefined;
      if (container.kind === 'object') {
        const property = container.properties[i];
        const own = lineIndent(container.offset);
        if (container !== root && i > 0 && indentAt(property.keyOffset) >= 0 && indentAt(property.keyOffset) <= own && indentAt(container.properties[0].keyOffset) > own && alike(property.keyOffset, container.offset) && alike(container.properties[0].keyOffset, container.offset)) found = property;
        value = property.value;
      } else {
        value = container.items[i];
      }
      if (value && (value.kind === 'object' || value.kind === 'array')) visit.push({ container: value, next: 0 });
    }
    if (!found) return false;
    const chain: ObjectNode[] = [];
    for (let node: ContainerNode | undefined = found.parent; node !== root; node = node.parent) {
      if (!node || node.kind !== 'object' || !node.closed) return false;
      chain.push(node);
    }
    if (root.properties[root.properties.length - 1].value !== chain[chain.length - 1]) return false;
    let comma = found.keyOffset - 1;
    while (/[ \t\n\r]/.test(text[comma] ?? '')) comma--;
    if (text[comma] !== ',') return false;
    const inner = chain[0];
    let moving = inner.properties.splice(inner.properties.indexOf(found));
    let ends = inner.end;
    let closed = inner.closed;
    inner.end = comma;
    (inner as { closed: boolean }).closed = false;
    for (let i = 1; i <= chain.length; i++) {
      const node = i < chain.length ? chain[i] : root;
      const { end, closed: wasClosed } = node;
      // The keys after the object below, which were the object around this one's, move up in turn.
      const after = node.properties.splice(node.properties.indexOf(chain[i - 1].property!) + 1);
      node.properties.push(...moving);
      for (const property of moving) {
        (property as { parent: ObjectNode }).parent = node;
        if (property.value) (property.value as { parent: ContainerNode }).parent = node;
      }
      node.end = ends;
      (node as { closed: boolean }).closed = closed;
      moving = after;
      ends = end;
      closed = wasClosed;
    }
    this.problem(comma, comma + 1, "Expected '}' before this comma: the object's closing brace is missing.", [insert(comma, '}')]);
    return true;
  }

  /** `"items": {…}, {…}]`: the object before the comma is the first item of an array whose "[" is missing. */
  private openMissingBracket(frame: ObjectFrame): boolean {
    const { text } = this;
    const property = frame.node.properties[frame.node.properties.length - 1];
    const value = property?.value;
    if (frame.lastComma < 0 || !value || value.kind !== 'object' || !value.closed) return false;
    if (!/^[ \t\n\r]*$/.test(text.slice(value.end, frame.lastComma))) return false;
    const item = /^\{[ \t\n\r]*(?:\}|"((?:\\[^\n\r]|[^"\\\n\r])+)"[ \t]*:)/.exec(text.slice(this.pos));
    if (!item) return false;
    // An array's items share their keys: a first key the object does not hold follows a stray "{".
    if (item[1] !== undefined && !value.properties.some((held) => held.key === item[1])) return false;
    // The nodes below the object, each a slot the fast parser moves.
    let below = 0;
    const walk: ValueNode[] = [value];
    while (walk.length > 0) {
      const node = walk.pop()!;
      const children = node.kind === 'object' ? node.properties.map((p) => p.value).filter((v): v is ValueNode => v !== undefined) : node.kind === 'array' ? node.items : [];
      below += node.kind === 'object' ? node.properties.length : children.length;
      walk.push(...children);
    }
    if (this.moved + below > text.length) return false;
    this.moved += below;
    const array: ArrayNode = { kind: 'array', offset: value.offset, end: text.length, parent: frame.node, property, items: [value], closed: false };
    (value as { parent: ContainerNode | undefined }).parent = array;
    (value as { property: PropertyNode | undefined }).property = undefined;
    (property as { value: ValueNode }).value = array;
    this.stack.push({ node: array, state: 'value', lastComma: frame.lastComma });
    frame.state = 'comma';
    frame.lastComma = -1;
    this.problem(value.offset, value.offset + 1, "Expected '[' before '{': the array's opening bracket is missing.", [insert(value.offset, '[')]);
    return true;
  }

  /** `"items": [1, 2, "next": …`: the array's "]" is missing before its comma, and the string before this colon is the next key. */
  private closeMissingBracket(frame: ArrayFrame): boolean {
    const { text } = this;
    const outer = this.stack[this.stack.length - 2];
    if (!outer || outer.node.kind !== 'object') return false;
    const items = frame.node.items;
    const last = items[items.length - 1];
    if (items.length < 2 || last.kind !== 'string' || text[last.offset] !== '"' || !/^[ \t\n\r]*$/.test(text.slice(last.end, this.pos))) return false;
    const comma = text.slice(items[items.length - 2].end, last.offset).search(/,[ \t\n\r]*$/);
    if (comma < 0 || !/^:[ \t\n\r]*["{[\-A-Za-z0-9_$]/.test(text.slice(this.pos))) return false;
    // A colon typed for a comma (`["a", "b": "c"]`): the scalar after it is followed by the array's "]", or by a comma and another item.
    const scalar = /^:[ \t\n\r]*(?:"(?:\\[^\n\r]|[^"\\\n\r])*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)[ \t\n\r]*/.exec(text.slice(this.pos));
    if (scalar) {
      const after = text.slice(this.pos + scalar[0].length);
      if (after.startsWith(']') || (/^,[ \t\n\r]*[^ \t\n\r}]/.test(after) && !/^,[ \t\n\r]*"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(after))) return false;
    }
    const at = items[items.length - 2].end + comma;
    items.pop();
    frame.node.end = at;
    this.stack.pop();
    const object = outer as ObjectFrame;
    const property: PropertyNode = { key: last.value, keyOffset: last.offset, keyEnd: last.end, colonOffset: this.pos, value: undefined, parent: object.node };
    object.node.properties.push(property);
    object.pending = property;
    object.state = 'value';
    object.lastComma = -1;
    this.problem(at, at + 1, "Expected ']' before this comma: the array's closing bracket is missing.", [insert(at, ']')]);
    this.pos++;
    return true;
  }

  /** `"orders,"lang": …`, `["x,"b"]`: the string before this key or item's rest ends before the comma it holds, which counts again. */
  private endStringBeforeComma(frame: Frame): boolean {
    const { text } = this;
    const value = frame.node.kind === 'object' ? frame.node.properties[frame.node.properties.length - 1]?.value : frame.node.items[frame.node.items.length - 1];
    if (!value || value.kind !== 'string' || value.end !== this.pos) return false;
    const token = text.slice(value.offset, value.end);
    const match = /[,}\] \t]*,[ \t}\]]*"$/.exec(token);
    if (!token.startsWith('"') || !match || match.index === 0) return false;
    const rest = frame.node.kind === 'object' ? /^(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/ : /^(?:\\[^\n\r]|[^"\\\n\r])*"[ \t]*(?:[,}\]\n\r]|$)/;
    if (!rest.test(text.slice(this.pos))) return false;
    const trimmed = match[0].length - 1;
    (value as { value: string }).value = value.value.slice(0, value.value.length - trimmed);
    value.end = value.offset + match.index;
    this.dropControlCharactersFrom(value.end);
    const afterComma = match[0].slice(match[0].lastIndexOf(','));
    if (!/[}\]]/.test(afterComma)) {
      this.problem(value.offset, value.end, UNTERMINATED, closingQuote(text, value.end));
      this.pos = value.end;
      return true;
    }
    // `["x, ]"b"]`: the bracket after the comma is the string's; the next key or item starts at the quote.
    const next = /^[^"\n\r]*/.exec(text.slice(this.pos))![0];
    this.problem(value.offset, value.end, `Unterminated string: add the closing double quote before \`${shortened(match[0].slice(0, -1))}\`; as written, the string ends only at the quote that opens "${shortened(next)}".`, closingQuote(text, value.end));
    frame.state = frame.node.kind === 'object' ? 'key' : 'value';
    frame.lastComma = value.offset + match.index + match[0].lastIndexOf(',');
    this.pos--;
    return true;
  }

  /** Takes back the control-character problems (a tab) at or after `from`, listed after the first `since`: text no longer in the string. */
  private dropControlCharactersFrom(from: number, since = 0): void {
    const { problems } = this;
    while (problems.length > since && problems[problems.length - 1].offset >= from && problems[problems.length - 1].message.startsWith('Control character')) problems.pop();
  }

  private trailingComma(offset: number): void {
    this.problem(offset, offset + 1, 'Trailing comma: strict JSON does not allow a comma before a closing bracket.', [removeTrailingComma(offset)]);
  }

  private close(frame: Frame, at: number): void {
    frame.node.end = at + 1;
    frame.node.closed = true;
    this.stack.pop();
    this.pos = at + 1;
  }

  /** A closing bracket that does not match the innermost container. */
  private closer(code: number): void {
    const wanted = code === Char.CloseBrace ? 'object' : 'array';
    const matchIndex = findLastIndex(this.stack, (f) => f.node.kind === wanted);
    const top = this.stack[this.stack.length - 1];
    const expected = top.node.kind === 'object' ? "'}'" : "']'";
    this.problem(this.pos, this.pos + 1, `Mismatched bracket: expected ${expected} here.`);
    if (matchIndex < 0) {
      this.pos++;
      return;
    }
    // Close the unclosed inner containers here and let the matching one take the bracket.
    while (this.stack.length - 1 > matchIndex) {
      const inner = this.stack.pop()!;
      inner.node.end = this.pos;
    }
  }

  /** Reports the token at `this.pos` as not what `expectation` says; `repairs`, when the caller knows what it was typed for. */
  private unexpected(expectation: string, repairs?: (start: number, end: number) => readonly SyntaxRepair[] | undefined): void {
    const start = this.pos;
    const end = this.tokenEnd(start);
    this.problem(start, end, `${expectation}, found ${describe(this.text.slice(start, end))}.`, repairs?.(start, end));
    this.pos = end;
  }

  /** The end of a run of non-structural characters, so one bad token is one problem. */
  private tokenEnd(start: number): number {
    const { text } = this;
    let end = start + 1;
    if (isWordStart(text.charCodeAt(start)) || isDigit(text.charCodeAt(start))) {
      while (end < text.length && isWordPart(text.charCodeAt(end))) end++;
    } else if (isHighSurrogate(text.charCodeAt(start)) && end < text.length && isLowSurrogate(text.charCodeAt(end))) {
      // One character outside the BMP is one token; a lone high surrogate (half of a pair deleted)
      // is one alone: taking the next code unit too would swallow a quote or a bracket, or end the
      // range between a CRLF's two characters, past the line.
      end++;
    }
    return end;
  }

  private readKey(): { value: string } | undefined {
    const { text } = this;
    const code = text.charCodeAt(this.pos);
    if (code === Char.Quote) return { value: this.readString(Char.Quote, true) };
    if (code === Char.Apostrophe) {
      const start = this.pos;
      const value = this.readString(Char.Apostrophe);
      this.problem(start, this.pos, 'Property names must use double quotes, not single quotes.', doubleQuoted(text, start, this.pos));
      return { value };
    }
    if (isWordStart(code) || isDigit(code)) {
      const start = this.pos;
      const end = this.tokenEnd(start);
      const word = text.slice(start, end);
      const rest = text.slice(end);
      if (/^"[ \t]*:/.test(rest)) {
        this.problem(start, end + 1, `The property name "${word}" lacks its opening double quote: write "${word}".`, [insert(start, '"', `Write "${shortened(word)}"`)]);
        this.pos = end + 1;
        return { value: word };
      }
      if (/^"(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:/.test(rest)) {
        this.unexpected('Expected a property name in double quotes', (from, to) => [remove(from, to, text.slice(from, to))]);
        return undefined;
      }
      // `x "queue": …`: a stray word before a key, which is read next.
      const spaceAfter = /^[ \t\n\r]+(?="(?:\\[^\n\r]|[^"\\\n\r])+"[ \t]*:)/.exec(rest);
      if (spaceAfter) {
        const alone = spaceAfter[0].includes('\n');
        this.problem(start, end, strayWordBeforeKeyMessage(word, alone), alone ? undefined : [remove(start, end, word)]);
        this.pos = end;
        return undefined;
      }
      this.problem(start, end, `Property names must be double-quoted: write "${shortened(word)}".`, [replace(start, end, JSON.stringify(word))]);
      this.pos = end;
      return { value: word };
    }
    this.unexpected('Expected a property name in double quotes');
    return undefined;
  }

  private parseValue(parent: ContainerNode | undefined, property: PropertyNode | undefined): ValueNode | undefined {
    const { text } = this;
    const start = this.pos;
    this.strayWord = false;
    const code = text.charCodeAt(start);
    if (code === Char.OpenBrace) {
      const node: ObjectNode = { kind: 'object', offset: start, end: text.length, parent, property, properties: [], closed: false };
      this.stack.push({ node, state: 'key', pending: undefined, lastComma: -1 });
      this.pos++;
      return node;
    }
    if (code === Char.OpenBracket) {
      const node: ArrayNode = { kind: 'array', offset: start, end: text.length, parent, property, items: [], closed: false };
      this.stack.push({ node, state: 'value', lastComma: -1 });
      this.pos++;
      return node;
    }
    if (code === Char.Quote || code === Char.Apostrophe) {
      const value = this.readString(code);
      if (code === Char.Apostrophe) this.problem(start, this.pos, 'Strings must use double quotes, not single quotes.', doubleQuoted(text, start, this.pos));
      const node: StringNode = { kind: 'string', offset: start, end: this.pos, parent, property, value };
      return node;
    }
    if (code === Char.Minus || code === Char.Plus || code === Char.Dot || isDigit(code)) {
      // `38e69665-58a3-…",`, `2026-03-14T11:02:17Z",`, `12.50 EUR",`, `+44 20 7946 0958",`, `.json",`:
      // a string that starts like a number and lacks its opening quote; not when a clean number
      // stands before a quote, a comma or a closing bracket (`1042",`), which is read as the number.
      const unopened = unopenedStringRest(text.slice(start));
      if (unopened && unopened[0] !== '') {
        STRICT_NUMBER.lastIndex = start;
        const strict = STRICT_NUMBER.exec(text);
        const after = strict ? text.charCodeAt(STRICT_NUMBER.lastIndex) : Char.Minus;
        const clean = strict !== null && !(isWordPart(after) || after === Char.Dot || after === Char.Plus || after === Char.Minus);
        // After a clean number only inside a container: at the top level the text after it is no value.
        if (!clean || (parent !== undefined && /^[ \t]*[^ \t,}\]]/.test(unopened[0].slice(strict![0].length)))) {
          return this.unopenedString(start, start + unopened[0].length, parent, property);
        }
      }
    }
    if (code === Char.Minus || code === Char.Plus || code === Char.Dot || isDigit(code)) {
      const number = this.readNumber(parent, property);
      // `"order_id": 1042",`: a quote after a clean number in a container, the value's end after it: stray, or the
      // string's opening quote typed at its end. One finding on it; the number stands.
      // A space or tab between them (`1042 "}`) is the same quote.
      const spaced = /^[ \t]*(?="[ \t]*(?:[,}\]\n\r]|$))/.exec(text.slice(this.pos));
      if (parent !== undefined && /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/.test(number.raw) && spaced) {
        const at = this.pos + spaced[0].length;
        const asString = at === this.pos ? insert(number.offset, '"', `Write "${shortened(number.raw)}"`) : replace(number.offset, at + 1, `"${number.raw}"`, `Write "${shortened(number.raw)}"`);
        this.problem(at, at + 1, `Unexpected '"' after the number ${shortened(number.raw)}; remove it, or write "${shortened(number.raw)}" if the value is a string.`, [remove(at, at + 1, '"'), asString]);
        this.pos = at + 1;
      }
      return number;
    }
    if (isWordStart(code)) {
      WORD.lastIndex = start;
      WORD.exec(text);
      const end = WORD.lastIndex;
      const word = text.slice(start, end);
      this.pos = end;
      if (word === 'true' || word === 'false' || word === 'null') {
        // `"gift": true",`: a quote after a literal in a container, the value's end after it: as after a number.
        const spaced = /^[ \t]*(?="[ \t]*(?:[,}\]\n\r]|$))/.exec(text.slice(end));
        if (parent !== undefined && spaced) {
          const at = end + spaced[0].length;
          const asString = at === end ? insert(start, '"', `Write "${word}"`) : replace(start, at + 1, `"${word}"`, `Write "${word}"`);
          this.problem(at, at + 1, `Unexpected '"' after ${word}; remove it, or write "${word}" if the value is a string.`, [remove(at, at + 1, '"'), asString]);
          this.pos = at + 1;
        }
        return word === 'null' ? { kind: 'null', offset: start, end, parent, property } : { kind: 'boolean', offset: start, end, parent, property, value: word === 'true' };
      }
      if (word === 'NaN' || word === 'Infinity') {
        this.problem(start, end, `${word} is not a JSON number: the PHP, Node, Go and Java consumers reject the message; Python's reads it. Use null or a string.`, nullOrString(start, end, word));
        return { kind: 'number', offset: start, end, parent, property, raw: word, value: Number(word), isIntegerLiteral: false };
      }
      if (/^"[ \t]*(?:[,}\]\n\r]|$)/.test(text.slice(end))) {
        this.pos = end + 1;
        this.problem(start, end + 1, `The string "${word}" lacks its opening double quote: write "${word}".`, [insert(start, '"', `Write "${shortened(word)}"`)]);
        return { kind: 'string', offset: start, end: end + 1, parent, property, value: word };
      }
      // `urn:babel:orders:created",`: a string that lacks its opening quote and holds more than a word.
      const unopened = unopenedStringRest(text.slice(end));
      if (unopened) return this.unopenedString(start, end + unopened[0].length, parent, property);
      // `"city": New York,`: words typed as a string without its quotes (single spaces between
      // them); two of which the second is a value itself (`abc 12`) are read as a stray word below.
      const phrase = /^((?: +[A-Za-z0-9_$]+)+)[ \t]*(?:[,}\]\n\r]|$)/.exec(text.slice(end));
      const tokens = phrase ? phrase[1].trim().split(/ +/) : [];
      if (phrase && !(tokens.length === 1 && PLAIN_TOKEN.test(tokens[0]))) {
        const phraseEnd = end + phrase[1].length;
        const written = text.slice(start, phraseEnd);
        this.pos = phraseEnd;
        this.problem(start, phraseEnd, `Unexpected text '${shortened(written)}'. Strings must be double-quoted: write "${shortened(written)}".`, [replace(start, phraseEnd, JSON.stringify(written))]);
        return { kind: 'string', offset: start, end: phraseEnd, parent, property, value: written };
      }
      // `"amount": abc 12,`: a stray word before a well-formed value on its line, which is read next.
      const stray = /^(?:[ \t]*(?=[{[])|(?:[ \t]+|(?="))(?=(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null|"(?:\\[^\n\r]|[^"\\\n\r])*")[ \t]*(?:[,}\]\n\r]|$)))/.exec(text.slice(end));
      if (stray) {
        // (The lookahead for a scalar closes above; an object or array after the word needs no end.)
        const token = / ([A-Za-z0-9_$]+)[ \t]*(?:[,}\]\n\r]|$)/y.exec(text.slice(end));
        const orString = token && PLAIN_TOKEN.test(token[1]) ? `, or write "${shortened(`${word} ${token[1]}`)}" if they are one string` : '';
        const removed = remove(start, end + stray[0].length, word);
        this.problem(start, end, `Unexpected word '${shortened(word)}' before the value; remove it${orString}.`, orString ? [removed, replace(start, end + 1 + token![1].length, JSON.stringify(`${word} ${token![1]}`))] : [removed]);
        this.pos = end + stray[0].length;
        this.strayWord = true;
        return undefined;
      }
      const lower = word.toLowerCase();
      const literal = lower === 'true' || lower === 'false' || lower === 'null';
      const hint = literal ? ` JSON literals are lowercase: write ${lower}.` : ` Strings must be double-quoted: write "${shortened(word)}".`;
      this.problem(start, end, `Unexpected word '${shortened(word)}'.${hint}`, [replace(start, end, literal ? lower : JSON.stringify(word))]);
      return { kind: 'string', offset: start, end, parent, property, value: word };
    }
    // Not at a backslash right after one: the pair is one escape, begun before this value.
    if (code > Char.Space && !'{}[],:"\''.includes(text[start]) && !(text[start] === '\\' && text[start - 1] === '\\')) {
      // `^a\\d+$",`, `/var/log",`: a string that starts with a sign no value starts with and lacks its opening quote.
      const unopened = unopenedStringRest(text.slice(start));
      if (unopened && unopened[0] !== '') return this.unopenedString(start, start + unopened[0].length, parent, property);
    }
    this.unexpected('Expected a JSON value');
    return undefined;
  }

  /**
   * The string value typed as `text[start..close)` without its opening quote, the quote at `close`
   * ending it: one finding, its escapes read, a backslash that starts none read as itself (and written escaped).
   */
  private unopenedString(start: number, close: number, parent: ContainerNode | undefined, property: PropertyNode | undefined): StringNode {
    const written = this.text.slice(start, close);
    const meant = pastedPathWritten(written);
    this.pos = close + 1;
    const backslashes = meant === written ? '' : ', and JSON escapes a backslash as \\\\';
    this.problem(start, this.pos, `The string "${shortened(written)}" lacks its opening double quote${backslashes}: write "${shortened(meant)}".`, [replace(start, this.pos, `"${meant}"`, `Write "${shortened(meant)}"`)]);
    return { kind: 'string', offset: start, end: this.pos, parent, property, value: JSON.parse(`"${meant}"`) as string };
  }

  private readNumber(parent: ContainerNode | undefined, property: PropertyNode | undefined): NumberNode {
    const { text } = this;
    const start = this.pos;
    STRICT_NUMBER.lastIndex = start;
    const strict = STRICT_NUMBER.exec(text);
    let end = strict ? STRICT_NUMBER.lastIndex : start;
    const next = text.charCodeAt(end);
    const clean = strict !== null && !(isWordPart(next) || next === Char.Dot || next === Char.Plus || next === Char.Minus);
    if (!clean) {
      LOOSE_NUMBER.lastIndex = start;
      LOOSE_NUMBER.exec(text);
      end = Math.max(LOOSE_NUMBER.lastIndex, start + 1);
    }
    const raw = text.slice(start, end);
    this.pos = end;
    if (raw === '-Infinity') {
      this.problem(start, end, `-Infinity is not a JSON number: the PHP, Node, Go and Java consumers reject the message; Python's reads it. Use null or a string.`, nullOrString(start, end, raw));
      return { kind: 'number', offset: start, end, parent, property, raw, value: -Infinity, isIntegerLiteral: false };
    }
    if (!clean) this.problem(start, end, `Invalid number '${shortened(raw)}': JSON numbers are decimal, without leading zeros, '+' signs, bare dots or hex.`);
    const isIntegerLiteral = clean && !/[.eE]/.test(raw);
    return { kind: 'number', offset: start, end, parent, property, raw, value: Number(raw), isIntegerLiteral };
  }

  /** Reads a string starting at the quote at `this.pos`; reports bad escapes and raw controls. A key broken across two lines is read with the lines joined. */
  private readString(quote: number, key = false): string {
    const { text } = this;
    const start = this.pos;
    let pos = start + 1;
    let chunkStart = pos;
    let value = '';
    let acrossLines = false;
    const problemsBefore = this.problems.length;
    const invalid: string[] = [];
    let otherEscapes = 0;
    while (pos < text.length) {
      const code = text.charCodeAt(pos);
      if (code === quote) {
        value += text.slice(chunkStart, pos);
        this.pos = pos + 1;
        if (acrossLines) this.problem(start, pos + 1, key ? `This property name runs onto the next line: join the lines, write ${JSON.stringify(shortened(value))}.` : STRING_ACROSS_LINES, key ? [replace(start, pos + 1, JSON.stringify(value))] : undefined);
        else if (invalid.length > 0 && invalid.length + otherEscapes > 1 && quote === Char.Quote && this.problems.length - problemsBefore === invalid.length) {
          // A backslash the string holds as it is, with another beside it (`"C:\orders\in"`, `"C:\temp\x"`): a pasted path, one finding on the string.
          this.problems.length = problemsBefore;
          const meant = pastedPathWritten(text.slice(start + 1, pos));
          const named = invalid.length === 1 ? `'${invalid[0]}'` : invalid.length === 2 ? `'${invalid[0]}' and '${invalid[1]}'` : `'${invalid[0]}', '${invalid[1]}' and ${invalid.length - 2} more`;
          this.problem(start, pos + 1, `Invalid escape${invalid.length === 1 ? '' : 's'} ${named} in this ${key ? 'property name' : 'string'}: JSON allows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX, and writes a backslash as \\\\: write "${shortened(meant)}".`, [replace(start, pos + 1, `"${meant}"`, `Write "${shortened(meant)}"`)]);
          return JSON.parse(`"${meant}"`) as string;
        }
        return value;
      }
      if (code === Char.Backslash) {
        value += text.slice(chunkStart, pos);
        const escape = text[pos + 1];
        if (escape === '"' && invalid.length > 0 && quote === Char.Quote && /^[ \t]*(?:[,}\]\n\r]|$)/.test(text.slice(pos + 2))) {
          // After a backslash alone, a `\"` ending the value is a pasted path's last backslash and the closing quote.
          invalid.push('\\');
          this.problem(pos, pos + 1, `Invalid escape '\\' before the closing quote; JSON writes a backslash as \\\\.`, [insert(pos, '\\', 'Write \\\\')]);
          value += '\\';
          chunkStart = ++pos;
          continue;
        }
        if (escape === 'u') {
          const hex = text.slice(pos + 2, pos + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex)) {
            value += String.fromCharCode(parseInt(hex, 16));
            otherEscapes++;
            pos += 6;
          } else {
            this.problem(pos, Math.min(pos + 2 + countHex(hex), text.length), 'Invalid unicode escape: \\u must be followed by four hex digits.');
            pos += 2;
          }
        } else if (escape !== undefined && VALID_ESCAPES.includes(escape)) {
          value += ESCAPE_VALUES[escape];
          if (escape !== '"') otherEscapes++;
          pos += 2;
        } else if (escape === undefined || escape === '\n' || escape === '\r') {
          pos += 1;
        } else if (quote === Char.Apostrophe && escape === "'") {
          value += "'";
          pos += 2;
        } else {
          const printable = escape >= ' ';
          if (printable) invalid.push(`\\${escape}`);
          this.problem(pos, pos + 2, `Invalid escape '\\${escape}'; JSON allows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX.`, printable ? [insert(pos, '\\', `Write \\\\${escape}`)] : undefined);
          // Read as the backslash and the character typed, as the repair writes them (a control character alone).
          value += printable ? `\\${escape}` : escape;
          pos += 2;
        }
        chunkStart = pos;
        continue;
      }
      if (code === Char.LineFeed || code === Char.CarriageReturn) {
        const lineBreak = /^(?:\r\n|\r|\n)/.exec(text.slice(pos))![0];
        const nextLine = /^[^\n\r]*/.exec(text.slice(pos + lineBreak.length))![0];
        const q = quote === Char.Quote ? '"' : "'";
        const continues = new RegExp(`^[ \\t]*(?=[^ \\t${q}])(?:\\\\.|[^\\\\${q}])*${q}[ \\t]*(?:[,:}\\]]|$)`).test(nextLine);
        if (!continues) break;
        acrossLines = true;
        if (key) {
          value += text.slice(chunkStart, pos);
          pos += lineBreak.length + /^[ \t]*/.exec(nextLine)![0].length;
          chunkStart = pos;
          continue;
        }
        pos += lineBreak.length;
        continue;
      }
      if (code < Char.Space) {
        this.problem(pos, pos + 1, `Control character U+${code.toString(16).toUpperCase().padStart(4, '0')} must be escaped inside a string.`, [escapeControl(pos, code)]);
      }
      pos++;
    }
    value += text.slice(chunkStart, pos);
    const punctuation = /[ \t,}\]]*$/.exec(text.slice(chunkStart, pos))![0];
    if (/[,}\]]/.test(punctuation)) {
      // Brackets the string itself opened keep the closers in the run that close them.
      const ownClosers = ownClosersLength(text.slice(chunkStart, pos - punctuation.length), punctuation);
      const cut = punctuation.length - ownClosers;
      value = value.slice(0, value.length - cut);
      pos -= cut;
      if (cut > 0) this.dropControlCharactersFrom(pos, problemsBefore);
    }
    this.problem(start, pos, UNTERMINATED, quote === Char.Quote ? closingQuote(text, pos) : undefined);
    this.pos = pos;
    return value;
  }
}

/** The length of the first token of `rest`: punctuation alone, a quoted string to its quote or line end, else a run to white space or punctuation. */
function firstTokenLength(rest: string): number {
  const match = /^(?:[{}[\],:]|"(?:\\[^\n\r]|[^"\\\n\r])*(?:"|\\?)|'(?:\\[^\n\r]|[^'\\\n\r])*(?:'|\\?)|[^ \t\n\r{}[\],:"']+)/.exec(rest);
  return match ? match[0].length : 1;
}

/** How much of `run` (the punctuation ending a line) closes brackets that `content` leaves open: up to the last closer that does. */
function ownClosersLength(content: string, run: string): number {
  let unclosed = '';
  for (const char of content) {
    if ('{['.includes(char)) unclosed += char;
    else if ((char === '}' && unclosed.endsWith('{')) || (char === ']' && unclosed.endsWith('['))) unclosed = unclosed.slice(0, -1);
  }
  let length = 0;
  for (let i = 0; i < run.length && unclosed !== ''; i++) {
    if ((run[i] === '}' && unclosed.endsWith('{')) || (run[i] === ']' && unclosed.endsWith('['))) {
      unclosed = unclosed.slice(0, -1);
      length = i + 1;
    } else if (run[i] === '}' || run[i] === ']') break;
  }
  return length;
}

/**
 * How many more closing brackets than opening ones `text` holds from `at` to its end, outside
 * strings (a quote opens one; its quote or its line's end closes it; a backslash escapes what
 * follows), counted from the text's start; -1 when that count places `at` in a string.
 */
function closersAfter(text: string, at: number): number {
  let inString = false;
  let balance = 0;
  let pos = 0;
  let before = 0;
  for (; pos < text.length; pos++) {
    if (pos === at) {
      if (inString) return -1;
      before = balance;
    }
    const char = text[pos];
    if (inString) {
      if (char === '"' || char === '\n' || char === '\r') inString = false;
      else if (char === '\\') {
        pos++;
        if (pos === at) return -1;
      }
    } else if (char === '"') inString = true;
    else if (char === '}' || char === ']') balance++;
    else if (char === '{' || char === '[') balance--;
  }
  return at >= text.length ? (inString ? -1 : 0) : balance - before;
}

function findLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === Char.LineFeed || code === Char.CarriageReturn) return i;
  }
  return text.length;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i])) return i;
  return -1;
}

function countHex(text: string): number {
  let count = 0;
  while (count < text.length && /[0-9a-fA-F]/.test(text[count])) count++;
  return count;
}

function isDigit(code: number): boolean {
  return code >= Char.Digit0 && code <= Char.Digit9;
}

function isWordStart(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x24;
}

function isWordPart(code: number): boolean {
  return isWordStart(code) || isDigit(code);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function describe(token: string): string {
  const code = token.charCodeAt(0);
  if (code < 0x20 || code === 0x7f || code === 0xa0 || (code >= 0x2000 && code <= 0x200f) || code === 0x3000 || code === 0xfeff) {
    return `the invisible character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `'${shortened(token)}'`;
}
