/**
 * Quick fixes as properties, over every envelope fixture in the repository and seeded mutations of
 * them (wrong types, removed, repeated and misspelt keys, broken URNs, huge numbers, CRLF, tabs,
 * comments, trailing commas, a BOM, non-ASCII text, deep nesting, contract mistakes). For every
 * quick fix offered on every finding, and for fix all:
 * - the edits lie inside the text, do not overlap, and leave no syntax error in a text that had none;
 * - the finding the fix was offered for is gone, and no error or warning appears that was not there;
 * - nothing the user wrote is dropped that the title does not name (keys, values, comments: only
 *   "Remove the comment" drops one, the one its finding is on);
 * - inserted line breaks are the file's own, inserted indentation uses the file's tabs or spaces;
 * - offered again after it applied, the same fix adds nothing a second time.
 * Deterministic (a seeded generator, a stable Fresh) and fast enough for every run of the suite.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { codeActions, type CoreCodeAction } from '../../../core/language/code-actions';
import { fixAll } from '../../../core/language/fix-all';
import { applyEdits, type TextEdit } from '../../../core/model/edits';
import { pointerAt } from '../../../core/model/json-pointer';
import { toJsValue } from '../../../core/model/js-value';
import type { ObjectNode, ParsedDocument, PropertyNode, ValueNode } from '../../../core/model/tree';
import { parseText } from '../../../core/parse/parser';
import type { RegistryState } from '../../../core/registry/types';
import { analyze } from '../../../core/rules/analyze';
import type { CoreDiagnostic } from '../../../core/rules/diagnostic';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { loadRegistry } from '../../../workspace/registry-loader';
import { random as seededRandom } from '../../../bench/generate';
import { stableFresh } from '../../support/fresh';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const FIXTURE_ROOTS = ['examples', 'test/fixtures'];
// The suite's run: one mutant of each fixture (about two seconds). A deeper search, as the fixes
// were tried with: PROPERTY_SEED=<n> PROPERTY_MUTANTS=12 node --import tsx <this file>.
const SEED = Number(process.env.PROPERTY_SEED ?? 0x5eed_b0b);
const MUTANTS_PER_FIXTURE = Number(process.env.PROPERTY_MUTANTS ?? 1);

interface Input {
  readonly name: string;
  readonly text: string;
  readonly registry: RegistryState;
}

// ---------------------------------------------------------------- inputs

/** Every `*.babel.json` under the fixture roots, with the registry.json of its folder or the nearest above it (as the editor finds it). */
function fixtureInputs(): Input[] {
  const registries = new Map<string, RegistryState>();
  const registryFor = (folder: string): RegistryState => {
    for (let dir = folder; dir.startsWith(REPO_ROOT) && dir !== REPO_ROOT; dir = dirname(dir)) {
      const path = join(dir, 'registry.json');
      if (!existsSync(path)) continue;
      if (!registries.has(path)) registries.set(path, loadRegistry(path, dir).state);
      return registries.get(path)!;
    }
    return { kind: 'none' };
  };
  const inputs: Input[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.babel.json')) inputs.push({ name: relative(REPO_ROOT, path), text: readFileSync(path).toString('utf8'), registry: registryFor(dir) });
    }
  };
  for (const root of FIXTURE_ROOTS) walk(join(REPO_ROOT, root));
  return inputs;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

function allValues(doc: ParsedDocument): ValueNode[] {
  const values: ValueNode[] = [];
  const stack: ValueNode[] = doc.root ? [doc.root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    values.push(node);
    if (node.kind === 'object') for (const property of node.properties) if (property.value) stack.push(property.value);
    if (node.kind === 'array') stack.push(...node.items);
  }
  return values.reverse();
}

const allProperties = (doc: ParsedDocument): PropertyNode[] => allValues(doc).flatMap((node) => (node.kind === 'object' ? node.properties : []));
const objects = (doc: ParsedDocument): ObjectNode[] => allValues(doc).filter((node): node is ObjectNode => node.kind === 'object');

/** The object at a path of keys, when there is one. */
function objectAt(doc: ParsedDocument, ...keys: string[]): ObjectNode | undefined {
  let node: ValueNode | undefined = doc.root;
  for (const key of keys) node = node?.kind === 'object' ? node.properties.find((property) => property.key === key)?.value : undefined;
  return node?.kind === 'object' ? node : undefined;
}

/** Inserts `"key": json` as the first property of an object (inline, after its brace). */
function insertFirst(object: ObjectNode, key: string, json: string): TextEdit {
  return { offset: object.offset + 1, end: object.offset + 1, newText: `${JSON.stringify(key)}: ${json}${object.properties.length > 0 ? ', ' : ''}` };
}

