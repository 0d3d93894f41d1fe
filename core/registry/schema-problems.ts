/**
 * Why a payload schema cannot be used, in sentences its author can act on: meta-schema failures
 * worded per keyword, patterns the linear-time engine cannot run, and ajv's compile failures
 * (references it cannot resolve, ambiguous ids) without the private base URI ajv saw.
 */
import type { ErrorObject } from 'ajv';
import { closestWord } from '../model/edit-distance';
import { firstDuplicate } from './linear-keywords';
import { linearRegexProblem } from './linear-regex';
import { decodePointer, encodeSegment, forEachSubschema, SCHEMA_ARRAY_KEYWORDS, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from './schema-walk';
import { digitGroups } from '../model/count-words';
import { MAX_QUOTED_PATH, shortened } from '../model/describe-value';

/** `/properties/amount` → "at /properties/amount"; the root reads as such; a long one by its start, as a path is quoted. */
function where(pointer: string): string {
  return pointer === '' ? 'at the schema root' : `at ${shortened(pointer, MAX_QUOTED_PATH)}`;
}

/** draft-07's type names. */
export const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

/** `https://…/draft-07/schema#` and `http://…/draft-07/schema` name the same meta-schema. */
export function normalizeMetaSchema(uri: string): string {
  return uri.trim().replace(/^https:/, 'http:').replace(/#$/, '');
}

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'boolean' ? 'the boolean' : `a ${typeof value}`} ${String(value)}`;
}


/** What each draft-07 keyword must hold, for meta-schema failures worded by keyword. */
const KEYWORD_SHAPES: Readonly<Record<string, string>> = {
  required: 'an array of distinct field names (strings)',
  enum: 'a non-empty array of allowed values',
  properties: 'an object mapping field names to schemas',
  patternProperties: 'an object mapping regular expressions to schemas',
  definitions: 'an object mapping names to schemas',
  dependencies: 'an object whose values are schemas or arrays of field names',
  items: 'a schema or an array of schemas',
  additionalItems: 'a schema or a boolean',
  additionalProperties: 'a schema or a boolean',
  allOf: 'a non-empty array of schemas',
  anyOf: 'a non-empty array of schemas',
  oneOf: 'a non-empty array of schemas',
  minimum: 'a number',
  maximum: 'a number',
  exclusiveMinimum: 'a number (draft-07; not a boolean as in draft-04)',
  exclusiveMaximum: 'a number (draft-07; not a boolean as in draft-04)',
  multipleOf: 'a number greater than 0',
  minLength: 'a non-negative integer',
  maxLength: 'a non-negative integer',
  minItems: 'a non-negative integer',
  maxItems: 'a non-negative integer',
  minProperties: 'a non-negative integer',
  maxProperties: 'a non-negative integer',
  uniqueItems: 'a boolean',
  pattern: 'a string holding a regular expression',
  format: 'a string such as "email" or "date-time"',
  $ref: 'a string (a JSON reference such as "#/definitions/name")',
  $id: 'a string (a URI)',
};

/** The problems of ajv's meta-schema errors, one group per place (it reports each problem several ways). */
function metaProblems(errors: readonly ErrorObject[]): [pointer: string, group: ErrorObject[]][] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const list = byPath.get(error.instancePath);
    if (list) list.push(error);
    else byPath.set(error.instancePath, [error]);
  }
  const pointers = [...byPath.keys()];
  // `type: ["integer", "strin"]` fails both as a whole and at its element: name the element.
  return [...byPath].filter(([pointer]) => !pointers.some((other) => other.startsWith(`${pointer}/`)));
}

/** Where in the schema the first problem metaSchemaMessage names is: a JSON Pointer to the offending value. */
export function metaSchemaPointer(errors: readonly ErrorObject[]): string {
  return metaProblems(errors)[0]?.[0] ?? '';
}

/** One actionable sentence from ajv's meta-schema errors (it reports each problem several ways). */
export function metaSchemaMessage(errors: readonly ErrorObject[]): string {
  const sentences: string[] = [];
  for (const [pointer, group] of metaProblems(errors)) {
    const sentence = metaSentence(pointer, group);
    if (!sentences.includes(sentence)) sentences.push(sentence);
  }
  const shown = sentences.slice(0, 3);
  const more = sentences.length - shown.length;
  const text = `The payload schema is not valid draft-07: ${shown.join('; ')}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`;
  return /[.?]$/.test(text) ? text : `${text}.`;
}

function metaSentence(pointer: string, group: readonly ErrorObject[]): string {
  const segments = decodePointer(pointer);
  const roles = schemaRoles(segments);
  const k = roles.lastIndexOf('keyword');
  const found = group[0].data;
  if (k >= 0) {
    const keyword = segments[k];
    const owner = where(segments.slice(0, k).length === 0 ? '' : '/' + segments.slice(0, k).map(encodeSegment).join('/'));
    // Deeper than the keyword means one element of its value is wrong (`"required": ["a", 5]`).
    const foundText = `${k === segments.length - 1 ? 'found' : 'it contains'} ${preview(found)}`;
    if (keyword === 'type') {
      const suggestion = typeof found === 'string' ? closestWord(found, TYPE_NAMES) : undefined;
      return `"type" ${owner} must be a JSON type name (${TYPE_NAMES.join(', ')}) or an array of them, ${foundText}${suggestion ? `; did you mean "${suggestion}"?` : ''}`;
    }
    if (keyword in KEYWORD_SHAPES) return `"${keyword}" ${owner} must be ${KEYWORD_SHAPES[keyword]}, ${foundText}`;
  }
  const useful = group.find((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? group[0];
  return `the value ${where(pointer)} ${useful.message ?? 'is invalid'}`;
}

type SchemaRole = 'keyword' | 'name' | 'index' | 'value';

/** Which pointer segments are keywords (`/properties/type/type`: only the last "type" is one). */
function schemaRoles(segments: readonly string[]): SchemaRole[] {
  const roles: SchemaRole[] = [];
  let expect: 'schema' | 'name' | 'items' | 'index' | 'value' = 'schema';
  const afterKeyword = (keyword: string): typeof expect =>
    SCHEMA_MAP_KEYWORDS.includes(keyword) ? 'name' : keyword === 'items' ? 'items' : SCHEMA_ARRAY_KEYWORDS.includes(keyword) ? 'index' : SCHEMA_KEYWORDS.includes(keyword) ? 'schema' : 'value';
  for (const segment of segments) {
    if (expect === 'name') {
      roles.push('name');
      expect = 'schema';
    } else if (expect === 'index' || (expect === 'items' && /^\d+$/.test(segment))) {
      roles.push('index');
      expect = 'schema';
    } else if (expect === 'value') {
      roles.push('value');
    } else {
      roles.push('keyword');
      expect = afterKeyword(segment);
    }
  }
  return roles;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}


/**
 * The most characters the `pattern`s and `patternProperties` keys of one schema may hold together.
 * The linear-time engine compiles by the character: one `pattern` of 1 MB (`[ab]*` repeated) took
 * a lint 24 s and 830 MB, and held the server's event loop as long. Real patterns hold tens to a
 * few hundred characters (a full RFC 5322 address pattern, a few thousand).
 */
export const MAX_PATTERN_CHARACTERS = 16 * 1024;

/**
 * ajv compiles `pattern` with the `u` flag, where some escapes that plain JS accepts (`\-` outside
 * a class) are errors; the meta-schema does not check regexes at all, so we test each one here
 * and say which.
 */
export function findInvalidPattern(schema: Record<string, unknown>): { readonly message: string; readonly pointer: string } | undefined {
  let problem: { message: string; pointer: string } | undefined;
  let patternCharacters = 0;
  forEachSubschema(schema, (sub, pointer) => {
    if (problem) return;
    const candidates: [string, string, string][] = [];
    if (typeof sub.pattern === 'string') candidates.push([sub.pattern, `"pattern" ${where(pointer)}`, `${pointer}/pattern`]);
    const patternProperties = sub.patternProperties;
    if (typeof patternProperties === 'object' && patternProperties !== null) {
      for (const key of Object.keys(patternProperties)) candidates.push([key, `the "patternProperties" key ${where(pointer)}`, `${pointer}/patternProperties/${encodeSegment(key)}`]);
    }
    for (const [source, label, at] of candidates) {
      // Counted before anything is compiled: the count is what bounds the compiling.
      patternCharacters += source.length;
      if (patternCharacters > MAX_PATTERN_CHARACTERS) {
        problem = { message: `${label} brings the schema's patterns to more than ${digitGroups(MAX_PATTERN_CHARACTERS)} characters together (${digitGroups(source.length)} in this one: ${preview(source)}); compiling that much for the linear-time engine would stall validation. Shorten the patterns.`, pointer: at };
        return;
      }
      try {
        new RegExp(source, 'u');
      } catch (error) {
        const reason = error instanceof Error ? error.message.replace(/^.*: /, '') : 'invalid';
        problem = { message: `${label} is not a valid regular expression: ${shortened(source)} (${reason}; patterns are compiled in Unicode mode, so escape only characters that need it).`, pointer: at };
        return;
      }
      const unsupported = linearRegexProblem(source);
      if (unsupported) {
        problem = { message: `${label} cannot run on the linear-time regex engine used for schema patterns: ${shortened(source)} (${unsupported}). Patterns are matched in linear time so that no pattern can freeze validation; rewrite it without lookaheads or backreferences.`, pointer: at };
        return;
      }
    }
  });
  return problem;
}

