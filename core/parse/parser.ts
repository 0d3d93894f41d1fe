/**
 * A strict (RFC 8259), error-tolerant JSON parser that builds the tree of `core/model/tree.ts`.
 *
 * Strict: comments, trailing commas, single quotes, unquoted keys, NaN/Infinity, a byte-order
 * mark, leading zeros and raw control characters in strings are all reported. Tolerant: each
 * problem is reported once and parsing goes on, so the rules still see everything that parsed.
 * Where one typing mistake would throw the scan out of step (a quote left out or moved, a string
 * or key broken across lines, a comma or colon mistyped or typed twice, a key and its value typed
 * into an array, a stray word before or after a key or a value, a value's
 * words without their quotes, a "{", an array's "[" or "]", or, pretty-printed, an inner object's
 * "}" left out), the careful paths read
 * the text as its author meant it, so the mistake is one problem and what follows it parses as
 * written.
 * Iterative: containers live on an explicit stack, so no nesting depth can overflow the call stack.
 *
 * Fast: one pass over the text's code units (`./code-units.ts`) that writes the document into columns (`./columns.ts`:
 * typed arrays, no object per value); the node tree is built from them only where a reader
 * looks (`./document.ts`). Well-formed tokens take a fast path (a string value without escapes
 * is not copied at all, short keys are shared, a number is scanned by hand and marked when every
 * SDK writes it as written, literals are compared in place); anything unusual drops to the
 * careful path that words the problem.
 */
import type { ParsedDocument, SyntaxProblem, SyntaxRepair } from '../model/tree';
import { afterPreviousToken, braceRepair, closersAtEnd, closingQuote, doubleQuoted, escapeControl, insert, nullOrString, remove, removeComment, removeTrailingComma, replace, separatorRepair } from './repairs';
import { Char } from './chars';
import { codeUnitsOf } from './code-units';
import { Flag, Kind, plainStringFlags, unplainNumber, type Columns } from './columns';
import { newColumnStorage, takeColumnStorage } from './column-storage';
import { ParsedText } from './document';
import { readPlainNumber } from '../contract/written-as-is';
import { detachedString } from '../model/detached-string';
import { shortened } from '../model/describe-value';
import type { Steps } from '../model/steps';

/** More problems than this in one file are summarised, so garbage input stays cheap to report. */
export const MAX_PROBLEMS = 1000;

/** The problem listed last when a text has more than MAX_PROBLEMS: it names no problem of its own. */
export const PROBLEMS_TRUNCATED = `More than ${MAX_PROBLEMS} syntax problems; the rest are not listed.`;

/** json-syntax's message for a byte-order mark, in the text or (core/rules/byte-order-mark.ts) in the file an editor shows without it. */
export const BYTE_ORDER_MARK_MESSAGE = 'The file starts with a byte-order mark (U+FEFF); strict JSON must not. Save it as UTF-8 without BOM.';

/** What a container expects next. Arrays use only `Value` and `Comma`. */
const enum State {
  Key = 0,
  Colon = 1,
  Value = 2,
  Comma = 3,
}

/**
 * The stack of open containers every parse starts with (room for 64: envelopes nest a few levels).
 * A parse runs to its end without calling out, so parses never overlap and can share it; one made
 * in steps (parseTextSteps) takes a copy when it stops, and a deeper document grows a stack of its
 * own. Made anew for every parse, the three typed arrays took about a sixth of the parse of a
 * 1.7 KB envelope.
 */
const SHARED_STACK = { containers: new Int32Array(64), states: new Uint8Array(64), commas: new Int32Array(64) };

const LOOSE_NUMBER = /[-+.0-9A-Za-z_]+/y;
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y;
/** How many times a parse may count the brackets from the top again (`closersAfter`). */
const MAX_BRACKET_RECOUNTS = 4;
const VALID_ESCAPES = '"\\/bfnrt';
const VALID_ESCAPE_CODES = new Set(Array.from(VALID_ESCAPES, (escape) => escape.charCodeAt(0)));
const ESCAPE_VALUES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

const UNTERMINATED_STRING_MESSAGE = 'Unterminated string: add the closing double quote.';
const STRING_ACROSS_LINES_MESSAGE = 'This string runs onto the next line: a JSON string cannot hold a raw line break; write \\n or join the lines.';

/** json-syntax's message for a property name broken across two lines, read as `name` (the lines joined), written as JSON writes it; a long one by its start, as a fixture's key is quoted. */
function keyAcrossLinesMessage(name: string): string {
  return `This property name runs onto the next line: join the lines, write ${JSON.stringify(shortened(name))}.`;
}

/**
 * json-syntax's message for a string or property name read as a pasted path: backslashes that start
 * no escape (`escapes`, as written), with others beside them, all read as backslashes of the string:
 * `meant` writes them escaped.
 */
function invalidEscapesMessage(escapes: readonly string[], key: boolean, meant: string): string {
  const named = escapes.length === 1 ? `'${escapes[0]}'` : escapes.length === 2 ? `'${escapes[0]}' and '${escapes[1]}'` : `'${escapes[0]}', '${escapes[1]}' and ${escapes.length - 2} more`;
  return `Invalid escape${escapes.length === 1 ? '' : 's'} ${named} in this ${key ? 'property name' : 'string'}: JSON allows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX, and writes a backslash as \\\\: write "${shortened(meant)}".`;
}

/** json-syntax's message for a second colon (`"queue":: "orders"`) or a comma (`"queue":, "orders"`) between a property's colon and its value. */
function colonOrCommaTwiceMessage(code: number, key: string): string {
  return code === Char.Colon
    ? `Unexpected second ':' after the property name "${shortened(key)}"; remove it.`
    : `Unexpected ',' after the property name "${shortened(key)}" and its colon, before the value; remove it.`;
}

/**
 * json-syntax's message for a word before a property name. Alone on its line (`x` above `"queue": …`)
 * it may be the start of a key still being typed, so the message says how to write it as one too.
 */
function strayWordBeforeKeyMessage(word: string, aloneOnItsLine: boolean): string {
  return aloneOnItsLine
    ? `Unexpected word '${shortened(word)}' before the property name on the next line: write a property of its own as "${shortened(word)}": value, followed by a comma, or remove it.`
    : `Unexpected word '${shortened(word)}' before the property name; remove it.`;
}

/** Two syntax messages speak of the envelope, as a fixture is one (what the parser reads most). */
export const TRAILING_TEXT_MESSAGE = 'Unexpected text after the end of the JSON value; a file holds exactly one envelope.';
const EMPTY_FILE_MESSAGE = 'The file is empty; expected a JSON object (the envelope).';
const OUTSIDE_ENVELOPE = new Map([
  [TRAILING_TEXT_MESSAGE, 'Unexpected text after the end of the JSON value; a JSON file holds exactly one value.'],
  [EMPTY_FILE_MESSAGE, 'The file is empty; expected a JSON object.'],
]);

/**
 * A syntax problem's message as said of a JSON file that is no envelope (registry.json, a schema
 * file, a settings file): "a file holds exactly one envelope" would tell its author that it should
 * hold an envelope. The other messages speak of JSON alone and are returned as they are.
 */
export function messageOutsideEnvelope(message: string): string {
  return OUTSIDE_ENVELOPE.get(message) ?? message;
}

/** Parses `text` into the document tree; never throws. */
export function parseJson(text: string): ParsedDocument {
  return parseText(text);
}

/** `parseJson` with the concrete type, for readers of the columns. */
export function parseText(text: string): ParsedText {
  return new Parser(text).run();
}

/**
 * `parseText` listing every syntax problem, not the first MAX_PROBLEMS: for a text whose size the
 * caller bounds (consumer-rejects reads each non-JSON token an encoder wrote as a finding of its own).
 */
export function parseTextListingAllProblems(text: string): ParsedText {
  return new Parser(text, Number.POSITIVE_INFINITY).run();
}

/** About how many characters `parseTextSteps` reads between two steps: a few milliseconds of scan. */
export const CHARACTERS_PER_STEP = 256 * 1024;

/**
 * `parseText` in steps, yielding after about every CHARACTERS_PER_STEP characters, for a caller
 * that gives other work a turn between them (a registry.json of 30 MB takes some 300 ms to parse).
 * Other parses may run between the steps; the result is the same as in one go.
 */
export function* parseTextSteps(text: string, charactersPerStep = CHARACTERS_PER_STEP): Steps<ParsedText> {
  const parser = new Parser(text, MAX_PROBLEMS, true);
  while (!parser.scan(parser.position + charactersPerStep)) yield;
  return parser.finish();
}

class Parser {
  /** The scan position for the helpers; `scan` keeps its own copy in a local and syncs it. */
  private pos = 0;
  private readonly problems: SyntaxProblem[] = [];
  private truncated = false;
  /** Past the bound: whether a problem left out is other than a bare NaN, Infinity or -Infinity. */
  private unlistedOther = false;
  /** The deepest nesting of containers seen. */
  private depth = 0;
  /** The container `close` closed last (-1: none yet), which `openMissingBracket` may put in an array. */
  private lastClosed = -1;
  /** Text before this is known to start no unquoted phrase (`unquotedPhraseEnd`). */
  private noPhraseBefore = 0;
  /** Text before this is known to start no string that lacks its opening quote (`closingQuoteOfUnopenedString`). */
  private noUnopenedStringBefore = 0;
  /** For `closersAfter`: the text's closing brackets less its opening ones (NaN: not yet counted), and the count up to `bracketCursor` (outside a string there unless `bracketCursorInString`). */
  private bracketBalance = Number.NaN;
  private bracketCursor = 0;
  private bracketBalanceBefore = 0;
  private bracketCursorInString = false;
  /** Counts `closersAfter` started again from the top; past MAX_BRACKET_RECOUNTS it answers -1, so a parse reads the text a bounded number of times. */
  private bracketRecounts = 0;
  /** Slots `openMissingBracket` has moved so far: kept below the text's length, so its moves stay linear. */
  private movedSlots = 0;
  /** Number slots without `Flag.PlainNumber` so far (`Columns.unplainNumbers`). */
  private unplainNumbers = 0;

  // The columns (see ./columns.ts), grown by doubling.
  private count = 0;
  private capacity: number;
  private info: Uint16Array;
  private start: Int32Array;
  private end: Int32Array;
  private parent: Int32Array;
  private next: Int32Array;
  private keyStart: Int32Array;
  private keyEnd: Int32Array;
  private colon: Int32Array;
  private values: Float64Array;
  private keys: (string | undefined)[];
  /** String slots whose value is not their text between the quotes (see `Flag.Decoded`). */
  private readonly decoded = new Map<number, string>();

  /**
   * The open containers, innermost last: `open` of them, each with its slot, what it expects next
   * and its last comma (-1: none). Typed arrays grown by doubling: a file of a million `[` pushes a
   * million entries, and growing plain arrays that far cost more than the rest of its parse.
   */
  private open = 0;
  /** How many of the open containers are arrays: a closer of a kind none of them is needs no look down the stack. */
  private openArrays = 0;
  private containers = SHARED_STACK.containers;
  private states = SHARED_STACK.states;
  private commas = SHARED_STACK.commas;

  /** Where the scan stopped (or reached the end). */
  get position(): number {
    return this.pos;
  }

  /** The text's code units, which the scan reads (`./code-units.ts`); the careful paths read the text. */
  private readonly codes: Uint16Array;

  /** `inSteps`: scanned in steps between which other parses run (`parseTextSteps`), so with code units of its own. */
  constructor(
    private readonly text: string,
    private readonly maxProblems = MAX_PROBLEMS,
    inSteps = false,
  ) {
    this.codes = codeUnitsOf(text, inSteps);
    // About one slot per 16 characters of pretty-printed JSON; grown when the text is denser.
    const storage = takeColumnStorage(Math.max(16, Math.min(text.length >> 4, 1 << 20)));
    this.capacity = storage.capacity;
    ({ info: this.info, start: this.start, end: this.end, parent: this.parent, next: this.next, keyStart: this.keyStart, keyEnd: this.keyEnd, colon: this.colon, values: this.values, keys: this.keys } = storage);
  }

  run(): ParsedText {
    this.scan(this.text.length);
    return this.finish();
  }