/** Removes a property with the comma between it and a neighbour (written here, not with the code under test). */
function remove(property: PropertyNode): TextEdit {
  const siblings = property.parent.properties;
  const index = siblings.indexOf(property);
  const end = property.value?.end ?? property.keyEnd;
  if (index < siblings.length - 1) return { offset: property.keyOffset, end: siblings[index + 1].keyOffset, newText: '' };
  if (index > 0) return { offset: siblings[index - 1].value?.end ?? siblings[index - 1].keyEnd, end, newText: '' };
  return { offset: property.keyOffset, end, newText: '' };
}

const WRONG_VALUES = ['"x"', '0', '-1', 'true', 'null', '[]', '{}', '"0"', '1.0', '"true"', '""', '"  "', '1e3'];
const HUGE_NUMBERS = ['123456789012345678901234567890', '1e400', '-9007199254740993', '9007199254740993', '1749132727000000', '1.7e308'];

/** One mutation of a parsed text: the edits to make, or undefined when it does not apply. */
type Mutation = (doc: ParsedDocument, random: Random) => TextEdit[] | string | undefined;

const MUTATIONS: Record<string, Mutation> = {
  'wrong type': (doc, random) => {
    const values = allValues(doc).filter((node) => node !== doc.root);
    if (values.length === 0) return undefined;
    const node = pick(random, values);
    return [{ offset: node.offset, end: node.end, newText: pick(random, WRONG_VALUES) }];
  },
  'key removed': (doc, random) => {
    const properties = allProperties(doc);
    return properties.length === 0 ? undefined : [remove(pick(random, properties))];
  },
  'key repeated': (doc, random) => {
    const properties = allProperties(doc).filter((property) => property.value);
    if (properties.length === 0) return undefined;
    const property = pick(random, properties);
    const copy = random() < 0.5 ? doc.text.slice(property.value!.offset, property.value!.end) : pick(random, WRONG_VALUES);
    return [{ offset: property.keyOffset, end: property.keyOffset, newText: `${JSON.stringify(property.key)}: ${copy}, ` }];
  },
  'key misspelt': (doc, random) => {
    const properties = allProperties(doc).filter((property) => property.key.length > 1);
    if (properties.length === 0) return undefined;
    const property = pick(random, properties);
    const key = property.key;
    const spelt = pick(random, [key.toUpperCase(), key[0].toUpperCase() + key.slice(1), key.slice(0, -1), `${key}_`, key.replace(/_/g, '-'), key.replace(/_(.)/g, (_, c: string) => c.toUpperCase())]);
    return spelt === key ? undefined : [{ offset: property.keyOffset, end: property.keyEnd, newText: JSON.stringify(spelt) }];
  },
  'URN broken': (doc, random) => {
    const urns = allValues(doc).filter((node) => node.kind === 'string' && node.value.startsWith('urn:'));
    if (urns.length === 0) return undefined;
    const node = pick(random, urns) as ValueNode & { value: string };
    const broken = pick(random, [` ${node.value.toUpperCase()} `, node.value.replace(/:/g, '.'), node.value.slice(0, 9), `${node.value}:`, node.value.replace('urn:babel:', 'urn:babel::'), `URN:${node.value.slice(4)}`, `${node.value.slice(0, -1)}é`]);
    return [{ offset: node.offset, end: node.end, newText: JSON.stringify(broken) }];
  },
  'number made huge': (doc, random) => {
    const numbers = allValues(doc).filter((node) => node.kind === 'number');
    if (numbers.length === 0) return undefined;
    const node = pick(random, numbers);
    return [{ offset: node.offset, end: node.end, newText: pick(random, HUGE_NUMBERS) }];
  },
  CRLF: (doc) => (doc.text.includes('\r') ? undefined : doc.text.replace(/\n/g, '\r\n')),
  'lone CR': (doc) => (doc.text.includes('\r') ? undefined : doc.text.replace(/\n/g, '\r')),
  tabs: (doc) => (/\n {2}/.test(doc.text) ? doc.text.replace(/^( {2})+/gm, (spaces) => '\t'.repeat(spaces.length / 2)) : undefined),
  'four spaces': (doc) => (/\n {2}"/.test(doc.text) ? doc.text.replace(/^( {2})+/gm, (spaces) => spaces + spaces) : undefined),
  comment: (doc, random) => {
    const properties = allProperties(doc);
    if (properties.length === 0) return undefined;
    const property = pick(random, properties);
    return [{ offset: property.keyOffset, end: property.keyOffset, newText: random() < 0.5 ? '/* keep-this-comment */ ' : `// keep-this-comment${doc.text.includes('\r\n') ? '\r\n' : '\n'}` }];
  },
  'trailing comma': (doc, random) => {
    const nonEmpty = objects(doc).filter((object) => object.properties.length > 0);
    if (nonEmpty.length === 0) return undefined;
    const last = pick(random, nonEmpty).properties.at(-1)!;
    const end = last.value?.end ?? last.keyEnd;
    return [{ offset: end, end, newText: ',' }];
  },
  BOM: (doc) => (doc.text.startsWith('\ufeff') ? undefined : `\ufeff${doc.text}`),
  'non-ASCII': (doc, random) => {
    const target = objectAt(doc, 'data') ?? (doc.root?.kind === 'object' ? doc.root : undefined);
    if (!target) return undefined;
    return [insertFirst(target, pick(random, ['naïve_ключ', 'café', '名前', 'emoji_😀']), pick(random, ['"café ☕ 𝄞"', '"Ünïcödé"', '"\\u00e9\\ud83d\\ude00"', '"名前"']))];
  },
  'deep nesting': (doc, random) => {
    const data = doc.root?.kind === 'object' ? doc.root.properties.find((property) => property.key === 'data')?.value : undefined;
    if (!data) return undefined;
    const depth = 20 + Math.floor(random() * 60);
    return [{ offset: data.offset, end: data.end, newText: `${'{"a": '.repeat(depth)}{"amount": 9.99, "is_paid": 1}${'}'.repeat(depth)}` }];
  },
  'contract mistake': (doc, random) => {
    const root = doc.root?.kind === 'object' ? doc.root : undefined;
    if (!root) return undefined;
    const meta = objectAt(doc, 'meta');
    const data = objectAt(doc, 'data');
    const job = root.properties.find((property) => property.key === 'job');
    const traceId = root.properties.find((property) => property.key === 'trace_id')?.value;
    const createdAt = meta?.properties.find((property) => property.key === 'created_at');
    const choices: (() => TextEdit[] | undefined)[] = [
      () => [insertFirst(root, 'timestamp', pick(random, ['1749132727', '"2025-06-05T14:12:07Z"', '"yesterday"', '1749132727123456']))],
      () => (meta ? [insertFirst(meta, pick(random, ['ts', 'source', 'Queue', 'extra']), '"x"')] : undefined),
      () => (job ? [{ offset: job.keyOffset, end: job.keyEnd, newText: '"urn"' }] : undefined),
      () => (job ? [insertFirst(root, 'urn', '"urn:babel:orders:other"')] : undefined),
      () => (createdAt?.value ? [{ offset: createdAt.value.offset, end: createdAt.value.end, newText: pick(random, ['1749132727', '1749132727000123', '"1749132727"']) }] : undefined),
      () => (data ? [insertFirst(data, pick(random, ['amount', 'total_price', 'unitPrice']), pick(random, ['9.99', '10.0', '1e3', '-0.0', '0.125']))] : undefined),
      () => (data ? [insertFirst(data, pick(random, ['is_paid', 'enabled']), pick(random, ['1', '0', '"true"', '"false"']))] : undefined),
      () => (meta ? [insertFirst(meta, 'lang', pick(random, ['"PHP"', '"Node"', '"cobol"']))] : undefined),
      () => [insertFirst(root, '__bq_frame', '1')],
      () => (meta && traceId ? [insertFirst(meta, 'id', doc.text.slice(traceId.offset, traceId.end))] : undefined),
      () => {
        const property = root.properties.find((candidate) => candidate.key === 'meta');
        return property ? [remove(property)] : undefined;
      },
      () => (data ? [{ offset: data.offset, end: data.end, newText: '[]' }] : undefined),
      () => (root ? [insertFirst(root, 'dead_letter', '{ "reason": "failed" }')] : undefined),
    ];
    return pick(random, choices)();
  },
};

function mutate(text: string, random: Random, rounds: number): { text: string; applied: string[] } {
  const applied: string[] = [];
  const names = Object.keys(MUTATIONS);
  for (let round = 0; round < rounds; round++) {
    const name = pick(random, names);
    const doc = parseText(text);
    const result = MUTATIONS[name](doc, random);
    if (result === undefined) continue;
    text = typeof result === 'string' ? result : applyEdits(text, result);
    applied.push(name);
  }
  return { text, applied };
}

// ---------------------------------------------------------------- checks

/** A finding's identity across an edit: its code, the place it is about (`renamed`: through the keys the edit renamed) and its subject. */
function identity(doc: ParsedDocument, finding: { code: string; offset: number; subject?: string }, renamed: Renames = new Map()): string {
  return `${finding.code} ${throughRenames(pointerAt(doc, finding.offset), renamed)}${finding.subject ? ` ${finding.subject}` : ''}`;
}

/** Object members a fix renamed or moved, old pointer to new. */
type Renames = Map<string, string>;

/**
 * The keys an edit renamed: in an object at the same place before and after, one key gone and one
 * new (`Attempts` to `attempts`, `amount` to `amount_cents`, `urn` to `job`), or a key gone whose
 * value now stands under a key that changed (`urn`'s URN written into `job`), or a key gone beside
 * a new one spelt with the same letters in another case. A finding on the
 * old key is the same finding on the new one, not a new one.
 */
function renamesBetween(before: unknown, after: unknown, pointer = '', into: Renames = new Map()): Renames {
  if (!isPlainObject(before) || !isPlainObject(after)) return into;
  const gone = Object.keys(before).filter((key) => !(key in after));
  const added = Object.keys(after).filter((key) => !(key in before));
  const changed = Object.keys(after).filter((key) => !added.includes(key) && JSON.stringify(after[key]) !== JSON.stringify(before[key]));
  const token = (key: string) => `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const unpaired = new Set(added);
  for (const key of gone) {
    // By the value moved (`urn`'s URN into `job`), else by the key's letters in another case (fix
    // all may rename `DATA` to `data` and fix a boolean inside), else the one key left on each side.
    const byValue = [...added, ...changed].filter((candidate) => JSON.stringify(after[candidate]) === JSON.stringify(before[key]));
    const byLetters = added.filter((candidate) => candidate.toLowerCase() === key.toLowerCase());
    const target = byValue.length === 1 ? byValue[0] : byLetters.length === 1 ? byLetters[0] : gone.length === 1 && unpaired.size === 1 ? [...unpaired][0] : undefined;
    if (target === undefined) continue;
    into.set(token(key), token(target));
    unpaired.delete(target);
  }
  for (const key of Object.keys(before)) if (key in after) renamesBetween(before[key], after[key], token(key), into);
  return into;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function throughRenames(pointer: string, renamed: Renames): string {
  for (const [from, to] of renamed) if (pointer === from || pointer.startsWith(`${from}/`)) return to + pointer.slice(from.length);
  return pointer;
}

/** Every finding, the shown ones and those folded into them, by identity (with how often each occurs). */
function findingCounts(doc: ParsedDocument, diagnostics: readonly CoreDiagnostic[], severe: boolean, renamed: Renames = new Map()): Map<string, number> {
  const counts = new Map<string, number>();
  for (const diagnostic of diagnostics) {
    for (const finding of [diagnostic, ...(diagnostic.related ?? [])]) {
      if (severe && finding.severity !== 'error' && finding.severity !== 'warning') continue;
      const key = identity(doc, { ...finding, subject: finding === diagnostic ? diagnostic.subject : undefined }, renamed);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** Leaf values and containers by JSON Pointer, as a decoder reads the document. */
function flatten(value: unknown, pointer = '', into = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    into.set(pointer, '[]');
    value.forEach((item, index) => flatten(item, `${pointer}/${index}`, into));
  } else if (value !== null && typeof value === 'object') {
    into.set(pointer, '{}');
    for (const [key, item] of Object.entries(value)) flatten(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, into);
  } else into.set(pointer, JSON.stringify(value));
  return into;
}

/** The comments a text holds (to see that a fix keeps them). */
const commentsOf = (text: string): string[] => text.match(/\/\*[^]*?\*\/|\/\/[^\r\n]*/g) ?? [];

const eolOf = (text: string): string => (/\r\n/.test(text) ? '\r\n' : text.includes('\r') ? '\r' : '\n');
const indentUsesTabs = (text: string): boolean | undefined => {
  const match = /[\r\n]([ \t]+)\S/.exec(text);
  return match ? match[1].startsWith('\t') : undefined;
};

interface Tally {
  inputs: number;
  findings: number;
  actions: number;
  repeated: number;
  fixAll: number;
}

/** The quick fixes of one shown finding, each with the finding (shown or folded in) that offers it. */
function actionsWithOrigin(doc: ParsedDocument, diagnostic: CoreDiagnostic, registry: RegistryState): { action: CoreCodeAction; origin: { code: string; offset: number; subject?: string } }[] {
  const all = codeActions(doc, [diagnostic], stableFresh(), registry);
  const own = codeActions(doc, [{ ...diagnostic, related: [] }], stableFresh(), registry);
  const result = all.slice(0, own.length).map((action) => ({ action, origin: diagnostic as { code: string; offset: number; subject?: string } }));
  let index = own.length;
  for (const related of diagnostic.related ?? []) {
    const count = codeActions(doc, [{ ...related }], stableFresh(), registry).length;
    for (const action of all.slice(index, index + count)) result.push({ action, origin: related });
    index += count;
  }
  return result;
}

function checkAction(input: Input, doc: ParsedDocument, diagnostics: readonly CoreDiagnostic[], action: CoreCodeAction, origin: { code: string; offset: number; subject?: string }, problems: string[], tally: Tally): void {
  const { text, registry } = input;
  const where = `${input.name}: "${action.title}" (${origin.code} at ${pointerAt(doc, origin.offset)})`;
  const fail = (what: string, detail = ''): void => {
    problems.push(`${where}: ${what}${detail ? `\n    ${detail}` : ''}`);
  };

  // The edits lie inside the text and do not overlap (insertions at one offset may stand together).
  const sorted = [...action.edits].sort((a, b) => a.offset - b.offset || a.end - b.end);
  for (const [index, edit] of sorted.entries()) {
    if (edit.offset < 0 || edit.end < edit.offset || edit.end > text.length) return fail(`edit [${edit.offset}, ${edit.end}) lies outside the text (${text.length})`);
    const next = sorted[index + 1];
    if (next && next.offset < edit.end) return fail(`edits [${edit.offset}, ${edit.end}) and [${next.offset}, ${next.end}) overlap`);
  }
  const fixed = applyEdits(text, action.edits);
  tally.actions++;
  const after = parseText(fixed);
  if (doc.syntaxProblems.length === 0 && after.syntaxProblems.length > 0) return fail('the result has a syntax error', `${after.syntaxProblems[0].message}\n${fixed}`);

  // Line breaks and indentation that a fix writes are the file's own.
  const eol = eolOf(text);
  const tabs = indentUsesTabs(text);
  for (const edit of action.edits) {
    const breaks = edit.newText.match(/\r\n|\r|\n/g) ?? [];
    if (/[\r\n]/.test(text) && breaks.some((written) => written !== eol)) fail(`inserts ${JSON.stringify(breaks[0])} into a file whose line breaks are ${JSON.stringify(eol)}`);
    for (const indent of edit.newText.split(/\r\n|\r|\n/).slice(1).map((line) => /^[ \t]*/.exec(line)![0])) {
      if (tabs === true && indent.includes(' ')) fail('indents with spaces in a file indented with tabs', JSON.stringify(edit.newText));
      if (tabs === false && indent.includes('\t')) fail('indents with tabs in a file indented with spaces', JSON.stringify(edit.newText));
    }
  }

  // Comments the user wrote stay, but for the one a fix titled so removes (json-syntax's, on that comment).
  const commentsAfter = commentsOf(fixed);
  const removed = action.title === 'Remove the comment' && action.edits.length === 1 ? text.slice(action.edits[0].offset, action.edits[0].end) : undefined;
  for (const comment of commentsOf(text)) if (!commentsAfter.includes(comment) && comment !== removed) fail(`drops the comment ${JSON.stringify(comment)}`);
  if (text.startsWith('\ufeff') && !fixed.startsWith('\ufeff')) fail('drops the byte-order mark');

  if (after.syntaxProblems.length > 0 || doc.syntaxProblems.length > 0 || !doc.root || !after.root) return;
  const diagnosticsAfter = analyze(after, DEFAULT_SETTINGS, registry);

  // A rename of one copy of a key written twice pairs no key gone with the one added: the title names it.
  const titled = /^Rename "(.+)" to "(.+)"$|"(.+)" renamed to "(.+)"/.exec(action.title);
  const at = pointerAt(doc, origin.offset);
  const titledRename = titled ? `${at.slice(0, at.lastIndexOf('/'))}/${titled[2] ?? titled[4]}` : undefined;
  const change = changeOf(action.title, doc, after, diagnostics, titledRename);
  const { before: valuesBefore, after: valuesAfter, renamed } = change;

  // The finding is gone.
  const target = identity(doc, origin, renamed);
  const before = findingCounts(doc, diagnostics, false, renamed);
  const afterCounts = findingCounts(after, diagnosticsAfter, false);
  // Of a key written twice, a fix acts on the copy its finding is on; the other copy may draw the same finding (duplicate-key is about both).
  const targetRepeated = [...change.repeated].some((twice) => pointerAt(doc, origin.offset) === twice || pointerAt(doc, origin.offset).startsWith(`${twice}/`));
  if (!targetRepeated && (afterCounts.get(target) ?? 0) >= (before.get(target) ?? 0)) fail(`leaves the finding it fixes (${target})`, fixed);

  // No error or warning that was not there.
  const severeBefore = findingCounts(doc, diagnostics, true, renamed);
  for (const [key, count] of findingCounts(after, diagnosticsAfter, true)) {
    if (count > (severeBefore.get(key) ?? 0) && !legitimateNewFinding(key, change)) fail(`brings a new finding: ${key}`, diagnosticsAfter.filter((d) => identity(after, d) === key).map((d) => d.message).join(' | '));
  }
  for (const twins of newCaseTwins(valuesBefore, valuesAfter)) fail(`writes a key beside one that differs from it only in case (${twins}): Go reads both as one field`, fixed);

  // Nothing the user wrote is dropped or changed that the title does not name: a value changes only
  // at the finding's own place (the value it is about, or inside the object whose key it is on), or
  // where the title names the key (`Remove forbidden key "meta.ts"`, `Rename "Attempts" to …`).
  const targetPointer = pointerAt(doc, origin.offset);
  for (const [pointer, value] of valuesBefore) {
    const now = valuesAfter.get(pointer);
    if (now === value) continue;
    if (pointer === targetPointer || pointer.startsWith(`${targetPointer}/`)) continue;
    const key = pointer.slice(pointer.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
    if (action.title.includes(key)) continue;
    fail(`${now === undefined ? 'drops' : 'changes'} ${pointer} (${value}${now === undefined ? '' : ` → ${now}`}), which the title does not name`);
  }

  // Offered again on the fixed text, the same fix adds nothing a second time.
  // A title is its code's own: only the findings of that code (shown, or folded into another) can offer it again.
  const sameCode = diagnosticsAfter.filter((diagnostic) => diagnostic.code === origin.code || diagnostic.related?.some((related) => related.code === origin.code));
  const again = codeActions(after, sameCode, stableFresh(), registry).filter((candidate) => candidate.title === action.title);
  for (const repeat of again) {
    tally.repeated++;
    const twice = applyEdits(fixed, repeat.edits);
    const doubled = repeatedKeys(parseText(twice)) - repeatedKeys(after);
    if (doubled > 0) fail('applied twice, adds a key a second time', twice);
  }
}

/**
 * Keys of one object that differ only in case (`"lang"` beside `"Lang"`) after a fix and not before
 * it, as `<object pointer> <key in lower case>`. Go's decoder reads them as one field: a fix that
 * writes a field beside its case variant leaves two keys for it where the variant's rename was due.
 */
function newCaseTwins(before: Map<string, string>, after: Map<string, string>): string[] {
  const twins = (flat: Map<string, string>): Set<string> => {
    const keys = new Map<string, Set<string>>();
    for (const pointer of flat.keys()) {
      const at = pointer.lastIndexOf('/');
      if (at < 0) continue;
      // The object's pointer folded too: a fix that renames the object (`Meta` to `meta`) keeps the twins it holds.
      const folded = `${(pointer.slice(0, at) || '/').toLowerCase()} ${pointer.slice(at + 1).toLowerCase()}`;
      keys.set(folded, (keys.get(folded) ?? new Set()).add(pointer.slice(at + 1)));
    }
    return new Set([...keys].filter(([, spellings]) => spellings.size > 1).map(([folded]) => folded));
  };
  const already = twins(before);
  return [...twins(after)].filter((folded) => !already.has(folded));
}

/** The pointers of keys written more than once in one object. */
function repeatedKeyPointers(doc: ParsedDocument): Set<string> {
  const pointers = new Set<string>();
  for (const object of objects(doc)) {
    const seen = new Set<string>();
    for (const property of object.properties) {
      if (seen.has(property.key)) pointers.add(pointerAt(doc, property.keyOffset));
      seen.add(property.key);
    }
  }
  return pointers;
}

/** Keys written more than once in one object, over the document. */
function repeatedKeys(doc: ParsedDocument): number {
  let count = 0;
  for (const object of objects(doc)) count += object.properties.length - new Set(object.properties.map((property) => property.key)).size;
  return count;
}

/** The pointers whose value a fix wrote: added, or changed (a member renamed onto a key counts as written there). */
function changedPointers(before: Map<string, string>, after: Map<string, string>): Set<string> {
  return new Set([...after].filter(([pointer, value]) => before.get(pointer) !== value).map(([pointer]) => pointer));
}

/** Checks that judge the payload and the registry entry by the URN in `job`: a fix that writes another URN has them judge anew. */
const URN_DEPENDENT = new Set(['payload-schema', 'validator-divergence', 'urn-payload', 'registry-error', 'pii-in-fixture', 'unknown-urn']);
/** Codes that compare one field with another. */
const CROSS_FIELD = new Set(['dead-letter-order', 'id-equals-trace', 'original-queue-mismatch']);
const CORE_FIELDS = ['/job', '/trace_id', '/data', '/meta', '/attempts'];

/** What a fix (or fix all) did, as the new findings it may bring are judged by. */
interface Change {
  readonly title: string;
  /** Pointers whose value it added or changed. */
  readonly written: ReadonlySet<string>;
  /** Keys it renamed, old pointer to new, and the new pointers. */
  readonly renamed: Renames;
  readonly renamedTo: ReadonlySet<string>;
  /** Whether it added a core field that was missing. */
  readonly addedCoreField: boolean;
  /** The document after it, flattened. */
  readonly after: Map<string, string>;
  /** The document before it, flattened. */
  readonly before: Map<string, string>;
  /** Keys written twice in the document before it. */
  readonly repeated: ReadonlySet<string>;
  /** The codes found before it. */
  readonly codesBefore: ReadonlySet<string>;
}

function changeOf(title: string, doc: ParsedDocument, after: ParsedDocument, diagnostics: readonly CoreDiagnostic[], titledRename?: string): Change {
  const jsBefore = toJsValue(doc.root!);
  const jsAfter = toJsValue(after.root!);
  const valuesBefore = flatten(jsBefore);
  const valuesAfter = flatten(jsAfter);
  const renamed = renamesBetween(jsBefore, jsAfter);
  return {
    title,
    renamed,
    written: changedPointers(valuesBefore, valuesAfter),
    renamedTo: new Set([...renamed.values(), ...(titledRename ? [titledRename] : [])]),
    addedCoreField: CORE_FIELDS.some((pointer) => !valuesBefore.has(pointer) && valuesAfter.has(pointer)),
    after: valuesAfter,
    before: valuesBefore,
    repeated: repeatedKeyPointers(doc),
    codesBefore: new Set(diagnostics.flatMap((diagnostic) => [diagnostic.code, ...(diagnostic.related ?? []).map((related) => related.code)])),
  };
}

/**
 * A finding a fix may bring with it, each for a reason of its own:
 * - of a key written twice, decoders read the last copy: a fix of that copy leaves the earlier one
 *   to be read, and judged (duplicate-key is the finding about both);
 * - a renamed key's value, as the user wrote it, is read under the key the fix gives it and judged
 *   there and against the rest (`"LANG": ""` renamed to `lang` is an unknown lang, `TRACE_ID`
 *   renamed to `trace_id` may equal meta.id): the finding is about what the user wrote;
 * - a fix that writes the URN (another registered one, `urn`'s into `job`) has the payload judged
 *   against that URN's schema, which it was not before; a URN the registry deprecates draws
 *   deprecated-urn, where the title says "(deprecated)" or the URN is the user's own, its case
 *   and spaces corrected;
 * - the relay through the SDKs' encoders (consumer-rejects) is simulated only for an envelope they
 *   decode: a fix that makes it decodable (a core field added, a type corrected) lets that check
 *   run on values it did not touch; so does the payload check once a missing core field is added;
 * - dead-letter-order compares created_at and failed_at only once their units agree: a unit fix
 *   lets it compare;
 * - a fix that writes an empty `data` (the missing field, `[]` → `{}`): no fix knows the payload,
 *   so the schema's required fields are still missing (payload-schema offers to add them), and a
 *   PHP producer re-emits an empty object as `[]` (consumer-rejects says so, on a value the
 *   user did not write: the first reason's kin);
 * - a fix that writes meta.lang "php" (the one a legacy meta.source names, a known language's
 *   case corrected) names the fixture's own encoder: encoding-divergence then reports PHP's [] for
 *   an empty object as the author's own, a warning, on an empty object the fix did not touch
 *   (consumer-rejects' kin); no other divergence.
 */
function legitimateNewFinding(key: string, change: Change): boolean {
  const [code, pointer = ''] = key.split(' ');
  const under = (ancestor: string) => pointer === ancestor || pointer.startsWith(`${ancestor}/`);
  if ([...change.repeated].some(under)) return true;
  if (code === 'duplicate-key') return false;
  if ([...change.renamedTo].some(under)) return true;
  // Findings that compare two fields (failed_at with created_at, meta.id with trace_id, the dead letter's queue with meta's) see a renamed one only now.
  if (change.renamedTo.size > 0 && CROSS_FIELD.has(code) && !change.written.has(pointer)) return true;
  const onlyRenames = [...change.written].every((written) => [...change.renamedTo].some((to) => written === to || written.startsWith(`${to}/`)));
  if (onlyRenames) return true;
  const urnPointer = ['/job', '/urn'].find((candidate) => change.written.has(candidate));
  if (urnPointer && URN_DEPENDENT.has(code)) return true;
  if (urnPointer && code === 'deprecated-urn') {
    const spelling = (value: string | undefined) => (value === undefined ? undefined : String(JSON.parse(value)).trim().toLowerCase());
    const usersOwn = [...change.before].some(([before, value]) => (before === '/job' || before === '/urn') && spelling(value) === spelling(change.after.get(urnPointer)));
    return change.title.includes('(deprecated)') || usersOwn;
  }
  if (code === 'consumer-rejects' && !change.written.has(pointer)) return true;
  // A fix that writes meta.lang "php" names the fixture's own encoder: PHP's [] for an empty object
  // becomes the author's own departure, a warning, on an empty object it did not touch. Only that:
  // another divergence after such a fix (a "lang" written beside a "Lang") is the fix's own.
  const emptyObject = change.after.get(pointer) === '{}' && ![...change.after.keys()].some((other) => other.startsWith(`${pointer}/`));
  if (code === 'encoding-divergence' && change.written.has('/meta/lang') && change.after.get('/meta/lang') === '"php"' && emptyObject && !change.written.has(pointer)) return true;
  if (change.addedCoreField && URN_DEPENDENT.has(code) && !change.written.has(pointer)) return true;
  if (code === 'dead-letter-order' && change.codesBefore.has('timestamp-unit')) return true;
  const wroteEmptyData = change.written.has('/data') && change.after.get('/data') === '{}' && ![...change.after.keys()].some((other) => other.startsWith('/data/'));
  if (wroteEmptyData && pointer === '/data' && (code === 'payload-schema' || code === 'consumer-rejects')) return true;
  return false;
}

function checkFixAll(input: Input, problems: string[], tally: Tally): void {
  const { text, registry } = input;
  const result = fixAll(text, DEFAULT_SETTINGS, registry, stableFresh());
  tally.fixAll++;
  const fail = (what: string, detail = ''): void => {
    problems.push(`${input.name}: fix all ${what}${detail ? `\n    ${detail}` : ''}`);
  };
  if (result.applied === 0) {
    if (result.text !== text) fail('changes the text without applying a fix');
    return;
  }
  const bom = text.startsWith('\ufeff');
  if (bom !== result.text.startsWith('\ufeff')) fail('changes the byte-order mark');
  const eol = eolOf(text);
  if (/[\r\n]/.test(text) && (result.text.match(/\r\n|\r|\n/g) ?? []).some((written) => written !== eol)) fail(`writes line breaks other than the file's ${JSON.stringify(eol)}`);
  const doc = parseText(bom ? text.slice(1) : text);
  const after = parseText(bom ? result.text.slice(1) : result.text);
  if (after.syntaxProblems.length > 0) return fail('leaves a syntax error', result.text);
  if (!doc.root || !after.root) return;
  const diagnosticsBefore = analyze(doc, DEFAULT_SETTINGS, registry);
  // Fix all is many fixes: a finding any of them may bring (a rename, an added field) is judged by what they did together.
  const change = changeOf('', doc, after, diagnosticsBefore);
  const severeBefore = findingCounts(doc, diagnosticsBefore, true, change.renamed);
  for (const [key, count] of findingCounts(after, analyze(after, DEFAULT_SETTINGS, registry), true)) {
    if (count > (severeBefore.get(key) ?? 0) && !legitimateNewFinding(key, change)) fail(`brings a new finding: ${key}`, `${text}\n→\n${result.text}`);
  }
  for (const twins of newCaseTwins(change.before, change.after)) fail(`writes a key beside one that differs from it only in case (${twins}): Go reads both as one field`, `${text}\n→\n${result.text}`);
  const again = fixAll(result.text, DEFAULT_SETTINGS, registry, stableFresh());
  if (again.applied > 0) fail(`is not done: run again, it applies ${again.applied} more`, `${result.text}\n→\n${again.text}`);
}

function checkInput(input: Input, problems: string[], tally: Tally): void {
  tally.inputs++;
  const doc = parseText(input.text);
  const diagnostics = analyze(doc, DEFAULT_SETTINGS, input.registry);
  for (const diagnostic of diagnostics) {
    tally.findings++;
    for (const { action, origin } of actionsWithOrigin(doc, diagnostic, input.registry)) checkAction(input, doc, diagnostics, action, origin, problems, tally);
  }
  checkFixAll(input, problems, tally);
}

test('every quick fix and fix all, on every envelope fixture and seeded mutants of it, keep the properties above', () => {
  const random = seededRandom(SEED);
  const tally: Tally = { inputs: 0, findings: 0, actions: 0, repeated: 0, fixAll: 0 };
  const problems: string[] = [];
  const started = Date.now();
  for (const fixture of fixtureInputs()) {
    checkInput(fixture, problems, tally);
    for (let index = 0; index < MUTANTS_PER_FIXTURE; index++) {
      const mutant = mutate(fixture.text, random, 1 + Math.floor(random() * 3));
      if (mutant.applied.length === 0) continue;
      checkInput({ name: `${fixture.name} + ${mutant.applied.join(' + ')} #${index}`, text: mutant.text, registry: fixture.registry }, problems, tally);
    }
  }
  const elapsed = Date.now() - started;
  console.log(`inputs ${tally.inputs}, findings ${tally.findings}, quick fixes applied ${tally.actions} (offered again and applied twice: ${tally.repeated}), fix all runs ${tally.fixAll}, ${elapsed} ms`);
  assert.deepEqual(problems, []);
});