/** The base URI given to a schema without a root `$id` (never fetched; `.invalid` cannot resolve). */
const PRIVATE_ORIGIN = 'https://babelqueue.invalid/';
export const PRIVATE_BASE = `${PRIVATE_ORIGIN}payload-schema.json`;

/** A reference as the schema's author wrote it, without the private base ajv resolved it against. */
function withoutPrivateBase(ref: string): string {
  if (ref.startsWith(PRIVATE_BASE)) return ref.slice(PRIVATE_BASE.length) || '#';
  return ref.startsWith(PRIVATE_ORIGIN) ? ref.slice(PRIVATE_ORIGIN.length) : ref;
}

/** A `$ref` ajv could not resolve: as the author wrote it, where it is, and what ajv resolved it to. */
interface UnresolvedRef {
  readonly written: string;
  /** The JSON pointer of the subschema holding it, when found. */
  readonly pointer?: string;
  /** The reference resolved against the schema's `$id`, or undefined against the private base. */
  readonly resolved?: string;
}

/**
 * The `$ref` behind ajv's MissingRefError. The error's `missingRef` is the reference resolved
 * against the schema's base, and against the private base a `../../outside/s.json` reads
 * `outside/s.json`, which the author never wrote; its message (ajv 8: "can't resolve reference
 * <$ref as written> from id <base>") names the reference as written, so the subschema whose `$ref`
 * it names is looked for first, and the resolved form matched only when the message says nothing.
 */