  /**
   * Scans on from where the last scan stopped, up to the first token at or past `limit`; true
   * once the text is read to its end (or to what ends it), false when stopped at `limit` before.
   */
  scan(limit: number): boolean {
    const { text, codes } = this;
    // The stack in locals too; only opening a container grows it, and it reloads them.
    let { containers, states, commas } = this;
    const length = text.length;
    if (limit > length) limit = length;
    let pos = this.pos;
    if (pos === 0 && text.charCodeAt(0) === Char.Bom) {
      this.problem(0, 1, BYTE_ORDER_MARK_MESSAGE);
      pos = 1;
    }
    // The hot columns in locals; `slot()` may grow them, so they are reloaded after it.
    let info = this.info;
    let starts = this.start;
    let ends = this.end;
    let parents = this.parent;
    let nexts = this.next;
    let keyStarts = this.keyStart;
    let keyEnds = this.keyEnd;
    let colons = this.colon;
    let keys = this.keys;
    while (true) {
      // A whitespace run stops at the 0 after the text at the latest (./code-units.ts).
      if (pos >= limit) {
        if (pos >= length) break;
        this.pos = pos;
        // Another parse may run before this one goes on, and it starts on the shared stack.
        if (containers === SHARED_STACK.containers) {
          this.containers = containers.slice();
          this.states = states.slice();
          this.commas = commas.slice();
        }
        return false;
      }
      let code = codes[pos];
      while (code === Char.Space || code === Char.LineFeed || code === Char.CarriageReturn || code === Char.Tab) code = codes[++pos];
      if (code === Char.Slash) {
        this.pos = pos;
        this.skipTrivia();
        pos = this.pos;
        code = codes[pos];
      }
      if (pos >= length) break;
      // The columns' arrays are held in locals for the hot path and read again wherever a call may
      // have grown (reallocated) them: here and after a slot is taken below. Written out twice, not
      // as a helper: a call that returned nine arrays would cost the loop on every token.
      if (this.info !== info) {
        info = this.info;
        starts = this.start;
        ends = this.end;
        parents = this.parent;
        nexts = this.next;
        keyStarts = this.keyStart;
        keyEnds = this.keyEnd;
        colons = this.colon;
        keys = this.keys;
      }
      const depth = this.open - 1;
      // The slot the value starting here goes into; `release` when a failed value gives it back.
      let slot: number;
      let release = false;
      let container = -1;
      let commaBefore = -1;
      if (depth < 0) {
        if (this.count > 0) {
          if (this.reopenRoot(pos)) {
            ({ containers, states, commas } = this);
            continue;
          }
          this.problem(pos, trailingTokenEnd(text, pos), TRAILING_TEXT_MESSAGE);
          break;
        }
        slot = this.slot(-1, 0, pos);
        release = true;
      } else {
        container = containers[depth];
        let state = states[depth];
        if ((info[container] & Flag.KindMask) === Kind.Object) {
          if (state === State.Comma) {
            if (code === Char.Comma) {
              states[depth] = State.Key;
              commas[depth] = pos;
              // Fast path: `, "key"` goes straight on to the key.
              code = codes[++pos];
              while (code === Char.Space || code === Char.LineFeed || code === Char.CarriageReturn || code === Char.Tab) code = codes[++pos];
              if (code !== Char.Quote) continue;
              state = State.Key;
            } else if (code === Char.CloseBrace) {
              pos = this.close(pos);
              continue;
            } else {
              this.pos = pos;
              if (code === Char.CloseBracket && this.openArrays === 0 && codes[skipWhitespace(text, pos + 1)] === Char.Quote && quotedKeyFollows(text, skipWhitespace(text, pos + 1))) {
                // `"orders"]` / `"lang": …`: a "]" typed for the comma (no array is open to close), the next key after it.
                this.problem(pos, pos + 1, "Expected ',' instead of ']'.", [replace(pos, pos + 1, ',', "Write ','")]);
                states[depth] = State.Key;
                this.pos = pos + 1;
              } else if (code === Char.CloseBracket) {
                this.closer(code);
              } else if (this.numberBeforeUnopenedString(container, pos)) {
                // `"amount": 12.50 EUR",`: the number was the start of a string that lacks its opening quote.
              } else if (this.quoteAfterNumber(container, pos)) {
                // `"order_id": 1042",`: a quote after the number, one finding; the comma after it counts.
              } else if (isWordStart(code) && this.endStringBeforeComma(container, pos, true)) {
                // The string before this key took its quote: it ends before its comma, which still counts.
              } else if (isWordStart(code) && this.wordAfterValue(pos, true)) {
                // A stray word after the value, before its comma or "}": reported, and the comma still counts.
              } else if (code === Char.Colon && this.openMissingBrace(container, pos)) {
                // Opening the object may have grown the stack.
                ({ containers, states, commas } = this);
              } else if (code === Char.Quote && this.reopenObject(container, pos)) {
                // The "}" before this key was stray: the object it closed is open again; that may have grown the stack.
                ({ containers, states, commas } = this);
              } else if (code === Char.Quote || code === Char.Apostrophe || isWordStart(code)) {
                this.problem(pos, pos + 1, "Expected ',' between properties.", [insert(afterPreviousToken(text, pos), ',')]);
                states[depth] = State.Key;
              } else {
                this.unexpected("Expected ',' or '}'", (from, to) => separatorRepair(text, from, to));
                // A mistyped comma (`;`, `:`) before the next key: the key after it still counts.
                if (codes[skipWhitespace(text, this.pos)] === Char.Quote) states[depth] = State.Key;
              }
              pos = this.pos;
              continue;
            }
          }
          if (state === State.Key) {
            if (code !== Char.Quote) {
              if (code === Char.CloseBrace) {
                if (commas[depth] >= 0) {
                  // `"a": 1, } "b": 2`: no object ends before a key; the "}" is stray, the comma counts.
                  const next = skipWhitespace(text, pos + 1);
                  if (codes[next] === Char.Quote && quotedKeyFollows(text, next)) {
                    this.problem(pos, pos + 1, "Unexpected '}': the object goes on after it; remove it.", [remove(pos, pos + 1, '}')]);
                    pos++;
                    continue;
                  }
                  this.trailingComma(commas[depth]);
                }
                pos = this.close(pos);
                continue;
              }
              this.pos = pos;
              if (code === Char.Comma) {
                this.problem(pos, pos + 1, 'Unexpected comma: expected a property name in double quotes.', [remove(pos, pos + 1, ',')]);
                this.pos++;
              } else if (code === Char.OpenBrace && this.openMissingBracket(container, pos)) {
                // The object before the comma is an array's first item; opening the array may have grown the stack.
                ({ containers, states, commas } = this);
              } else if (code === Char.CloseBracket) {
                this.closer(code);
              } else {
                const key = this.readKey(code);
                if (key !== undefined) {
                  this.property(container, key, pos);
                  states[depth] = State.Colon;
                  commas[depth] = -1;
                }
              }
              pos = this.pos;
              continue;
            }
            const key = this.readKeyString(pos);
            // A property slot (as `property` makes it, inline).
            slot = this.count;
            if (slot === this.capacity) {
              this.grow(pos);
              info = this.info;
              starts = this.start;
              ends = this.end;
              parents = this.parent;
              nexts = this.next;
              keyStarts = this.keyStart;
              keyEnds = this.keyEnd;
              colons = this.colon;
              keys = this.keys;
            }
            this.count = slot + 1;
            info[slot] = Flag.Keyed;
            parents[slot] = container;
            nexts[slot] = slot + 1;
            keyStarts[slot] = pos;
            pos = this.pos;
            keyEnds[slot] = pos;
            colons[slot] = -1;
            keys[slot] = key;
            commas[depth] = -1;
            // Fast path: `"key": value` goes straight on to the value.
            code = codes[pos];
            while (code === Char.Space || code === Char.LineFeed || code === Char.CarriageReturn || code === Char.Tab) code = codes[++pos];
            if (code !== Char.Colon) {
              states[depth] = State.Colon;
              continue;
            }
            colons[slot] = pos;
            code = codes[++pos];
            while (code === Char.Space || code === Char.LineFeed || code === Char.CarriageReturn || code === Char.Tab) code = codes[++pos];
            if (code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket || code === Char.Slash || pos >= length) {
              states[depth] = State.Value;
              continue;
            }
            states[depth] = State.Comma;
          } else {
            // In the colon and value states the pending property is the newest slot.
            const pending = this.count - 1;
            if (state === State.Colon) {
              if (code === Char.Colon) {
                this.colon[pending] = pos;
                states[depth] = State.Value;
                pos++;
                continue;
              }
              this.pos = pos;
              if (code === Char.Comma && this.strayBraceBeforeString(pending)) {
                // The object is undone, its key the string value it was typed as; the container around it expects a comma.
                pos = this.pos;
                continue;
              }
              if (this.splitKeyAtColon(pending, code) || this.colonMistyped(pending, code) || this.wordBeforeColon(pending, code)) {
                states[depth] = State.Value;
                pos = this.pos;
                continue;
              }
              // Before a value the colon is all that is missing; before a comma or bracket, the value is too.
              const valueFollows = !(code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket);
              this.problem(this.keyStart[pending], this.keyEnd[pending], `Expected ':' after the property name "${shortened(String(this.keys[pending]))}".`, valueFollows ? [insert(this.keyEnd[pending], ':')] : undefined);
              states[depth] = valueFollows ? State.Value : State.Comma;
              continue;
            }
            // State.Value
            if ((code === Char.Colon || code === Char.Comma) && this.colon[pending] >= 0 && (code === Char.Colon || (this.valueAfterComma(pos) && !this.keyTypedAfter(pos)))) {
              // `"queue":: "orders"`, `"queue":, "orders", …`: a second colon, or a comma before the
              // value: one finding on it, and the value after it is the property's.
              this.problem(pos, pos + 1, colonOrCommaTwiceMessage(code, this.keys[pending]!), [remove(pos, pos + 1, text[pos])]);
              pos++;
              continue;
            }
            if ((code === Char.CloseBrace || code === Char.CloseBracket) && this.colon[pending] >= 0 && this.valueAfterComma(pos)) {
              // `"queue": } "orders"`: a stray bracket before the value, which is the property's.
              this.problem(pos, pos + 1, `Unexpected '${text[pos]}' before the value of "${shortened(this.keys[pending]!)}"; remove it.`, [remove(pos, pos + 1, text[pos])]);
              pos++;
              continue;
            }
            states[depth] = State.Comma;
            if (code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket) {
              const colon = this.colon[pending];
              this.problem(this.keyStart[pending], colon >= 0 ? colon + 1 : this.keyEnd[pending], `Expected a value for "${this.keys[pending]}".`);
              continue;
            }
            slot = pending;
          }
        } else {
          // An array.
          if (state === State.Comma) {
            if (code === Char.Comma) {
              states[depth] = State.Value;
              commas[depth] = pos;
              // Fast path: `, value` goes straight on to the value.
              code = codes[++pos];
              while (code === Char.Space || code === Char.LineFeed || code === Char.CarriageReturn || code === Char.Tab) code = codes[++pos];
              if (code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket || code === Char.Slash || pos >= length) continue;
            } else if (code === Char.CloseBracket) {
              pos = this.close(pos);
              continue;
            } else if (code === Char.CloseBrace) {
              this.pos = pos;
              this.closer(code);
              pos = this.pos;
              continue;
            } else if (this.numberBeforeUnopenedString(container, pos)) {
              // `[12.50 EUR", …]`: the number was the start of a string item that lacks its opening quote.
              pos = this.pos;
              continue;
            } else if (this.quoteAfterNumber(container, pos)) {
              // `[1042", 7]`: a quote after the number item, one finding; the comma after it counts.
              pos = this.pos;
              continue;
            } else if (code === Char.Colon && this.closeMissingBracket(container, pos)) {
              // The string before the colon is the next key of the object around the array, which is closed.
              pos = this.pos;
              continue;
            } else if (this.endStringBeforeComma(container, pos, false)) {
              // The string item before took the next one's opening quote: it ends before its comma, which still counts.
              pos = this.pos;
              continue;
            } else if (isWordStart(code) && this.wordAfterValue(pos, false)) {
              // A stray word after the item, before its comma or "]": reported, and the comma still counts.
              pos = this.pos;
              continue;
            } else if (code === Char.Colon) {
              // `["a", "b": "c"]`: a key and its value typed into an array, one finding on the colon;
              // the value after it is read as the next item, so the items after it still count.
              this.problem(pos, pos + 1, this.colonInArrayMessage(pos));
              pos++;
              // `["a":, "b"]`: no value after the colon, which is then stray, and the comma still counts.
              const after = codes[skipWhitespace(text, pos)];
              if (after !== Char.Comma && after !== Char.CloseBracket) states[depth] = State.Value;
              continue;
            } else {
              this.problem(pos, pos + 1, "Expected ',' between array values.", [insert(afterPreviousToken(text, pos), ',')]);
              states[depth] = State.Value;
              continue;
            }
          } else {
            if (code === Char.CloseBracket) {
              if (commas[depth] >= 0) this.trailingComma(commas[depth]);
              pos = this.close(pos);
              continue;
            }
            if (code === Char.Comma) {
              this.problem(pos, pos + 1, 'Expected a value before this comma.');
              pos++;
              continue;
            }
            if (code === Char.CloseBrace) {
              this.pos = pos;
              this.closer(code);
              pos = this.pos;
              continue;
            }
          }
          // The item's slot comes first, so a nested container's children follow it.
          slot = this.slot(container, 0, pos);
          release = true;
          commaBefore = commas[depth];
          states[depth] = State.Comma;
          commas[depth] = -1;
        }
      }
      if (this.info !== info) {
        info = this.info;
        starts = this.start;
        ends = this.end;
        parents = this.parent;
        nexts = this.next;
        keyStarts = this.keyStart;
        keyEnds = this.keyEnd;
        colons = this.colon;
        keys = this.keys;
      }

      // A value at `pos` into `slot`: the well-formed cases here, the rest in `value()`.
      starts[slot] = pos;
      if (code === Char.Quote) {
        info[slot] |= this.readStringValue(pos, slot);
        pos = this.pos;
        ends[slot] = pos;
        continue;
      }
      if ((code >= Char.Digit0 && code <= Char.Digit9) || code === Char.Minus) {
        const end = cleanNumberEnd(codes, pos);
        if (end > 0) {
          const integer = (end & INTEGER_BIT) !== 0;
          const tokenEnd = end & ~INTEGER_BIT;
          // Decided now, while the digits are at hand, so most numbers of a payload need no other look:
          // whether every SDK writes it as written and then its value (schema bounds and enums read it).
          const plain = readPlainNumber(text, pos, tokenEnd, integer, this.values, slot) ? Flag.PlainNumber : 0;
          const negative = code === Char.Minus ? Flag.Negative : 0;
          info[slot] |= (integer ? Kind.Number | Flag.Integer : Kind.Number) | plain | negative;
          if (plain === 0) this.unplainNumbers++;
          pos = tokenEnd;
          ends[slot] = pos;
          continue;
        }
      } else if (code === Char.OpenBrace || code === Char.OpenBracket) {
        const object = code === Char.OpenBrace;
        info[slot] |= object ? Kind.Object : Kind.Array;
        ends[slot] = length;
        const open = this.open;
        if (open === containers.length) {
          this.growStack();
          ({ containers, states, commas } = this);
        }
        containers[open] = slot;
        states[open] = object ? State.Key : State.Value;
        commas[open] = -1;
        this.open = open + 1;
        if (!object) this.openArrays++;
        if (open >= this.depth) this.depth = open + 1;
        pos++;
        continue;
      } else if (code === 0x74 /* t */ && text.startsWith('true', pos) && !isWordPart(codes[pos + 4])) {
        info[slot] |= Kind.Boolean | Flag.True;
        pos += 4;
        ends[slot] = pos;
        continue;
      } else if (code === 0x66 /* f */ && text.startsWith('false', pos) && !isWordPart(codes[pos + 5])) {
        info[slot] |= Kind.Boolean;
        pos += 5;
        ends[slot] = pos;
        continue;
      } else if (code === 0x6e /* n */ && text.startsWith('null', pos) && !isWordPart(codes[pos + 4])) {
        info[slot] |= Kind.Null;
        pos += 4;
        ends[slot] = pos;
        continue;
      }
      this.pos = pos;
      if (!this.value(code, slot)) {
        // No value here: an item or root slot is given back (and the array still expects a value).
        if (release) {
          this.count = slot;
          if (container >= 0) {
            states[depth] = State.Value;
            commas[depth] = commaBefore;
          }
        }
      }
      pos = this.pos;
    }
    this.pos = pos;
    return true;
  }