function unresolvedRef(error: unknown, schema: Record<string, unknown>): UnresolvedRef | undefined {
  const rawMissingRef = typeof error === 'object' && error !== null ? (error as { missingRef?: unknown }).missingRef : undefined;
  if (typeof rawMissingRef !== 'string') return undefined;
  const message = error instanceof Error ? error.message : '';
  const missingRef = withoutPrivateBase(rawMissingRef);
  let asWritten: { written: string; pointer: string } | undefined;
  let asResolved: { written: string; pointer: string } | undefined;
  forEachSubschema(schema, (sub, pointer) => {
    const ref = sub.$ref;
    if (typeof ref !== 'string') return;
    if (!asWritten && message.startsWith(`can't resolve reference ${ref} from id `)) asWritten = { written: ref, pointer };
    if (!asResolved && (ref === missingRef || missingRef.endsWith(ref))) asResolved = { written: ref, pointer };
  });
  const found = asWritten ?? asResolved;
  const written = found?.written ?? missingRef;
  // A fragment of this same file needs no resolution shown; another file's URI, resolved against
  // the schema's own $id, is one its author can recognise (against the private base it is not).
  const fromOwnId = !written.startsWith('#') && !rawMissingRef.startsWith(PRIVATE_ORIGIN) && rawMissingRef !== written;
  return {
    written,
    ...(found ? { pointer: found.pointer } : {}),
    ...(fromOwnId ? { resolved: rawMissingRef } : {}),
  };
}