  /** The parse once `scan` has read the text: containers left open closed, and the columns. */
  finish(): ParsedText {
    const { text } = this;
    const length = text.length;
    // Only the root left open: an inner object's "}" may be missing where the layout says.
    if (this.open === 1 && this.closeMissingBrace()) this.pop();
    let closeAtEnd: ((closer: string) => SyntaxRepair[] | undefined) | undefined;
    while (this.open > 0) {
      // Its end is already the text's length: an open container's end is set so when it opens.
      const slot = this.containers[this.open - 1];
      this.pop();
      // Past the problems listed, none is worded: a file of a million '[' leaves a million open.
      if (this.truncated) {
        this.unlistedOther = true;
        continue;
      }
      const kind = (this.info[slot] & Flag.KindMask) === Kind.Object ? 'object' : 'array';
      const closer = kind === 'object' ? "'}'" : "']'";
      this.problem(this.start[slot], this.start[slot] + 1, `This ${kind} is never closed: expected ${closer} before the end of the file.`, (closeAtEnd ??= closersAtEnd(text))(closer.slice(1, 2)));
    }
    if (this.count === 0 && this.problems.length === 0) {
      this.problem(0, length, EMPTY_FILE_MESSAGE);
    }
    // core/parse/incremental.ts builds its columns in this property order too: one object shape for every reader.
    const columns: Columns = {
      count: this.count,
      info: this.info,
      start: this.start,
      end: this.end,
      parent: this.parent,
      next: this.next,
      keyStart: this.keyStart,
      keyEnd: this.keyEnd,
      colon: this.colon,
      values: this.values,
      keys: this.keys,
      decoded: this.decoded,
      depth: this.depth,
      unplainNumbers: this.unplainNumbers,
    };
    detachSharedKeys();
    // The problem that ends a cut list says what the problems left out are, so a decoder that reads
    // bare NaN and Infinity is not judged by the bound (core/message/acceptance.ts).
    if (this.truncated) {
      const last = this.problems.length - 1;
      this.problems[last] = { ...this.problems[last], unlistedAllNonFinite: !this.unlistedOther };
    }
    return new ParsedText(text, columns, this.problems);
  }

  /**
   * A new slot (kind None) under `parent`. Only what every slot has is written here: a value's
   * range is written when the value is read, a property's key fields by `property`.
   */
  private slot(parent: number, info: number, at: number): number {
    const slot = this.count;
    if (slot === this.capacity) this.grow(at);
    this.count = slot + 1;
    this.info[slot] = info;
    this.parent[slot] = parent;
    this.next[slot] = slot + 1;
    return slot;
  }

  /** A property slot of `object`: its key token runs from `keyStart` to `this.pos`. */
  private property(object: number, key: string, keyStart: number): number {
    const slot = this.slot(object, Flag.Keyed, keyStart);
    this.keyStart[slot] = keyStart;
    this.keyEnd[slot] = this.pos;
    this.colon[slot] = -1;
    this.keys[slot] = key;
    return slot;
  }

  /**
   * Room for more slots, once the scan at `at` has filled them all: at least twice as many (so
   * growing stays linear), or as many as the text read so far says the whole document needs, if
   * more. A 64 MB array of small numbers holds 33 million values: grown only by doubling from the
   * first estimate, its columns were copied six times and its keys resized as often, over half the
   * time of its analysis.
   */
  private grow(at: number): void {
    const length = this.text.length;
    // A slot takes at least one character, so no document needs more than its length in slots.
    const projected = Math.min(length + 2, Math.ceil((this.count / Math.max(at, 1)) * length * 1.125));
    const capacity = Math.max(this.capacity * 2, projected);
    this.keys.length = capacity;
    const { info, start, end, parent, next, keyStart, keyEnd, colon, values } = newColumnStorage(capacity, this.keys);
    info.set(this.info);
    start.set(this.start);
    end.set(this.end);
    parent.set(this.parent);
    next.set(this.next);
    keyStart.set(this.keyStart);
    keyEnd.set(this.keyEnd);
    colon.set(this.colon);
    values.set(this.values);
    this.info = info;
    this.start = start;
    this.end = end;
    this.parent = parent;
    this.next = next;
    this.keyStart = keyStart;
    this.keyEnd = keyEnd;
    this.colon = colon;
    this.values = values;
    this.capacity = capacity;
  }

  /**
   * Puts `container` back on the stack of open containers, in `state`, after a careful path found
   * it was closed (or left unopened) by a typing mistake; the deepest nesting follows.
   */
  private reopen(container: number, state: State): void {
    const open = this.open;
    if (open === this.containers.length) this.growStack();
    this.containers[open] = container;
    this.states[open] = state;
    this.commas[open] = -1;
    this.open = open + 1;
    if (open >= this.depth) this.depth = open + 1;
  }

  /** Twice the room on the stack of open containers, its entries kept. */
  private growStack(): void {
    const capacity = this.containers.length * 2;
    const containers = new Int32Array(capacity);
    const states = new Uint8Array(capacity);
    const commas = new Int32Array(capacity);
    containers.set(this.containers);
    states.set(this.states);
    commas.set(this.commas);
    this.containers = containers;
    this.states = states;
    this.commas = commas;
  }