/** Where in the schema a compile failure is, when ajv names a reference it cannot resolve: the `$ref` that names it. */
export function compileFailurePointer(error: unknown, schema: Record<string, unknown>): string | undefined {
  const ref = unresolvedRef(error, schema);
  return ref?.pointer === undefined ? undefined : `${ref.pointer}/$ref`;
}

/**
 * True for the RangeError a JavaScript engine throws when the call stack runs out ("Maximum call
 * stack size exceeded"): a recursion as deep as the schema or the data nests. Other RangeErrors
 * ("Invalid array length", "Invalid string length") say nothing about nesting.
 */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

export function compileFailureMessage(error: unknown, schema: Record<string, unknown>): string {
  if (isStackOverflow(error)) return 'The payload schema is nested too deeply to compile, or its "$ref"s form a cycle that never reaches a keyword (a → b → a).';
  const ref = unresolvedRef(error, schema);
  if (ref) {
    const location = ref.pointer === undefined ? '' : ` ${where(ref.pointer)}`;
    const resolution = ref.resolved === undefined ? '' : ` (it resolves to ${JSON.stringify(ref.resolved)} against the schema's "$id")`;
    const hint = ref.written.startsWith('#')
      ? `this schema has nothing at ${ref.written.slice(1) || 'its root'}; define it (e.g. under "definitions") or fix the reference`
      : 'only references inside the same schema file ("#/definitions/name") are supported; other files are not loaded';
    return `"$ref" ${JSON.stringify(ref.written)}${location}${resolution} cannot be resolved: ${hint}.`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const ambiguous = /^reference "(.*)" resolves to more than one schema$/.exec(message);
  if (ambiguous) {
    return `"$id" ${JSON.stringify(ambiguous[1])} names two different subschemas (or one ajv already knows, such as the draft-07 meta-schema); give each a distinct "$id" or remove it.`;
  }
  return `ajv cannot compile the payload schema: ${message}`;
}

/** Arrays the draft-07 meta-schema requires to hold distinct items: longer ones are checked here. */
const DISTINCT_ARRAYS = ['enum', 'required', 'type'];
/** Up to this many items the generated meta-schema validator compares pairs itself, in milliseconds. */
export const DISTINCT_CHECK_LIMIT = 256;

/**
 * The long `enum`, `required` and `type` arrays of a schema (their owner, keyword and items), and
 * why one of them is not valid draft-07: the meta-schema wants their items distinct, and the
 * validator generated from it compares every pair (an `enum` of 100,000 values took a minute).
 * Here each item is compared once; the meta-schema then sees them cut short (see compileCopy).
 */
export function longDistinctArrays(schema: Record<string, unknown>): { readonly arrays: readonly { owner: Record<string, unknown>; keyword: string; items: unknown[] }[]; readonly error?: string } {
  const arrays: { owner: Record<string, unknown>; keyword: string; items: unknown[] }[] = [];
  let error: string | undefined;
  forEachSubschema(schema, (sub, pointer) => {
    for (const keyword of DISTINCT_ARRAYS) {
      const items = sub[keyword];
      if (error || !Array.isArray(items) || items.length <= DISTINCT_CHECK_LIMIT) continue;
      if (keyword === 'required' && items.some((item) => typeof item !== 'string')) {
        error = `The payload schema is not valid draft-07: "required" ${where(pointer)} must be an array of distinct field names (strings), and it holds ${preview(items.find((item) => typeof item !== 'string'))}.`;
        continue;
      }
      const pair = firstDuplicate(items);
      if (pair) {
        error = `The payload schema is not valid draft-07: "${keyword}" ${where(pointer)} holds ${preview(items[pair.i])} twice (items ${pair.j} and ${pair.i}); its values must be distinct.`;
        continue;
      }
      arrays.push({ owner: sub, keyword, items });
    }
  });
  return error ? { arrays, error } : { arrays };
}