  private problem(offset: number, end: number, message: string, repairs?: readonly SyntaxRepair[], nonFinite = false): void {
    if (this.problems.length >= this.maxProblems) {
      if (!this.truncated) {
        this.truncated = true;
        this.problems.push({ offset, end, message: PROBLEMS_TRUNCATED });
      }
      if (!nonFinite) this.unlistedOther = true;
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
          if (close < 0) this.problem(this.pos, end, 'Unterminated block comment; comments are not allowed in JSON.');
          else this.problem(this.pos, end, 'Comments are not allowed in JSON; remove the comment.', [removeComment(this.pos, end)]);
          this.pos = end;
          continue;
        }
      }
      return;
    }
  }

  private trailingComma(offset: number): void {
    this.problem(offset, offset + 1, 'Trailing comma: strict JSON does not allow a comma before a closing bracket.', [removeTrailingComma(offset)]);
  }

  /** Closes the innermost container at the bracket at `at`; returns the position after it. */
  private close(at: number): number {
    const slot = this.containers[this.open - 1];
    this.end[slot] = at + 1;
    this.info[slot] |= Flag.Closed;
    this.lastClosed = slot;
    this.pop();
    return at + 1;
  }

  /** Takes the innermost container off the stack; its subtree ends here. */
  private pop(): void {
    const slot = this.containers[--this.open];
    this.next[slot] = this.count;
    if ((this.info[slot] & Flag.KindMask) === Kind.Array) this.openArrays--;
  }

  /** A closing bracket that does not match the innermost container. */
  private closer(code: number): void {
    const wanted = code === Char.CloseBrace ? Kind.Object : Kind.Array;
    const { containers } = this;
    // With none open of the kind wanted, the bracket matches nothing: a look down the stack for each
    // of many such brackets in deep nesting grew with the square of the depth.
    const openOfKind = wanted === Kind.Array ? this.openArrays : this.open - this.openArrays;
    let matchIndex = openOfKind === 0 ? -1 : this.open - 1;
    while (matchIndex >= 0 && (this.info[containers[matchIndex]] & Flag.KindMask) !== wanted) matchIndex--;
    const top = containers[this.open - 1];
    const expected = (this.info[top] & Flag.KindMask) === Kind.Object ? "'}'" : "']'";
    this.problem(this.pos, this.pos + 1, `Mismatched bracket: expected ${expected} here.`);
    if (matchIndex < 0) {
      this.pos++;
      return;
    }
    // Close the unclosed inner containers here and let the matching one take the bracket.
    while (this.open - 1 > matchIndex) {
      this.end[containers[this.open - 1]] = this.pos;
      this.pop();
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

  /** A key that does not start with a double quote (reported); undefined when there is none. */
  private readKey(code: number): string | undefined {
    const { text } = this;
    const start = this.pos;
    if (code === Char.Apostrophe) {
      const value = this.readString(start, Char.Apostrophe);
      this.problem(start, this.pos, 'Property names must use double quotes, not single quotes.', doubleQuoted(text, start, this.pos));
      return value;
    }
    if (isWordStart(code) || isDigit(code)) {
      const end = this.tokenEnd(start);
      const word = text.slice(start, end);
      if (text.charCodeAt(end) === Char.Quote) {
        // `queue": …`: the word is the key, its opening quote left out.
        if (text.charCodeAt(skipSpaces(text, end + 1)) === Char.Colon) {
          this.problem(start, end + 1, `The property name "${word}" lacks its opening double quote: write "${word}".`, [insert(start, '"', `Write "${shortened(word)}"`)]);
          this.pos = end + 1;
          return word;
        }
        // `x"queue": …`: a stray word before a well-formed key, which still counts.
        if (quotedKeyFollows(text, end)) {
          this.unexpected('Expected a property name in double quotes', (from, to) => [remove(from, to, text.slice(from, to))]);
          return undefined;
        }
      }
      // `x "queue": …`, `x` / `"queue": …`: a stray word before a key, which is read next.
      const after = skipWhitespace(text, end);
      if (after > end && text.charCodeAt(after) === Char.Quote && quotedKeyFollows(text, after)) {
        const alone = text.slice(end, after).includes('\n');
        this.problem(start, end, strayWordBeforeKeyMessage(word, alone), alone ? undefined : [remove(start, end, word)]);
        this.pos = end;
        return undefined;
      }
      this.problem(start, end, `Property names must be double-quoted: write "${shortened(word)}".`, [replace(start, end, JSON.stringify(word))]);
      this.pos = end;
      return word;
    }
    this.unexpected('Expected a property name in double quotes');
    return undefined;
  }

  /**
   * `"queue: "orders"` (a key that lacks its closing quote, so the value's opening quote closed
   * it) and `"version: 1,` (a key left open to the line's end): the key is the name before its
   * colon, and the value after the colon still counts. True when so, with `this.pos` at the value.
   */
  private splitKeyAtColon(slot: number, code: number): boolean {
    const { text } = this;
    const keyStart = this.keyStart[slot];
    const keyEnd = this.keyEnd[slot];
    const last = this.problems[this.problems.length - 1];
    const open = last !== undefined && last.offset === keyStart && last.message === UNTERMINATED_STRING_MESSAGE;
    if (!open && !(keyEnd - keyStart >= 2 && text.charCodeAt(keyEnd - 1) === Char.Quote)) return false;
    const contentEnd = open ? keyEnd : keyEnd - 1;
    // The last colon: the one typed after the name, which may hold colons of its own (`"user:42: 5,`).
    // Looked for within the key alone: a search of the text before it made a file of keys without
    // colons quadratic (40,000 of them took 4 s).
    let colon = contentEnd - 1;
    while (colon > keyStart + 1 && text.charCodeAt(colon) !== Char.Colon) colon--;
    if (colon <= keyStart + 1 || text.charCodeAt(keyStart) !== Char.Quote) return false;
    let nameEnd = colon;
    while (nameEnd > keyStart + 1 && text.charCodeAt(nameEnd - 1) === Char.Space) nameEnd--;
    const name = text.slice(keyStart + 1, nameEnd);
    if (name.length === 0 || name.includes('\\') || name.includes('"')) return false;
    const valueStart = skipSpaces(text, colon + 1);
    // Closed, either the value's text follows the quote that closed the key (not a line's end or
    // punctuation), or the key took in its value and comma (`"version:1,"next":`) and that quote
    // opens the next key.
    // (On one line, a space may come between that comma and the quote: `"tags: [1, 2], "n":`.)
    const took = skipSpacesBack(text, valueStart, contentEnd);
    const tookValue = !open && valueStart < took && text.charCodeAt(took - 1) === Char.Comma && quotedKeyFollows(text, contentEnd);
    // Or it took its value's "[" or "{" (`"tags: ["a"`, `"data: {"id": 1`), and the quote that
    // closed it opens the array's first item or the object's first key, closed on its line.
    const tookOpener = !open && !tookValue && valueStart < contentEnd && this.openerBeforeQuote(valueStart, contentEnd);
    // Or, left open after its colon, its value is on the lines below (`"tags:` / `["a"]`).
    const valueBelow = open && valueStart >= contentEnd && this.valueAfterComma(colon);
    if (!tookOpener && !valueBelow) {
      if (open || tookValue ? valueStart >= contentEnd : valueStart !== contentEnd || code === Char.LineFeed || code === Char.CarriageReturn || code === Char.Comma || code === Char.Colon || code === Char.CloseBrace || code === Char.CloseBracket) return false;
      // A closed key that took its value's opening quote is followed at once by the rest of that
      // string, closed on its line: otherwise it is a key whose own name ends in a colon (`"url:"`),
      // and what follows it is its value, after a colon left out.
      if (!open && !tookValue && !stringRestEndsValue(text, keyEnd)) return false;
    }
    if (open) this.problems.pop();
    this.keys[slot] = name;
    this.keyEnd[slot] = nameEnd;
    this.problem(keyStart, nameEnd, `The property name "${name}" lacks its closing double quote: write "${name}".`, [insert(nameEnd, '"', `Write "${shortened(name)}"`)]);
    this.pos = valueStart;
    return true;
  }

  /**
   * Whether the key text from `from` to the quote at `quote` is the "[" and "{" a value opens with
   * (spaces between them), and the string from that quote is what the innermost one holds first: an
   * item a value's end follows, or a key its colon follows.
   */
  private openerBeforeQuote(from: number, quote: number): boolean {
    const { text, codes } = this;
    let last = 0;
    for (let pos = from; pos < quote; pos++) {
      const code = codes[pos];
      if (code === Char.OpenBracket || code === Char.OpenBrace) last = code;
      else if (code !== Char.Space && code !== Char.Tab) return false;
    }
    return last === Char.OpenBracket ? stringRestEndsValue(text, quote + 1) : last === Char.OpenBrace && quotedKeyFollows(text, quote);
  }

  /**
   * `"queue" = "orders"`: a character no value starts with, where the colon belongs, before a
   * value: it stands for the colon (one finding, on it), and the value after it still counts.
   */
  private colonMistyped(slot: number, code: number): boolean {
    if (code >= 0x80 || code <= Char.Space || isWordPart(code) || '"\'{}[],/-+.'.includes(String.fromCharCode(code))) return false;
    const { text } = this;
    const next = text.charCodeAt(skipSpaces(text, this.pos + 1));
    if (!(next === Char.Quote || next === Char.OpenBrace || next === Char.OpenBracket || next === Char.Minus || isWordPart(next))) return false;
    this.problem(this.pos, this.pos + 1, `Expected ':' after the property name "${shortened(String(this.keys[slot]))}", found ${describe(text[this.pos])}.`, [replace(this.pos, this.pos + 1, ':', "Write ':'")]);
    this.pos++;
    return true;
  }

  /**
   * `{"a": 1, }` / `"b": 2}` (a stray "}" that closed the envelope, the next key after it): the
   * text after the closed root object at `at` goes on with its properties (a comma and a key, or a
   * key). The "}" is one finding, the root is opened again and what follows is its own (a
   * trailing comma said before the "}" is taken back: that comma separates keys). True when so.
   */
  private reopenRoot(at: number): boolean {
    const { text, problems } = this;
    if ((this.info[0] & (Flag.KindMask | Flag.Closed)) !== (Kind.Object | Flag.Closed) || this.open !== 0) return false;
    const brace = this.end[0] - 1;
    const code = text.charCodeAt(at);
    const key = code === Char.Comma ? skipWhitespace(text, at + 1) : at;
    if (text.charCodeAt(key) !== Char.Quote || !quotedKeyFollows(text, key)) return false;
    // Pretty-printed, a key indented otherwise than the envelope's first is an inner object's: the
    // stray "}" was typed in there, and this one is no mistake (the text after it says no more).
    // So is the envelope's last key before the "}" when indented otherwise: the "}" that closed the
    // envelope is that object's own, and the stray one came before it.
    const first = this.count > 1 && (this.info[1] & Flag.Keyed) !== 0 ? lineIndentBefore(text, this.keyStart[1]) : -1;
    let lastKey = this.count - 1;
    while (lastKey > 0 && this.parent[lastKey] !== 0) lastKey = this.parent[lastKey];
    for (const at of [key, lastKey > 0 ? this.keyStart[lastKey] : -1]) {
      const indent = at < 0 ? -1 : lineIndentBefore(text, at);
      if (indent >= 0 && first >= 0 && indent !== first) return false;
    }
    const last = problems[problems.length - 1];
    const trailingComma = last !== undefined && last.end === last.offset + 1 && text.charCodeAt(last.offset) === Char.Comma && last.message.startsWith('Trailing comma') && skipWhitespace(text, last.offset + 1) === brace;
    if (trailingComma) problems.pop();
    this.info[0] &= ~Flag.Closed;
    this.end[0] = text.length;
    this.containers[0] = 0;
    this.states[0] = trailingComma || code !== Char.Comma ? State.Key : State.Comma;
    this.commas[0] = trailingComma ? last.offset : -1;
    this.open = 1;
    const stray = code === Char.Comma || trailingComma || this.count === 1;
    this.problem(brace, brace + 1, stray ? "Unexpected '}': the object goes on after it; remove it." : "Expected ',' instead of '}': the object goes on after it.", [braceRepair(brace, stray)]);
    return true;
  }

  /**
   * `"data": {}` / `    "order_id": 1042,` (pretty-printed): the object value closed just before the
   * key at `at` was closed by a stray "}" (or a "}" typed for a comma): the key is on a later line,
   * further right than the line the object opens on is indented, and the "}" is not where the
   * object's own goes (at the start of a line indented as that one), so the key is the object's. The object is opened
   * again with the key in it; one finding on the "}". True when so.
   */
  private reopenObject(container: number, at: number): boolean {
    const object = this.lastClosed;
    if (object < 0 || this.parent[object] !== container || this.next[object] !== this.count) return false;
    if ((this.info[object] & (Flag.KindMask | Flag.Closed)) !== (Kind.Object | Flag.Closed)) return false;
    const { text } = this;
    const brace = this.end[object] - 1;
    if (skipWhitespace(text, brace + 1) !== at || !quotedKeyFollows(text, at)) return false;
    // The key on a later line, to the right of where the object's own line starts; the "}" not where
    // the object's closing brace goes (starting a line indented as the object's line is).
    const own = lineIndentOf(text, this.start[object]);
    const column = columnOf(text, at);
    if (own < 0 || column <= own || !lineBreakBetween(text, this.start[object], at) || lineIndentBefore(text, brace) === own) return false;
    const empty = this.count === object + 1;
    this.info[object] &= ~Flag.Closed;
    this.end[object] = text.length;
    this.lastClosed = -1;
    this.reopen(object, State.Key);
    this.problem(brace, brace + 1, empty ? "Unexpected '}': the object goes on after it; remove it." : "Expected ',' instead of '}': the object goes on after it.", [braceRepair(brace, empty)]);
    this.pos = at;
    return true;
  }

  /**
   * `"EUR"x,`: a stray word at `at`, typed against a value and before the comma, "}" or "]" that follows it
   * on its line (one finding, on the word). In an object (`beforeKey`), a word that ends its line
   * before the next key was typed for the comma. True when so, with `this.pos` after the word.
   */
  private wordAfterValue(at: number, beforeKey: boolean): boolean {
    const { text } = this;
    // In an array, typed against the value: after a space (`["a" b]`) it may be the next item, its
    // comma left out. In an object a word before a comma or "}" is no key (it has no colon).
    const before = text.charCodeAt(at - 1);
    const touching = !(before === Char.Space || before === Char.Tab || before === Char.LineFeed || before === Char.CarriageReturn);
    if (!touching && !beforeKey) return false;
    const end = skipWord(text, at);
    // In an object, what follows may be on the next line (`"attempts": 0 x` / `}`).
    const code = text.charCodeAt(beforeKey ? skipWhitespace(text, end) : skipSpaces(text, end));
    if (!(code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket)) {
      const lineEnd = text.charCodeAt(skipSpaces(text, end));
      // `"orders"x` / `"lang": …`: a word typed for the comma at the line's end, the next key on the line after.
      if (!beforeKey || !touching || !(lineEnd === Char.LineFeed || lineEnd === Char.CarriageReturn)) return false;
      const key = skipWhitespace(text, end);
      if (text.charCodeAt(key) !== Char.Quote || !quotedKeyFollows(text, key)) return false;
      this.problem(at, end, `Expected ',' after the value, found '${shortened(text.slice(at, end))}'.`, [replace(at, end, ',', "Write ','")]);
      this.states[this.open - 1] = State.Key;
      this.pos = end;
      return true;
    }
    this.problem(at, end, `Unexpected word '${shortened(text.slice(at, end))}' after the value; remove it.`, [remove(at, end, text.slice(at, end))]);
    this.pos = end;
    return true;
  }

  /**
   * `"job": {"urn:babel:orders:created",`: a "{" typed before a string value, which was read as
   * the first key of an object and is followed by a comma, not a colon. The object is undone: its
   * slot holds the string (a clean one, read again as a value), and the container around it goes
   * on after it. One finding, on the "{". True when so, with `this.pos` at the comma.
   */
  private strayBraceBeforeString(pending: number): boolean {
    const depth = this.open - 1;
    const object = this.containers[depth];
    if (depth < 1 || pending !== object + 1) return false;
    const { text } = this;
    const keyStart = this.keyStart[pending];
    const keyEnd = this.keyEnd[pending];
    // A key closed by its quote on its line, only valid escapes in it (`{"C:\\orders",`), right after
    // the "{" on the same line (a string on the line after the "{" is a key of an object written
    // over lines), a value follows the comma.
    if (skipSpaces(text, this.start[object] + 1) !== keyStart || text.charCodeAt(keyEnd - 1) !== Char.Quote || keyEnd - keyStart < 2) return false;
    const { codes } = this;
    for (let i = keyStart + 1; i < keyEnd - 1; i++) {
      const code = codes[i];
      if (code < Char.Space || code === Char.Quote) return false;
      if (code !== Char.Backslash) continue;
      if (VALID_ESCAPE_CODES.has(codes[i + 1])) i++;
      else if (codes[i + 1] === 0x75 /* u */ && isHexCode(codes[i + 2]) && isHexCode(codes[i + 3]) && isHexCode(codes[i + 4]) && isHexCode(codes[i + 5])) i += 5;
      else return false;
      if (i >= keyEnd - 1) return false;
    }
    const comma = this.pos;
    const next = skipWhitespace(text, comma + 1);
    const nextCode = text.charCodeAt(next);
    if (next >= text.length || nextCode === Char.CloseBrace || nextCode === Char.CloseBracket || nextCode === Char.Comma) return false;
    const around = this.containers[depth - 1];
    // In an object, the next key (a quoted name and a colon) follows; in an array, the next item.
    // In an array, the next item (a scalar and what follows an item: `{ "sku", "MUG", "qty": 2 }` is an item's object, its colon typed as a comma).
    if ((this.info[around] & Flag.KindMask) === Kind.Object ? !(nextCode === Char.Quote && quotedKeyFollows(text, next)) : !this.itemFollowsScalar(next)) return false;
    const brace = this.start[object];
    // Pretty-printed, a next key indented further than the property line the "{" is on is the
    // object's own (`"meta": {"trace_id",` / `    "v": 1`): a key left without its colon, no stray "{".
    if ((this.info[around] & Flag.KindMask) === Kind.Object && lineBreakBetween(text, comma, next)) {
      const own = lineIndentOf(text, brace);
      const column = columnOf(text, brace);
      if (own >= 0 && column >= 0 && text.charCodeAt(brace - column + own) === Char.Quote && lineIndentBefore(text, next) > own) return false;
    }
    // The text after the comma closes every open container, this object too (`"meta": {"k", "v": 1}, "n": 1}`):
    // the "{" is the object's own, its first key left without its colon and value; a stray "{" leaves one "}" short.
    if ((this.info[around] & Flag.KindMask) === Kind.Object && this.closersAfter(comma) > depth) return false;
    this.count = pending;
    this.keys[pending] = undefined;
    this.info[object] &= Flag.Keyed;
    this.start[object] = keyStart;
    this.info[object] |= this.readStringValue(keyStart, object);
    this.end[object] = keyEnd;
    this.lastClosed = -1;
    this.pop();
    this.states[depth - 1] = State.Comma;
    this.problem(brace, brace + 1, `Unexpected '{' before the string ${shortened(text.slice(keyStart, keyEnd))}; remove it.`, [remove(brace, brace + 1, '{')]);
    this.pos = comma;
    return true;
  }

  /**
   * `"queue"x: "orders"`: a stray word (or `,` `"` or a bracket) between a property name and its
   * colon (one finding, on it); the colon after it is the property's. `"queue", "orders"`: a comma
   * typed for the colon, before a value. True when so, with `this.pos` after the colon or comma.
   */
  private wordBeforeColon(slot: number, code: number): boolean {
    const { text } = this;
    if (code === Char.Comma && this.valueAfterComma(this.pos)) {
      // `"queue", "orders"`: a comma typed for the colon, before a value (a key after it would be the next property).
      this.problem(this.pos, this.pos + 1, `Expected ':' after the property name "${shortened(this.keys[slot]!)}", found ','.`, [replace(this.pos, this.pos + 1, ':', "Write ':'")]);
      this.pos++;
      return true;
    }
    if (code === Char.Comma || code === Char.Quote || code === Char.OpenBrace || code === Char.OpenBracket || code === Char.CloseBrace || code === Char.CloseBracket) {
      // `"queue",: "orders"`: a stray character before the colon.
      const colon = skipSpaces(text, this.pos + 1);
      if (text.charCodeAt(colon) !== Char.Colon) {
        // `"queue"{ "orders",`: a brace or "]" typed for the colon, before a scalar that ends its value
        // (not "[": `"tags" [1, 2]` is an array whose colon is left out).
        if (!(code === Char.OpenBrace || code === Char.CloseBrace || code === Char.CloseBracket) || !this.scalarEndsValueAt(skipWhitespace(text, this.pos + 1))) return false;
        this.problem(this.pos, this.pos + 1, `Expected ':' after the property name "${shortened(this.keys[slot]!)}", found '${text[this.pos]}'.`, [replace(this.pos, this.pos + 1, ':', "Write ':'")]);
        this.pos++;
        return true;
      }
      this.problem(this.pos, this.pos + 1, `Unexpected '${text[this.pos]}' between the property name "${shortened(this.keys[slot]!)}" and its colon; remove it.`, [remove(this.pos, this.pos + 1, text[this.pos])]);
      this.colon[slot] = colon;
      this.pos = colon + 1;
      return true;
    }
    if (!isWordStart(code)) return false;
    const end = skipWord(text, this.pos);
    const colon = skipSpaces(text, end);
    if (text.charCodeAt(colon) !== Char.Colon) return false;
    this.problem(this.pos, end, `Unexpected word '${shortened(text.slice(this.pos, end))}' between the property name "${shortened(this.keys[slot]!)}" and its colon; remove it.`, [remove(this.pos, end, text.slice(this.pos, end))]);
    this.colon[slot] = colon;
    this.pos = colon + 1;
    return true;
  }

  /**
   * `"meta": "id": "…", …}`: the string value before the colon at `at` is the first key of an
   * object whose "{" was left out (not a comma typed as a colon: the colon is not followed by a
   * key). That value becomes the object, open, with the key in it, and the value after the colon
   * and the keys after it are its own up to its "}". True when so, with `this.pos` after the colon.
   */
  private openMissingBrace(container: number, at: number): boolean {
    const slot = this.count - 1;
    if (slot < 0 || this.parent[slot] !== container || (this.info[slot] & Flag.KindMask) !== Kind.String) return false;
    const { text } = this;
    const start = this.start[slot];
    const keyEnd = this.end[slot];
    if (text.charCodeAt(start) !== Char.Quote || skipWhitespace(text, keyEnd) !== at) return false;
    const next = skipWhitespace(text, at + 1);
    const code = text.charCodeAt(next);
    if (code === Char.Quote ? quotedKeyFollows(text, next) : !(code === Char.OpenBrace || code === Char.OpenBracket || code === Char.Minus || isWordPart(code))) return false;
    const key = this.info[slot] & Flag.Decoded ? this.decoded.get(slot)! : text.slice(start + 1, keyEnd - 1);
    this.decoded.delete(slot);
    this.info[slot] = Flag.Keyed | Kind.Object;
    this.end[slot] = text.length;
    this.pos = at;
    const property = this.property(slot, key, start);
    this.keyEnd[property] = keyEnd;
    this.colon[property] = at;
    this.reopen(slot, State.Value);
    this.problem(start, keyEnd, `Expected '{' before "${key}": the object's opening brace is missing.`, [insert(start, '{')]);
    this.pos = at + 1;
    return true;
  }

  /**
   * `"items": {…}, {…}]` (the array's "[" left out): the object value closed before the comma
   * ahead of the "{" at `at` is the first item of an array, and the objects after it are its items
   * up to its "]". The property's slot becomes the array and the object moves into a slot of its
   * own after it, its subtree with it (one slot on); the array is opened, the "{" to be read as its
   * next item. True when so. Each slot moved is counted, and no more than the text's length are
   * moved in all, so `"a": {"a": {…}, {…}}, {…}` nested deep stays linear.
   */
  private openMissingBracket(container: number, at: number): boolean {
    const depth = this.open - 1;
    const comma = this.commas[depth];
    const object = this.lastClosed;
    const count = this.count;
    if (comma < 0 || object < 0 || this.parent[object] !== container || this.next[object] !== count) return false;
    if ((this.info[object] & (Flag.Keyed | Flag.KindMask | Flag.Closed)) !== (Flag.Keyed | Kind.Object | Flag.Closed)) return false;
    const { text } = this;
    if (skipWhitespace(text, this.end[object]) !== comma) return false;
    const next = skipWhitespace(text, at + 1);
    if (!(text.charCodeAt(next) === Char.CloseBrace || (text.charCodeAt(next) === Char.Quote && quotedKeyFollows(text, next)))) return false;
    // An array's items share their keys (`{"sku": …}, {"sku": …`): a first key the object does not
    // hold was typed after a stray "{" (`"data": {…},` then `{"meta": …`), no array's item.
    if (text.charCodeAt(next) === Char.Quote && !this.holdsKey(object, text.slice(next + 1, closingQuoteOnLine(text, next + 1)))) return false;
    const item = object + 1;
    if (this.movedSlots + (count - item) > text.length) return false;
    this.movedSlots += count - item;
    if (count === this.capacity) this.grow(at);
    const { info, start, end, parent, next: nexts, keyStart, keyEnd, colon, values, keys } = this;
    for (const column of [info, start, end, parent, nexts, keyStart, keyEnd, colon] as const) column.copyWithin(item + 1, item, count);
    values.copyWithin(item + 1, item, count);
    // The subtree's slots one on: its links, its keys and decoded strings, and how deep it nests.
    const levels = new Int32Array(count - object + 1);
    let deepest = 0;
    for (let slot = count; slot > item; slot--) {
      keys[slot] = keys[slot - 1];
      if (parent[slot] >= object) parent[slot]++;
      nexts[slot]++;
      if (info[slot] & Flag.Decoded) {
        this.decoded.set(slot, this.decoded.get(slot - 1)!);
        this.decoded.delete(slot - 1);
      }
    }
    for (let slot = item + 1; slot <= count; slot++) {
      const kind = info[slot] & Flag.KindMask;
      if (kind === Kind.Object || kind === Kind.Array) {
        const level = levels[parent[slot] - item] + 1;
        levels[slot - item] = level;
        if (level > deepest) deepest = level;
      }
    }
    info[item] = (info[object] & ~Flag.Keyed) as number;
    start[item] = start[object];
    end[item] = end[object];
    parent[item] = object;
    nexts[item] = count + 1;
    colon[item] = -1;
    keys[item] = undefined;
    this.count = count + 1;
    info[object] = Flag.Keyed | Kind.Array;
    end[object] = text.length;
    // The array nests at the object's former level, the object and its subtree one deeper.
    const open = this.open;
    if (open + 2 + deepest > this.depth) this.depth = open + 2 + deepest;
    if (open === this.containers.length) this.growStack();
    this.containers[open] = object;
    this.states[open] = State.Value;
    this.commas[open] = comma;
    this.open = open + 1;
    this.openArrays++;
    this.states[depth] = State.Comma;
    this.commas[depth] = -1;
    this.lastClosed = -1;
    this.problem(start[item], start[item] + 1, "Expected '[' before '{': the array's opening bracket is missing.", [insert(start[item], '[')]);
    this.pos = at;
    return true;
  }

  /** Whether the closed object at `object` has a key written `name` (its own keys, not its values'). */
  private holdsKey(object: number, name: string): boolean {
    const { next, keys } = this;
    for (let child = object + 1; child < next[object]; child = next[child]) if (keys[child] === name) return true;
    return false;
  }

  /**
   * `"city": "Berlin"` / `  ,` / `  "placed_at": …` (pretty-printed, an inner object's "}" left
   * out), found once the text is read with only the root object left open: the first key that
   * starts its line no deeper than the line its object opens on, in an object whose first key is
   * deeper, belongs to the object around it. That object ends (unclosed) at the comma before the
   * key; the keys from there on go one object up, and each "}" after them closes the object
   * around the one it closed, the last one the root. True when so, the root closed; the slots keep
   * their order, so only parents, ends and nexts change, each once.
   */
  private closeMissingBrace(): boolean {
    const { text, info, parent, next, keyStart, start, end } = this;
    const count = this.count;
    if (this.containers[0] !== 0 || (info[0] & Flag.KindMask) !== Kind.Object) return false;
    const lines = new LineIndents(text);
    let key = -1;
    for (let slot = 2; slot < count; slot++) {
      const object = parent[slot];
      if (!(info[slot] & Flag.Keyed) || object === 0 || slot === object + 1) continue;
      const indent = lines.indentAt(keyStart[slot]);
      if (indent < 0) continue;
      const own = lines.lineIndent(start[object]);
      const first = keyStart[object + 1];
      // Spaces on one line and tabs on the other: how deep each is depends on the tab width, unsaid.
      if (indent <= own && lines.indentAt(first) > own && lines.alike(keyStart[slot], start[object]) && lines.alike(first, start[object])) {
        key = slot;
        break;
      }
    }
    if (key < 0) return false;
    // The objects around the key up to the root's child, innermost first: each one closed.
    const chain: number[] = [];
    for (let object = parent[key]; object !== 0; object = parent[object]) {
      if ((info[object] & (Flag.KindMask | Flag.Closed)) !== (Kind.Object | Flag.Closed)) return false;
      chain.push(object);
    }
    // The root's "}" closed its child: nothing of the root's comes after it.
    if (next[chain[chain.length - 1]] !== count) return false;
    let comma = keyStart[key] - 1;
    for (let code = text.charCodeAt(comma); code === Char.Space || code === Char.Tab || code === Char.LineFeed || code === Char.CarriageReturn; code = text.charCodeAt(--comma));
    if (text.charCodeAt(comma) !== Char.Comma) return false;
    let from = key;
    let ends = comma;
    let closed = 0;
    let subtreeEnd = key;
    for (let i = 0; i <= chain.length; i++) {
      const object = i < chain.length ? chain[i] : 0;
      const oldNext = i < chain.length ? next[object] : count;
      const oldEnd = end[object];
      const oldClosed = info[object] & Flag.Closed;
      if (i < chain.length) {
        const up = i + 1 < chain.length ? chain[i + 1] : 0;
        for (let child = from; child < oldNext; child = next[child]) parent[child] = up;
      }
      next[object] = subtreeEnd;
      end[object] = ends;
      info[object] = (info[object] & ~Flag.Closed) | closed;
      from = subtreeEnd = oldNext;
      ends = oldEnd;
      closed = oldClosed;
    }
    next[0] = count;
    // How deep the document nests, now that the keys moved up.
    const levels = new Int32Array(count);
    let deepest = 1;
    levels[0] = 1;
    for (let slot = 1; slot < count; slot++) {
      const kind = info[slot] & Flag.KindMask;
      if (kind === Kind.Object || kind === Kind.Array) {
        levels[slot] = levels[parent[slot]] + 1;
        if (levels[slot] > deepest) deepest = levels[slot];
      }
    }
    this.depth = deepest;
    this.problem(comma, comma + 1, "Expected '}' before this comma: the object's closing brace is missing.", [insert(comma, '}')]);
    return true;
  }

  /**
   * `"items": [1, 2, "next": …` (the array's "]" left out before its comma): the string item
   * before the colon at `at` is the next key of the object the array is a value of. The array ends
   * at that comma, unclosed, and the string becomes that key, its value after the colon. True when
   * so, with `this.pos` after the colon.
   */
  private closeMissingBracket(array: number, at: number): boolean {
    const depth = this.open - 1;
    if (depth < 1 || (this.info[this.containers[depth - 1]] & Flag.KindMask) !== Kind.Object) return false;
    const slot = this.count - 1;
    if (slot <= array + 1 || this.parent[slot] !== array || (this.info[slot] & Flag.KindMask) !== Kind.String) return false;
    const { text } = this;
    const keyStart = this.start[slot];
    const keyEnd = this.end[slot];
    if (text.charCodeAt(keyStart) !== Char.Quote || skipWhitespace(text, keyEnd) !== at) return false;
    let comma = keyStart - 1;
    for (let code = text.charCodeAt(comma); code === Char.Space || code === Char.Tab || code === Char.LineFeed || code === Char.CarriageReturn; code = text.charCodeAt(--comma));
    if (text.charCodeAt(comma) !== Char.Comma) return false;
    const valueAt = skipWhitespace(text, at + 1);
    const value = text.charCodeAt(valueAt);
    if (!(value === Char.Quote || value === Char.OpenBrace || value === Char.OpenBracket || value === Char.Minus || isWordPart(value))) return false;
    // A colon typed for a comma (`["a", "b": "c"]`): the array's items go on after it.
    if (this.itemFollowsScalar(valueAt)) return false;
    const key = this.info[slot] & Flag.Decoded ? this.decoded.get(slot)! : text.slice(keyStart + 1, keyEnd - 1);
    this.decoded.delete(slot);
    this.end[array] = comma;
    this.next[array] = slot;
    this.open = depth;
    this.openArrays--;
    const object = this.containers[depth - 1];
    this.info[slot] = Flag.Keyed;
    this.parent[slot] = object;
    this.keyStart[slot] = keyStart;
    this.keyEnd[slot] = keyEnd;
    this.colon[slot] = at;
    this.keys[slot] = key;
    this.states[depth - 1] = State.Value;
    this.commas[depth - 1] = -1;
    this.problem(comma, comma + 1, "Expected ']' before this comma: the array's closing bracket is missing.", [insert(comma, ']')]);
    this.pos = at + 1;
    return true;
  }

  /**
   * json-syntax's message for a colon between two array items: what to write instead, quoting the
   * colon and the value after it (a scalar shortened, a container as `{…}` or `[…]`), or the colon alone.
   */
  private colonInArrayMessage(colon: number): string {
    const value = skipWhitespace(this.text, colon + 1);
    const end = this.scalarEnd(value);
    const code = this.codes[value];
    const removal = end >= 0 ? `: ${shortened(this.text.slice(value, end))}` : code === Char.OpenBrace ? ': {…}' : code === Char.OpenBracket ? ': […]' : ':';
    return `Arrays hold values, not key: value pairs; write an object {…} or remove \`${removal}\`.`;
  }

  /** The end of a scalar (a string closed on its line, a clean number, a literal) at `at`, or -1. */
  private scalarEnd(at: number): number {
    const { text, codes } = this;
    const code = codes[at];
    if (code === Char.Quote) {
      const close = closingQuoteOnLine(text, at + 1);
      return close >= 0 ? close + 1 : -1;
    }
    if (isDigit(code) || code === Char.Minus) {
      const number = cleanNumberEnd(codes, at);
      return number > 0 ? number & ~INTEGER_BIT : -1;
    }
    const literal = code === 0x74 ? 'true' : code === 0x66 ? 'false' : code === 0x6e ? 'null' : undefined;
    return literal !== undefined && text.startsWith(literal, at) && !isWordPart(codes[at + literal.length]) ? at + literal.length : -1;
  }

  /**
   * Whether a scalar (a string closed on its line, a number, a literal) starts at `at` and is
   * followed by what follows an array's item: the array's "]", or a comma and another item (no
   * key in double quotes before a colon, no "}"). Only the scalar and the token after it are read.
   */
  private itemFollowsScalar(at: number): boolean {
    const { text, codes } = this;
    const code = codes[at];
    let end = -1;
    if (code === Char.Quote) {
      const close = closingQuoteOnLine(text, at + 1);
      if (close >= 0) end = close + 1;
    } else if (isDigit(code) || code === Char.Minus) {
      const number = cleanNumberEnd(codes, at);
      if (number > 0) end = number & ~INTEGER_BIT;
    } else {
      const literal = code === 0x74 ? 'true' : code === 0x66 ? 'false' : code === 0x6e ? 'null' : undefined;
      if (literal !== undefined && text.startsWith(literal, at)) end = at + literal.length;
    }
    if (end < 0) return false;
    const after = skipWhitespace(text, end);
    if (text.charCodeAt(after) === Char.CloseBracket) return true;
    if (text.charCodeAt(after) !== Char.Comma) return false;
    const item = skipWhitespace(text, after + 1);
    const next = text.charCodeAt(item);
    return item < text.length && next !== Char.CloseBrace && !(next === Char.Quote && quotedKeyFollows(text, item));
  }

  /**
   * `"orders,"lang": …` (one line): the string value before the key at `at` lacks its closing
   * quote, so the next key's opening quote closed it. It ends before the comma (and the brackets
   * before that comma) it holds at its end, which count again from `this.pos`. True when so.
   * In an array (`beforeKey` false), `["x,"b"]`: the next item's opening quote closed the string
   * item before it, and the rest of that next item closes on its line. A closing bracket typed
   * after the comma (`["x, ]"b"]`) is taken in by the string: the next key or item is read from
   * the quote, the comma before it counting.
   */
  private endStringBeforeComma(container: number, at: number, beforeKey: boolean): boolean {
    const slot = this.count - 1;
    if (slot < 0 || this.parent[slot] !== container || (this.info[slot] & Flag.KindMask) !== Kind.String || this.end[slot] !== at) return false;
    const { text } = this;
    const start = this.start[slot];
    if (text.charCodeAt(start) !== Char.Quote || text.charCodeAt(at - 1) !== Char.Quote) return false;
    // The comma, and any spaces, tabs or closing brackets typed after it (`["x, ]"b"]`: swallowed).
    let comma = at - 2;
    let swallowed = false;
    for (let code = text.charCodeAt(comma); comma > start && (code === Char.Space || code === Char.Tab || code === Char.CloseBracket || code === Char.CloseBrace); code = text.charCodeAt(--comma)) {
      if (code !== Char.Space && code !== Char.Tab) swallowed = true;
    }
    if (comma <= start || text.charCodeAt(comma) !== Char.Comma) return false;
    if (beforeKey ? !quotedKeyFollows(text, at - 1) : !stringRestEndsValue(text, at)) return false;
    let end = comma;
    while (end > start + 1 && ',}] \t'.includes(text[end - 1])) end--;
    const value = this.info[slot] & Flag.Decoded ? this.decoded.get(slot)! : text.slice(start + 1, at - 1);
    this.decoded.set(slot, value.slice(0, value.length - (at - 1 - end)));
    this.info[slot] = (this.info[slot] & ~(Flag.PlainAscii | Flag.WrittenAsIs)) | Flag.Decoded;
    this.end[slot] = end;
    // A tab after the comma is no control character in the string.
    const { problems } = this;
    while (problems.length > 0 && problems[problems.length - 1].offset >= end && problems[problems.length - 1].message.startsWith('Control character')) problems.pop();
    if (!swallowed) {
      this.problem(start, end, UNTERMINATED_STRING_MESSAGE, closingQuote(text, end));
      this.pos = end;
      return true;
    }
    // A bracket after the comma was typed inside the string, not after it: read again, it would
    // close the container and leave the next key or item outside it, a cascade of findings. The
    // comma counts, and the next key or item is read from the quote that closed the string.
    const next = text.slice(at, closingQuoteOnLine(text, at));
    this.problem(start, end, `Unterminated string: add the closing double quote before \`${shortened(text.slice(end, at - 1))}\`; as written, the string ends only at the quote that opens "${shortened(next)}".`, closingQuote(text, end));
    const depth = this.open - 1;
    this.states[depth] = beforeKey ? State.Key : State.Value;
    this.commas[depth] = comma;
    this.pos = at - 1;
    return true;
  }

  /**
   * The values the fast path of `run` leaves (all reported but an unclean number's careful
   * reading): single-quoted strings, bad numbers, bare words, and no value at all (false; the
   * slot keeps kind None). Starts at `this.pos`, whose first code unit is `code`.
   */
  private value(code: number, slot: number): boolean {
    const start = this.pos;
    if ((code >= Char.Digit0 && code <= Char.Digit9) || code === Char.Minus || code === Char.Plus || code === Char.Dot) {
      const close = this.closingQuoteOfUnopenedString(start, start);
      if (close > 0) {
        // `38e69665-58a3-4c1e-9a55-0c1b7e2f5a11",`, `2026-03-14T11:02:17Z",`, `+44 20 7946 0958",`,
        // `.json",`: a string that starts like a number and lacks its opening quote; the fast path
        // found no clean number here.
        this.unopenedString(slot, start, close);
        return true;
      }
    }
    if ((code >= Char.Digit0 && code <= Char.Digit9) || code === Char.Minus || code === Char.Plus || code === Char.Dot) {
      this.readNumber(slot);
      return true;
    }
    if (code === Char.Apostrophe) {
      this.decoded.set(slot, this.readString(start, code));
      this.problem(start, this.pos, 'Strings must use double quotes, not single quotes.', doubleQuoted(this.text, start, this.pos));
      this.scalar(slot, Kind.String | Flag.Decoded);
      return true;
    }
    if (isWordStart(code)) return this.readWord(start, slot);
    // Not at a backslash right after one (the second of `\\`, an escape that began before it): the
    // text read for a string that starts before it (`closingQuoteOfUnopenedString`) took the pair as one.
    if (mayStartUnopenedString(code) && !(code === Char.Backslash && this.codes[start - 1] === Char.Backslash)) {
      const close = this.closingQuoteOfUnopenedString(start, start);
      if (close > 0) {
        // `^a\\d+$",`, `/var/log",`: a string that starts with a sign no value starts with and lacks its opening quote.
        this.unopenedString(slot, start, close);
        return true;
      }
    }
    this.start[slot] = -1;
    const depth = this.open - 1;
    if (code === Char.Colon && (this.info[slot] & Flag.Keyed) !== 0 && this.colon[slot] >= 0) {
      // `"queue":: "orders"`: a second colon, one finding on it; the property still expects its value.
      this.problem(start, start + 1, colonOrCommaTwiceMessage(code, this.keys[slot]!), [remove(start, start + 1, ':')]);
      this.states[depth] = State.Value;
      this.pos = start + 1;
      return false;
    }
    this.unexpected('Expected a JSON value');
    return false;
  }

  /** Completes a scalar slot that ends at `this.pos`. */
  private scalar(slot: number, info: number): void {
    // A number here is no clean literal (or NaN, Infinity), so never a plain one.
    this.unplainNumbers += unplainNumber(info);
    this.info[slot] |= info;
    this.end[slot] = this.pos;
  }

  /**
   * A bare word: a misspelt literal, NaN, Infinity or an unquoted string (all reported), into
   * `slot`. False for a stray word before a value on its line (`"amount": abc 12,`): reported, and
   * `this.pos` at that value, which is read next in its place (an object's property is left
   * expecting it).
   */
  private readWord(start: number, slot: number): boolean {
    const { text } = this;
    WORD.lastIndex = start;
    WORD.exec(text);
    const end = WORD.lastIndex;
    const word = text.slice(start, end);
    this.pos = end;
    if (word === 'true' || word === 'false') {
      this.scalar(slot, word === 'true' ? Kind.Boolean | Flag.True : Kind.Boolean);
      return true;
    }
    if (word === 'null') {
      this.scalar(slot, Kind.Null);
      return true;
    }
    if (word === 'NaN' || word === 'Infinity') {
      this.problem(start, end, `${word} is not a JSON number: the PHP, Node, Go and Java consumers reject the message; Python's reads it. Use null or a string.`, nullOrString(start, end, word), true);
      this.scalar(slot, Kind.Number);
      return true;
    }
    if (text.charCodeAt(end) === Char.Quote && endsValue(text, end + 1)) {
      // `orders",`: a string that lacks its opening quote.
      this.pos = end + 1;
      this.problem(start, end + 1, `The string "${word}" lacks its opening double quote: write "${word}".`, [insert(start, '"', `Write "${shortened(word)}"`)]);
      this.decoded.set(slot, word);
      this.scalar(slot, Kind.String | Flag.Decoded);
      return true;
    }
    const close = this.closingQuoteOfUnopenedString(start, end);
    if (close > 0) {
      // `urn:babel:orders:created",`, `New York",`: a string that lacks its opening quote and holds
      // more than a word (colons, spaces): one finding on it, read as the string it was typed as.
      this.unopenedString(slot, start, close);
      return true;
    }
    const phraseEnd = this.unquotedPhraseEnd(start, end);
    if (phraseEnd > 0) {
      // `"city": New York,`: words typed as a string without its quotes, one finding on them all.
      const phrase = text.slice(start, phraseEnd);
      this.pos = phraseEnd;
      this.problem(start, phraseEnd, `Unexpected text '${shortened(phrase)}'. Strings must be double-quoted: write "${shortened(phrase)}".`, [replace(start, phraseEnd, JSON.stringify(phrase))]);
      this.decoded.set(slot, phrase);
      this.scalar(slot, Kind.String | Flag.Decoded);
      return true;
    }
    const value = skipSpaces(text, end);
    // `x"orders",` too: a word typed against the value's opening quote.
    const opens = this.codes[value] === Char.OpenBrace || this.codes[value] === Char.OpenBracket;
    if ((value > end || this.codes[end] === Char.Quote || opens) && (opens || this.scalarEndsValueAt(value))) {
      const next = text.slice(value, skipWord(text, value));
      // `Chapter 12`: the word may be stray, or the two one string without its quotes.
      const oneString = value === end + 1 && isPlainToken(next) && endsValue(text, value + next.length);
      const orString = oneString ? `, or write "${shortened(`${word} ${next}`)}" if they are one string` : '';
      const removed = remove(start, value, word);
      this.problem(start, end, `Unexpected word '${shortened(word)}' before the value; remove it${orString}.`, oneString ? [removed, replace(start, value + next.length, JSON.stringify(`${word} ${next}`))] : [removed]);
      this.start[slot] = -1;
      const depth = this.open - 1;
      if (depth >= 0 && (this.info[this.containers[depth]] & Flag.KindMask) === Kind.Object) this.states[depth] = State.Value;
      this.pos = value;
      return false;
    }
    const lower = word.toLowerCase();
    const literal = lower === 'true' || lower === 'false' || lower === 'null';
    const hint = literal ? ` JSON literals are lowercase: write ${lower}.` : ` Strings must be double-quoted: write "${shortened(word)}".`;
    this.problem(start, end, `Unexpected word '${shortened(word)}'.${hint}`, [replace(start, end, literal ? lower : JSON.stringify(word))]);
    this.decoded.set(slot, word);
    this.scalar(slot, Kind.String | Flag.Decoded);
    return true;
  }

  /**
   * The string value `text[start..close)` in `slot`, its opening quote left out (the quote at `close`
   * closes it): one finding on it. Its valid escapes are read as the string with its quote would
   * read them (`C:\\orders` is `C:\orders`), unless a backslash in it starts none: then it is a path
   * pasted as it is (`C:\orders\new",`), every backslash one of the string (its `\n` no line feed),
   * and the finding's advice writes them escaped, so the one finding is all there is to fix.
   */
  private unopenedString(slot: number, start: number, close: number): void {
    const written = this.text.slice(start, close);
    const meant = withPastedBackslashesEscaped(written);
    this.pos = close + 1;
    const backslashes = meant === written ? '' : ', and JSON escapes a backslash as \\\\';
    this.problem(start, close + 1, `The string "${shortened(written)}" lacks its opening double quote${backslashes}: write "${shortened(meant)}".`, [replace(start, close + 1, `"${meant}"`, `Write "${shortened(meant)}"`)]);
    this.decoded.set(slot, meant.includes('\\') ? (JSON.parse(`"${meant}"`) as string) : meant);
    this.scalar(slot, Kind.String | Flag.Decoded);
  }

  /**
   * `"order_id": 1042",`, `"gift": true",`: a quote right after the clean number or the literal just
   * read in `container` (the last slot), the value's end after it on its line. The quote is stray, or
   * the string's opening quote typed at its end: one finding on it, saying both; the value stands, as
   * the parse before this quote read it, and the comma or bracket after the quote counts. True when
   * so, `this.pos` after it.
   */
  private quoteAfterNumber(container: number, at: number): boolean {
    const slot = this.count - 1;
    const { codes, info } = this;
    const end = this.end[slot];
    if (codes[at] !== Char.Quote || slot < 0 || this.parent[slot] !== container || end > at) return false;
    // Spaces or tabs between the value and the quote (`1042 "}`), all on the value's line, the caller skipped once.
    for (let pos = end; pos < at; pos++) if (codes[pos] !== Char.Space && codes[pos] !== Char.Tab) return false;
    const kind = info[slot] & Flag.KindMask;
    const start = this.start[slot];
    if (kind === Kind.Number ? (cleanNumberEnd(codes, start) & ~INTEGER_BIT) !== end : kind !== Kind.Boolean && kind !== Kind.Null) return false;
    if (!endsValue(this.text, at + 1)) return false;
    const value = shortened(this.text.slice(start, end));
    const asString = end === at ? insert(start, '"', `Write "${value}"`) : replace(start, at + 1, `"${this.text.slice(start, end)}"`, `Write "${value}"`);
    this.problem(at, at + 1, `Unexpected '"' after ${kind === Kind.Number ? 'the number ' : ''}${value}; remove it, or write "${value}" if the value is a string.`, [remove(at, at + 1, '"'), asString]);
    this.pos = at + 1;
    return true;
  }

  /**
   * How many more closing brackets ("}", "]") than opening ones the text holds from `at` (outside
   * a string) to its end, outside strings; -1 when the count places `at` in a string. The text is
   * counted once, on the first call, and the count up to `at` goes on from the last call's `at`
   * (from the start again only if `at` is before it), so the calls of a parse read it about twice.
   */
  private closersAfter(at: number): number {
    const { codes } = this;
    const length = this.text.length;
    if (Number.isNaN(this.bracketBalance)) this.bracketBalance = bracketBalanceBetween(codes, 0, length, false).balance;
    if (at < this.bracketCursor) {
      // No input found calls it backwards, but nothing proves none does: each call back costs a
      // read from the top, so past a few the answer is "unknown" (the stray-"{" reading stands).
      if (++this.bracketRecounts > MAX_BRACKET_RECOUNTS) return -1;
      this.bracketCursor = 0;
      this.bracketBalanceBefore = 0;
      this.bracketCursorInString = false;
    }
    const counted = bracketBalanceBetween(codes, this.bracketCursor, at, this.bracketCursorInString);
    this.bracketCursor = counted.end;
    this.bracketBalanceBefore += counted.balance;
    this.bracketCursorInString = counted.inString;
    return counted.end !== at || counted.inString ? -1 : this.bracketBalance - this.bracketBalanceBefore;
  }

  /**
   * `"amount": 12.50 EUR",`, `12:30",`: the clean number just read in `container` (the last slot,
   * ending on this line before `at`, only spaces between: a tab is no character a string holds)
   * starts a string that lacks its opening quote, the quote that closes it after `at` on the line.
   * The slot becomes that string, one finding on it; true when so, with `this.pos` after the quote.
   * A quote, comma or closing bracket at `at` is no such string: the number stands.
   */
  private numberBeforeUnopenedString(container: number, at: number): boolean {
    const slot = this.count - 1;
    const { codes, info } = this;
    const code = codes[at];
    if (slot < 0 || this.parent[slot] !== container || (info[slot] & Flag.KindMask) !== Kind.Number || code === Char.Quote || code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket) return false;
    const start = this.start[slot];
    const end = this.end[slot];
    if (end > at || (cleanNumberEnd(codes, start) & ~INTEGER_BIT) !== end) return false;
    for (let pos = end; pos < at; pos++) if (codes[pos] !== Char.Space) return false;
    const close = this.closingQuoteOfUnopenedString(at, at);
    if (close <= 0) return false;
    this.unplainNumbers -= unplainNumber(info[slot]);
    info[slot] &= ~(Flag.KindMask | Flag.Integer | Flag.PlainNumber | Flag.Negative);
    this.unopenedString(slot, start, close);
    return true;
  }

  /**
   * `urn:babel:orders:created",` (a value typed without its opening quote, the word at `start` to
   * `wordEnd` its start): the position of the quote that closes it, the first on its line that no
   * backslash escapes, with the value's end after it; 0 when there is none. What comes before that
   * quote holds no control character; a valid escape is read as one (`C:\\orders\\in",`,
   * `^a\\d+$",`, its `\"` no closing quote), and a backslash that starts none as itself
   * (`C:\orders\in",`: `unopenedString` escapes it); after such a one, a `\"` that ends the value
   * is a path's last backslash and its closing quote (`C:\orders\in\",`). A run found to close no such string is
   * remembered, so a line of words is scanned once.
   */
  private closingQuoteOfUnopenedString(start: number, wordEnd: number): number {
    if (start < this.noUnopenedStringBefore) return 0;
    const { text, codes } = this;
    let pos = wordEnd;
    // Whether a backslash alone came before: the value is a pasted path, whose `\"` with the value's
    // end after it (`C:\orders\in\",`) is its last backslash and its closing quote.
    let pasted = false;
    while (codes[pos] !== Char.Quote && codes[pos] >= Char.Space) {
      if (codes[pos] !== Char.Backslash) pos++;
      else if (pasted && codes[pos + 1] === Char.Quote && endsValue(text, pos + 2)) pos++;
      else if (VALID_ESCAPE_CODES.has(codes[pos + 1])) pos += 2;
      else if (codes[pos + 1] === 0x75 /* u */ && isHexCode(codes[pos + 2]) && isHexCode(codes[pos + 3]) && isHexCode(codes[pos + 4]) && isHexCode(codes[pos + 5])) pos += 6;
      else {
        // A backslash alone: the character after it is read next (a control character ends the run).
        pasted = true;
        pos++;
      }
    }
    if (codes[pos] === Char.Quote && endsValue(text, pos + 1)) return pos;
    this.noUnopenedStringBefore = pos;
    return 0;
  }

  /**
   * `New York` (a value's words without quotes, single spaces between them, then the value's end on
   * its line): where the phrase that starts with the word at `start` (ending at `wordEnd`) ends, or 0
   * when it is no such phrase. Two tokens of which the second is a value itself (`abc 12`,
   * `abc true`) are left to the stray word's reading. A run found to be no phrase is remembered, so
   * the words after its first are not scanned again (a line of words without an end stays linear).
   */
  private unquotedPhraseEnd(start: number, wordEnd: number): number {
    if (start < this.noPhraseBefore) return 0;
    const { text, codes } = this;
    let tokens = 1;
    let secondStart = -1;
    let end = wordEnd;
    let pos = wordEnd;
    while (codes[pos] === Char.Space) {
      let gap = pos;
      while (codes[gap] === Char.Space) gap++;
      let tokenEnd = gap;
      while (isWordPart(codes[tokenEnd])) tokenEnd++;
      if (tokenEnd === gap) break;
      if (++tokens === 2) secondStart = gap;
      end = pos = tokenEnd;
    }
    if (tokens < 2 || !endsValue(text, end)) {
      this.noPhraseBefore = Math.max(this.noPhraseBefore, pos);
      return 0;
    }
    if (tokens === 2 && isPlainToken(text.slice(secondStart, end))) return 0;
    return end;
  }

  /**
   * Whether the string after the comma at `comma` may be the next key, typed up to its name:
   * `"job": ,"meta"}` is a property still waiting for its value and the key typed after it, as an
   * editor holds them mid-typing, not a stray comma; only a string followed by a comma
   * (`"queue":, "orders", …`) is read as the value.
   */
  private keyTypedAfter(comma: number): boolean {
    const { text, codes } = this;
    const next = skipWhitespace(text, comma + 1);
    if (codes[next] !== Char.Quote) return false;
    const close = closingQuoteOnLine(text, next + 1);
    return close < 0 || codes[skipSpaces(text, close + 1)] !== Char.Comma;
  }

  /**
   * Whether a value follows the comma at `comma`: an object or array, or a well-formed scalar after
   * which a value ends (a string followed by a colon is the next key: the value before the comma is missing).
   */
  private valueAfterComma(comma: number): boolean {
    const next = skipWhitespace(this.text, comma + 1);
    const code = this.codes[next];
    return code === Char.OpenBrace || code === Char.OpenBracket || this.scalarEndsValueAt(next);
  }

  /** Whether a well-formed scalar (a number, a string closed on its line, a literal) starts at `at` and a value ends after it. */
  private scalarEndsValueAt(at: number): boolean {
    const { text, codes } = this;
    const code = codes[at];
    if (code === Char.Quote) return stringRestEndsValue(text, at + 1);
    if (isDigit(code) || code === Char.Minus) {
      const end = cleanNumberEnd(codes, at);
      return end > 0 && endsValue(text, end & ~INTEGER_BIT);
    }
    const literal = code === 0x74 ? 'true' : code === 0x66 ? 'false' : code === 0x6e ? 'null' : undefined;
    return literal !== undefined && text.startsWith(literal, at) && !isWordPart(codes[at + literal.length]) && endsValue(text, at + literal.length);
  }

  /** Any number-like token that is not clean JSON (reported), and `-Infinity`. */
  private readNumber(slot: number): void {
    const { text } = this;
    const start = this.pos;
    LOOSE_NUMBER.lastIndex = start;
    LOOSE_NUMBER.exec(text);
    const end = Math.max(LOOSE_NUMBER.lastIndex, start + 1);
    const raw = text.slice(start, end);
    this.pos = end;
    if (raw === '-Infinity') this.problem(start, end, `-Infinity is not a JSON number: the PHP, Node, Go and Java consumers reject the message; Python's reads it. Use null or a string.`, nullOrString(start, end, raw), true);
    else this.problem(start, end, `Invalid number '${shortened(raw)}': JSON numbers are decimal, without leading zeros, '+' signs, bare dots or hex.`);
    this.scalar(slot, raw.startsWith('-') ? Kind.Number | Flag.Negative : Kind.Number);
  }

  /**
   * Reads a string starting at the quote at `start` (a single-quoted value or key, which is then
   * reported); leaves `this.pos` after it. A string without escapes or control characters is one
   * slice; anything else goes through `readEscapedString`.
   */
  private readString(start: number, quote: number): string {
    const { text } = this;
    let pos = start + 1;
    let code = text.charCodeAt(pos);
    while (code !== quote && code !== Char.Backslash && code >= Char.Space) code = text.charCodeAt(++pos);
    if (code !== quote) return this.readEscapedString(start, pos, quote);
    this.pos = pos + 1;
    return text.slice(start + 1, pos);
  }

  /**
   * The findings of the string `[start, end)` from `from` on, each an invalid escape of a backslash
   * the string holds as it is (`"C:\orders\in"`), made one on the string: what it writes, every
   * backslash but a quote's escaped (a pasted path's `\t` is no tab). Returns the string so read.
   */
  private invalidEscapesInString(start: number, end: number, from: number, key: boolean): string {
    const { text, problems } = this;
    const escapes = problems.slice(from).map((problem) => text.slice(problem.offset, problem.end));
    problems.length = from;
    const meant = withPastedBackslashesEscaped(text.slice(start + 1, end - 1));
    this.problem(start, end, invalidEscapesMessage(escapes, key, meant), [replace(start, end, `"${meant}"`, `Write "${shortened(meant)}"`)]);
    return JSON.parse(`"${meant}"`) as string;
  }

  /**
   * A string value in double quotes at `start`, for `slot`: the kind and flags to set. A clean
   * string (no escape, no control character, closed) is not copied at all: its value is its text
   * between the quotes (`stringValue`), and the scan notes whether it is plain printable ASCII,
   * which every SDK writes as is. Anything else is decoded once and kept (`Flag.Decoded`).
   */
  private readStringValue(start: number, slot: number): number {
    const { text, codes } = this;
    let pos = start + 1;
    let code = codes[pos];
    // Every code + 1 ORed: the result stays below 0x80 exactly when all are below 0x7F (DEL is not plain).
    let seen = 0;
    while (code !== Char.Quote && code !== Char.Backslash && code >= Char.Space) {
      seen |= code + 1;
      code = codes[++pos];
    }
    if (code === Char.Quote) {
      this.pos = pos + 1;
      return Kind.String | plainStringFlags(text, start + 1, pos, seen);
    }
    this.decoded.set(slot, this.readEscapedString(start, pos, Char.Quote));
    return Kind.String | Flag.Decoded;
  }

  /** `readString` for a key in double quotes: short keys are shared (see `shared`). */
  private readKeyString(start: number): string {
    const { text, codes } = this;
    let pos = start + 1;
    let code = codes[pos];
    let hash = 0;
    while (code !== Char.Quote && code !== Char.Backslash && code >= Char.Space) {
      hash = (Math.imul(hash, 31) + code) | 0;
      code = codes[++pos];
    }
    if (code !== Char.Quote) return this.readEscapedString(start, pos, Char.Quote, true);
    this.pos = pos + 1;
    return pos - start <= MAX_SHARED_LENGTH ? shared(text, codes, start + 1, pos, hash) : text.slice(start + 1, pos);
  }

  /**
   * The careful path of `readString` from `pos` on (escapes, control characters, the end of the
   * text). A `key` broken across two lines is the name on both joined (the line break and the
   * next line's indentation left out): the name its author typed, which the rules then look up.
   */
  private readEscapedString(start: number, pos: number, quote: number, key = false): string {
    const { text, problems } = this;
    const problemsBefore = problems.length;
    let chunkStart = start + 1;
    let value = '';
    let brokenAcrossLines = false;
    // Backslashes that start no escape (`"C:\orders\in"`, a path pasted as it is): with another
    // backslash beside one (`"C:\temp\x"`), the string is one finding, its every backslash its own.
    let invalidEscapes = 0;
    // Valid escapes but `\"` (which a pasted path's reading keeps: its quote is no closing one).
    let otherEscapes = 0;
    while (pos < text.length) {
      const code = text.charCodeAt(pos);
      if (code === quote) {
        value += text.slice(chunkStart, pos);
        this.pos = pos + 1;
        // The string is the token the line break is a mistake in (so json-syntax carries what else fires on it).
        if (brokenAcrossLines) this.problem(start, pos + 1, key ? keyAcrossLinesMessage(value) : STRING_ACROSS_LINES_MESSAGE, key ? [replace(start, pos + 1, JSON.stringify(value))] : undefined);
        else if (invalidEscapes > 0 && invalidEscapes + otherEscapes > 1 && quote === Char.Quote && problems.length - problemsBefore === invalidEscapes) return this.invalidEscapesInString(start, pos + 1, problemsBefore, key);
        return value;
      }
      if (code === Char.Backslash) {
        value += text.slice(chunkStart, pos);
        const escape = text[pos + 1];
        if (escape === '"' && invalidEscapes > 0 && quote === Char.Quote && endsValue(text, pos + 2)) {
          // A pasted path's last backslash (`"C:\orders\in\",`): after a backslash alone, a `\"` that
          // ends the value is that backslash and the string's closing quote.
          invalidEscapes++;
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
          // A backslash before a control character is no backslash of the string to escape: that character needs its own escape.
          const printable = escape.charCodeAt(0) >= Char.Space;
          if (printable) invalidEscapes++;
          this.problem(pos, pos + 2, `Invalid escape '\\${escape}'; JSON allows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX.`, printable ? [insert(pos, '\\', `Write \\\\${escape}`)] : undefined);
          // Read as the backslash and the character typed, as the repair writes them (a control character alone).
          value += printable ? `\\${escape}` : escape;
          pos += 2;
        }
        chunkStart = pos;
        continue;
      }
      if (code === Char.LineFeed || code === Char.CarriageReturn) {
        // `"customer` / `_request",`: the string goes on to a quote on the next line: one finding,
        // on its first line, and the line break is part of its value.
        const next = code === Char.CarriageReturn && text.charCodeAt(pos + 1) === Char.LineFeed ? pos + 2 : pos + 1;
        if (!continuesOnLine(text, next, quote)) break;
        brokenAcrossLines = true;
        if (key) {
          value += text.slice(chunkStart, pos);
          pos = chunkStart = skipSpaces(text, next);
        } else {
          pos = next;
        }
        continue;
      }
      if (code < Char.Space) {
        this.problem(pos, pos + 1, `Control character U+${code.toString(16).toUpperCase().padStart(4, '0')} must be escaped inside a string.`, [escapeControl(pos, code)]);
      }
      pos++;
    }
    value += text.slice(chunkStart, pos);
    // A line that ends in the punctuation after a value (`"orders,`, `"left open },`) lacks the
    // quote before it: the string ends there and the comma or bracket still counts, so one missing
    // quote is one finding, not a cascade of the keys and brackets it would swallow.
    const end = endBeforeClosingPunctuation(text, chunkStart, pos);
    if (end < pos) {
      value = value.slice(0, value.length - (pos - end));
      pos = end;
      // A tab in what is no longer the string is no control character in it.
      while (problems.length > problemsBefore && problems[problems.length - 1].offset >= end && problems[problems.length - 1].message.startsWith('Control character')) problems.pop();
    }
    this.problem(start, pos, UNTERMINATED_STRING_MESSAGE, quote === Char.Quote ? closingQuote(text, pos) : undefined);
    this.pos = pos;
    return value;
  }
}

/**
 * Where an unterminated string that runs from `from` to the line's end at `to` should end: before
 * the spaces, tabs, commas and closing brackets that end the line when there is a comma or bracket among
 * them, else at `to`. A closing bracket that closes one opened in the string itself (`"Hello
 * {name}`, `"[0-9]{4},`) is the string's own, and so is what comes before it.
 */
function endBeforeClosingPunctuation(text: string, from: number, to: number): number {
  let runStart = to;
  let punctuation = false;
  for (; runStart > from; runStart--) {
    const char = text[runStart - 1];
    if (char === ',' || char === '}' || char === ']') punctuation = true;
    else if (char !== ' ' && char !== '\t') break;
  }
  if (!punctuation) return to;
  // The brackets the string opens and leaves open before the run, innermost last.
  const open: string[] = [];
  for (let i = from; i < runStart; i++) {
    const char = text[i];
    if (char === '{' || char === '[') open.push(char);
    else if ((char === '}' && open[open.length - 1] === '{') || (char === ']' && open[open.length - 1] === '[')) open.pop();
  }
  let end = runStart;
  for (let i = runStart; i < to && open.length > 0; i++) {
    const char = text[i];
    if ((char === '}' && open[open.length - 1] === '{') || (char === ']' && open[open.length - 1] === '[')) {
      open.pop();
      end = i + 1;
    } else if (char === '}' || char === ']') break;
  }
  return end;
}

/**
 * The spaces and tabs before `at` when only they come before it on its line (looked for within 256
 * characters, so a long line costs no scan back over it), else -1.
 */
function lineIndentBefore(text: string, at: number): number {
  let pos = at;
  while (pos > 0 && at - pos < 256 && (text.charCodeAt(pos - 1) === Char.Space || text.charCodeAt(pos - 1) === Char.Tab)) pos--;
  const code = text.charCodeAt(pos - 1);
  return pos === 0 || code === Char.LineFeed || code === Char.CarriageReturn ? at - pos : -1;
}

/** The spaces and tabs that start the line `at` is on (looked for within 256 characters before it), or -1. */
function lineIndentOf(text: string, at: number): number {
  let start = at;
  while (start > 0 && at - start < 256 && text.charCodeAt(start - 1) !== Char.LineFeed && text.charCodeAt(start - 1) !== Char.CarriageReturn) start--;
  if (start > 0 && text.charCodeAt(start - 1) !== Char.LineFeed && text.charCodeAt(start - 1) !== Char.CarriageReturn) return -1;
  return skipSpaces(text, start) - start;
}

/** Where `at` is on its line (looked for within 256 characters before it), or -1. */
function columnOf(text: string, at: number): number {
  let start = at;
  while (start > 0 && at - start < 256 && text.charCodeAt(start - 1) !== Char.LineFeed && text.charCodeAt(start - 1) !== Char.CarriageReturn) start--;
  if (start > 0 && text.charCodeAt(start - 1) !== Char.LineFeed && text.charCodeAt(start - 1) !== Char.CarriageReturn) return -1;
  return at - start;
}

/** Whether a line break comes between `from` and `to` (looked for within 256 characters before `to`, else assumed). */
function lineBreakBetween(text: string, from: number, to: number): boolean {
  for (let pos = to - 1; pos >= from; pos--) {
    const code = text.charCodeAt(pos);
    if (code === Char.LineFeed || code === Char.CarriageReturn || to - pos > 256) return true;
  }
  return false;
}

/** The first position at or after `from` that is no space or tab. */
function skipSpaces(text: string, from: number): number {
  let pos = from;
  while (text.charCodeAt(pos) === Char.Space || text.charCodeAt(pos) === Char.Tab) pos++;
  return pos;
}

/** The position after the last character before `to`, and not before `from`, that is no space or tab. */
function skipSpacesBack(text: string, from: number, to: number): number {
  let pos = to;
  while (pos > from && (text.charCodeAt(pos - 1) === Char.Space || text.charCodeAt(pos - 1) === Char.Tab)) pos--;
  return pos;
}

/** The first position at or after `from` that is no JSON white space. */
function skipWhitespace(text: string, from: number): number {
  let pos = from;
  for (let code = text.charCodeAt(pos); code === Char.Space || code === Char.Tab || code === Char.LineFeed || code === Char.CarriageReturn; code = text.charCodeAt(++pos));
  return pos;
}

/** Whether a value ends at `at`: spaces, then a comma, a closing bracket, a line's end or the text's. */
function endsValue(text: string, at: number, orKey = false): boolean {
  const pos = skipSpaces(text, at);
  const code = text.charCodeAt(pos);
  return pos >= text.length || (orKey && code === Char.Colon) || code === Char.Comma || code === Char.CloseBrace || code === Char.CloseBracket || code === Char.LineFeed || code === Char.CarriageReturn;
}

/**
 * The position of the first unescaped `quote` from `from` on, or -1 when the line (or the text)
 * ends first: where a string read from `from` closes, if it closes on its line.
 */
function closingQuoteOnLine(text: string, from: number, quote: number = Char.Quote): number {
  for (let pos = from; pos < text.length; pos++) {
    const code = text.charCodeAt(pos);
    if (code === Char.LineFeed || code === Char.CarriageReturn) return -1;
    if (code === Char.Backslash) {
      const escaped = text.charCodeAt(++pos);
      if (escaped === Char.LineFeed || escaped === Char.CarriageReturn) return -1;
    } else if (code === quote) return pos;
  }
  return -1;
}

/** Whether a key in double quotes, closed on its line and followed by a colon, starts at the quote at `at`. */
function quotedKeyFollows(text: string, at: number): boolean {
  const close = closingQuoteOnLine(text, at + 1);
  return close > at + 1 && text.charCodeAt(skipSpaces(text, close + 1)) === Char.Colon;
}

/** Whether the rest of a string, from `from`, closes on its line and a value ends after it. */
function stringRestEndsValue(text: string, from: number): boolean {
  const close = closingQuoteOnLine(text, from);
  return close >= 0 && endsValue(text, close + 1);
}

/**
 * Whether a string left open at a line's end goes on at `lineStart`: that line does not start
 * with a quote (the next key or item) and holds the string's closing quote, followed by what ends
 * a value or by a key's colon.
 */
function continuesOnLine(text: string, lineStart: number, quote: number): boolean {
  const first = skipSpaces(text, lineStart);
  const code = text.charCodeAt(first);
  if (first >= text.length || code === quote || code === Char.LineFeed || code === Char.CarriageReturn) return false;
  const close = closingQuoteOnLine(text, first, quote);
  return close >= 0 && endsValue(text, close + 1, true);
}

/** Set in `cleanNumberEnd`'s result for an integer literal (positions stay below 2^30). */
const INTEGER_BIT = 1 << 30;

/**
 * The end of a number in strict JSON syntax at `start` followed by a delimiter (with
 * `INTEGER_BIT` set when it has neither fraction nor exponent); -1 when the token is anything
 * else, which `readNumber` then words as a problem.
 */
function cleanNumberEnd(codes: Uint16Array, start: number): number {
  let pos = start;
  let code = codes[pos];
  if (code === Char.Minus) code = codes[++pos];
  if (code === Char.Digit0) {
    code = codes[++pos];
  } else if (code > Char.Digit0 && code <= Char.Digit9) {
    do code = codes[++pos];
    while (code >= Char.Digit0 && code <= Char.Digit9);
  } else {
    return -1;
  }
  let integer = INTEGER_BIT;
  if (code === Char.Dot) {
    const next = codes[pos + 1];
    if (!(next >= Char.Digit0 && next <= Char.Digit9)) return -1;
    pos++;
    do code = codes[++pos];
    while (code >= Char.Digit0 && code <= Char.Digit9);
    integer = 0;
  }
  if (code === 0x65 || code === 0x45) {
    let digit = pos + 1;
    const sign = codes[digit];
    if (sign === Char.Plus || sign === Char.Minus) digit++;
    const first = codes[digit];
    if (!(first >= Char.Digit0 && first <= Char.Digit9)) return -1;
    pos = digit;
    do code = codes[++pos];
    while (code >= Char.Digit0 && code <= Char.Digit9);
    integer = 0;
  }
  if (isWordPart(code) || code === Char.Dot || code === Char.Plus || code === Char.Minus) return -1;
  return pos | integer;
}

/**
 * Short keys seen before, by a hash of their characters:
 * a key that repeats across 10,000 array items is one string, not 10,000, and the rules'
 * per-key lookups hit a string whose hash is already computed. A slot holds the latest string
 * that hashed to it; a miss costs one slice, as without the table.
 */
const MAX_SHARED_LENGTH = 32;
const SHARED_SLOTS = 4096;
const sharedStrings: (string | undefined)[] = new Array<string | undefined>(SHARED_SLOTS).fill(undefined);

/**
 * The slots the current parse filled, each once (`filledIn` holds the parse that last listed a
 * slot). A slice is a view into the document's text, so what a parse leaves in the table is
 * detached when it ends (`detachSharedKeys`), not at every miss: a file of unique keys misses at
 * every key, and at most 4,096 of its keys stay in the table.
 */
const filledSlots = new Uint16Array(SHARED_SLOTS);
const filledIn = new Int32Array(SHARED_SLOTS);
let filledCount = 0;
let parseNumber = 1;

function shared(text: string, codes: Uint16Array, start: number, end: number, hash: number): string {
  const slot = (hash ^ (hash >>> 12)) & (SHARED_SLOTS - 1);
  const known = sharedStrings[slot];
  if (known !== undefined && known.length === end - start && sameCodes(known, codes, start)) return known;
  const fresh = text.slice(start, end);
  sharedStrings[slot] = fresh;
  if (filledIn[slot] !== parseNumber) {
    filledIn[slot] = parseNumber;
    filledSlots[filledCount++] = slot;
  }
  return fresh;
}

function sameCodes(known: string, codes: Uint16Array, start: number): boolean {
  for (let i = 0; i < known.length; i++) if (known.charCodeAt(i) !== codes[start + i]) return false;
  return true;
}

/** The keys this parse left in the table, copied apart from its text, so the table does not keep the document alive. */
function detachSharedKeys(): void {
  for (let i = 0; i < filledCount; i++) {
    const slot = filledSlots[i];
    sharedStrings[slot] = detachedString(sharedStrings[slot]!);
  }
  filledCount = 0;
  parseNumber = (parseNumber + 1) | 0 || 1;
}

/**
 * The end of the first token of the text after the value, which its finding covers: a bracket,
 * comma or colon alone (a second envelope on its opening bracket), a quoted string up to its
 * closing quote or the line's end, any other run up to white space or punctuation.
 */
function trailingTokenEnd(text: string, start: number): number {
  const first = text[start];
  if ('{}[],:'.includes(first)) return start + 1;
  if (first === '"' || first === "'") {
    for (let i = start + 1; i < text.length; i++) {
      const char = text[i];
      if (char === '\n' || char === '\r') return i;
      if (char === first) return i + 1;
      if (char === '\\' && text[i + 1] !== '\n' && text[i + 1] !== '\r') i++;
    }
    return text.length;
  }
  let end = start + 1;
  while (end < text.length && !' \t\n\r{}[],:"\''.includes(text[end])) end++;
  return end;
}

/** Indentation of spaces only, of tabs only, of both (none: `IndentKind.None`). */
const enum IndentKind {
  None = 0,
  Spaces = 1,
  Tabs = 2,
  Mixed = 3,
}

/** The lines of a text and how deep each is indented (its leading spaces and tabs), found as asked. */
class LineIndents {
  private readonly starts: number[] = [0];
  private readonly indents: Int32Array;
  private readonly kinds: Int8Array;

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === Char.LineFeed || (code === Char.CarriageReturn && text.charCodeAt(i + 1) !== Char.LineFeed)) this.starts.push(i + 1);
    }
    this.indents = new Int32Array(this.starts.length).fill(-1);
    this.kinds = new Int8Array(this.starts.length);
  }

  /** The line `at` is on. */
  private line(at: number): number {
    const { starts } = this;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  private indentOf(line: number): number {
    let indent = this.indents[line];
    if (indent < 0) {
      const start = this.starts[line];
      indent = skipSpaces(this.text, start) - start;
      this.indents[line] = indent;
      let kind: number = IndentKind.None;
      for (let i = start; i < start + indent; i++) kind |= this.text.charCodeAt(i) === Char.Tab ? IndentKind.Tabs : IndentKind.Spaces;
      this.kinds[line] = kind;
    }
    return indent;
  }

  /**
   * Whether the indentation of the lines `a` and `b` are on can be compared by length: both of
   * spaces, or both of tabs, or one of them none. A line of spaces beside one of tabs (or one of
   * both) is as deep as the editor's tab width makes it, which the text does not say.
   */
  alike(a: number, b: number): boolean {
    const lineA = this.line(a);
    const lineB = this.line(b);
    this.indentOf(lineA);
    this.indentOf(lineB);
    const kindA = this.kinds[lineA];
    const kindB = this.kinds[lineB];
    return kindA === IndentKind.None || kindB === IndentKind.None || (kindA === kindB && kindA !== IndentKind.Mixed);
  }

  /** The indentation of the line `at` is on. */
  lineIndent(at: number): number {
    return this.indentOf(this.line(at));
  }

  /** The indentation before `at` when only spaces and tabs come before it on its line, else -1. */
  indentAt(at: number): number {
    const line = this.line(at);
    const indent = this.indentOf(line);
    return this.starts[line] + indent === at ? indent : -1;
  }
}

function findLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === Char.LineFeed || code === Char.CarriageReturn) return i;
  }
  return text.length;
}

function countHex(text: string): number {
  let count = 0;
  while (count < text.length && /[0-9a-fA-F]/.test(text[count])) count++;
  return count;
}

function isDigit(code: number): boolean {
  return code >= Char.Digit0 && code <= Char.Digit9;
}

/** Where the run of word characters (letters, digits, `_`, `$`) from `from` ends. */
function skipWord(text: string, from: number): number {
  let pos = from;
  while (isWordPart(text.charCodeAt(pos))) pos++;
  return pos;
}

/** A token that is a JSON value by itself: an integer without leading zeros, or a literal. */
function isPlainToken(token: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(token) || token === 'true' || token === 'false' || token === 'null';
}

/**
 * The closing brackets less the opening ones in `codes[from..to)`, outside strings (a quote opens
 * one, `inString` when `from` is in one; its quote or its line's end closes it, a backslash escapes
 * the unit after it): that count, where the count stopped (past `to` when an escape crossed it)
 * and whether in a string there.
 */
function bracketBalanceBetween(codes: Uint16Array, from: number, to: number, inString: boolean): { balance: number; end: number; inString: boolean } {
  let balance = 0;
  let pos = from;
  for (; pos < to; pos++) {
    const code = codes[pos];
    if (inString) {
      if (code === Char.Quote || code === Char.LineFeed || code === Char.CarriageReturn) inString = false;
      else if (code === Char.Backslash) pos++;
    } else if (code === Char.Quote) inString = true;
    else if (code === Char.CloseBrace || code === Char.CloseBracket) balance++;
    else if (code === Char.OpenBrace || code === Char.OpenBracket) balance--;
  }
  return { balance, end: pos, inString };
}

function isHexCode(code: number): boolean {
  return (code >= Char.Digit0 && code <= Char.Digit9) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/**
 * `written` (a string's text without its quotes) as JSON writes it: itself when every backslash in
 * it starts a valid escape (`a\tb`, `C:\\in`); else a path pasted as it is (`C:\orders\new`), whose
 * every backslash is one of the string (its `\n` no line feed), each written doubled, but `\"`,
 * a quote the string's reading took as escaped, and `\\`, a backslash written escaped already. Two passes.
 */
function withPastedBackslashesEscaped(written: string): string {
  if (!hasLoneBackslash(written)) return written;
  let out = '';
  let copied = 0;
  for (let from = written.indexOf('\\'); from >= 0; from = written.indexOf('\\', from)) {
    const next = written.charCodeAt(from + 1);
    if (next === Char.Quote || next === Char.Backslash) {
      from += 2;
      continue;
    }
    out += `${written.slice(copied, from)}\\`;
    copied = from++;
  }
  return out + written.slice(copied);
}

/** Whether a backslash in `written` (a string's text without its quotes) starts no valid escape. */
function hasLoneBackslash(written: string): boolean {
  for (let from = written.indexOf('\\'); from >= 0; from = written.indexOf('\\', from)) {
    const next = written.charCodeAt(from + 1);
    if (VALID_ESCAPE_CODES.has(next)) from += 2;
    else if (next === 0x75 /* u */ && /^[0-9a-fA-F]{4}$/.test(written.slice(from + 2, from + 6))) from += 6;
    else return true;
  }
  return false;
}

/**
 * Whether a value typed without its opening quote may start with `code`, a sign no JSON value
 * starts with (`^a\\d+$",`, `/var/log",`, `€12",`): not whitespace, a control character, a
 * bracket, a comma, a colon or a quote, each of which the other readings word.
 */
function mayStartUnopenedString(code: number): boolean {
  return code > Char.Space && code !== Char.OpenBrace && code !== Char.CloseBrace && code !== Char.OpenBracket && code !== Char.CloseBracket && code !== Char.Comma && code !== Char.Colon && code !== Char.Quote && code !== Char.Apostrophe;
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
