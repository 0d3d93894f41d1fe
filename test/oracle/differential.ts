/**
 * Differential checks for the fast paths, on every fixture and on many mutated and random texts:
 *
 * - core/parse/parser.ts against the reference parser it replaced (test/oracle/reference-parser.ts):
 *   the same tree (kinds, offsets, keys, values, raw text, parents, closed flags) and the same
 *   syntax problems;
 * - analysis through the parser's columns (the rules' fast paths) against analysis of a plain
 *   copy of the same tree (the rules' tree walks): the same diagnostics, with and without a
 *   registry;
 * - `plainValue` from the columns against `toJsValue` on the tree;
 * - `reparse` (a new version from the previous parse) against a fresh parse, for edits inside
 *   string values and anywhere else, and the incremental analysis against a fresh one;
 * - encoding-divergence on numbers (its fast path decides from the characters alone) against the
 *   six SDK models themselves: a number is reported exactly when the models write it differently.
 *
 * Run: node --import tsx test/oracle/differential.ts [iterations]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze, analyzeDocument } from '../../core/rules/analyze';
import { reparse } from '../../core/parse/incremental';
import { parseJson, parseText } from '../../core/parse/parser';
import { toJsValue } from '../../core/model/js-value';
import type { RegistryState } from '../../core/registry/types';
import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '../../core/rules/settings/settings';
import type { ContainerNode, ParsedDocument, PropertyNode, ValueNode } from '../../core/model/tree';
import { loadRegistry } from '../../workspace/registry-loader';
import { findDivergences } from '../../core/encode/divergence';
import { dotnetModel } from '../../core/encode/dotnet';
import { goModel } from '../../core/encode/go';
import { javaModel } from '../../core/encode/java';
import { nodeModel } from '../../core/encode/node';
import { phpModel } from '../../core/encode/php';
import { pythonModel } from '../../core/encode/python';
import { columnsOf, plainValue } from '../../core/parse/document';
import { envelopeText, random, tinyText } from '../../bench/generate';
import { parseJson as referenceParse } from './reference-parser';

const ROOT = resolve(__dirname, '../..');

/** A canonical, comparable rendering of a parse. */
export function canonical(doc: ParsedDocument): string {
  const out: string[] = [];
  const ids = new Map<object, number>();
  const id = (node: object | undefined) => {
    if (!node) return -1;
    let n = ids.get(node);
    if (n === undefined) ids.set(node, (n = ids.size));
    return n;
  };
  const stack: (ValueNode | undefined)[] = [doc.root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) {
      out.push('none');
      continue;
    }
    const head = `${id(node)} ${node.kind} ${node.offset}-${node.end} p${id(node.parent)} q${id(node.property)}`;
    switch (node.kind) {
      case 'object':
        out.push(`${head} closed=${node.closed} n=${node.properties.length}`);
        for (const property of node.properties) {
          out.push(`  prop ${id(property)} ${JSON.stringify(property.key)} ${property.keyOffset}-${property.keyEnd} colon=${property.colonOffset} parent=${id(property.parent)} value=${property.value ? 'yes' : 'no'}`);
        }
        for (let i = node.properties.length - 1; i >= 0; i--) if (node.properties[i].value) stack.push(node.properties[i].value);
        break;
      case 'array':
        out.push(`${head} closed=${node.closed} n=${node.items.length}`);
        for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
        break;
      case 'number':
        out.push(`${head} raw=${JSON.stringify(node.raw)} value=${Object.is(node.value, -0) ? '-0' : String(node.value)} int=${node.isIntegerLiteral}`);
        break;
      case 'string':
        out.push(`${head} ${JSON.stringify(node.value)}`);
        break;
      case 'boolean':
        out.push(`${head} ${node.value}`);
        break;
      case 'null':
        out.push(head);
        break;
    }
  }
  for (const problem of doc.syntaxProblems) {
    out.push(`problem ${problem.offset}-${problem.end} ${problem.message}`);
    for (const repair of problem.repairs ?? []) out.push(`  repair ${repair.offset}-${repair.end} ${JSON.stringify(repair.text)} ${repair.title}`);
  }
  out.push(`text ${doc.text.length}`);
  return out.join('\n');
}

function seeds(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) found.push(readFileSync(path, 'utf8'));
    }
  };
  walk(join(ROOT, 'examples'));
  walk(join(ROOT, 'test/fixtures'));
  walk(join(ROOT, 'schemas'));
  found.push(tinyText(7), envelopeText(60_000, 3));
  return found;
}

const ALPHABET = ['{', '}', '[', ']', ',', ':', '"', "'", '\\', '/', '*', '-', '+', '.', 'e', 'E', '0', '1', '9', ' ', '\n', '\r', '\t', 'u', 'a', 'x', 'true', 'false', 'null', 'NaN', '-Infinity', 'Infinity', 'nul', 'tru', '\u0000', '\u0007', '\ufeff', '\ud800', '\udc00', 'é', '$', '_', '//', '/*', '*/', '\\u12', '\\u00e9', '01', '1.', '.5', '1e', '1e+', '-0', '0x1F', '1.5.3', '\u00a0', '\u2028'];

function mutate(text: string, rand: () => number): string {
  let result = text;
  const count = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < count; i++) {
    const at = Math.floor(rand() * (result.length + 1));
    const op = rand();
    if (op < 0.4) result = result.slice(0, at) + ALPHABET[Math.floor(rand() * ALPHABET.length)] + result.slice(at);
    else if (op < 0.7) result = result.slice(0, at) + result.slice(at + 1 + Math.floor(rand() * 8));
    else if (op < 0.85) result = result.slice(0, at);
    else result = result.slice(0, at) + result.slice(Math.floor(rand() * result.length), Math.floor(rand() * result.length)) + result.slice(at);
  }
  return result;
}

function randomText(rand: () => number): string {
  let text = '';
  const n = Math.floor(rand() * 40);
  for (let i = 0; i < n; i++) text += ALPHABET[Math.floor(rand() * ALPHABET.length)];
  return text;
}

/** A copy of the tree in plain objects: the rules find no columns behind it and walk the tree. */
function treeOnly(doc: ParsedDocument): ParsedDocument {
  const copies = new Map<ValueNode, ValueNode>();
  const copy = (node: ValueNode, parent: ContainerNode | undefined, property: PropertyNode | undefined): ValueNode => {
    let made: ValueNode;
    switch (node.kind) {
      case 'object':
        made = { kind: 'object', offset: node.offset, end: node.end, parent, property, properties: [], closed: node.closed };
        break;
      case 'array':
        made = { kind: 'array', offset: node.offset, end: node.end, parent, property, items: [], closed: node.closed };
        break;
      default:
        made = { ...node, parent, property } as ValueNode;
    }
    copies.set(node, made);
    return made;
  };
  if (!doc.root) return { text: doc.text, root: undefined, syntaxProblems: doc.syntaxProblems };
  const root = copy(doc.root, undefined, undefined);
  const stack: ValueNode[] = [doc.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const made = copies.get(node)!;
    if (node.kind === 'object' && made.kind === 'object') {
      for (const property of node.properties) {
        const p: PropertyNode = { key: property.key, keyOffset: property.keyOffset, keyEnd: property.keyEnd, colonOffset: property.colonOffset, value: undefined, parent: made };
        if (property.value) {
          p.value = copy(property.value, made, p);
          stack.push(property.value);
        }
        made.properties.push(p);
      }
    } else if (node.kind === 'array' && made.kind === 'array') {
      for (const item of node.items) {
        made.items.push(copy(item, made, undefined));
        stack.push(item);
      }
    }
  }
  return { text: doc.text, root, syntaxProblems: doc.syntaxProblems };
}

let registries: RegistryState[] | undefined;

function registryStates(): RegistryState[] {
  if (!registries) {
    const examples = join(ROOT, 'examples');
    registries = [{ kind: 'none' }, loadRegistry(join(examples, 'registry.json'), examples).state];
  }
  return registries;
}

/** The default settings, and the laravel Redis layout, under which encoding-divergence also reports what a Laravel retry changes. */
const SETTINGS: readonly Settings[] = [DEFAULT_SETTINGS, normalizeSettings({ redis: { layout: 'laravel' } }).settings];

function checkAnalysis(text: string, label: string): void {
  const doc = parseJson(text);
  const copy = treeOnly(doc);
  for (const registry of registryStates()) for (const settings of SETTINGS) {
    const fast = JSON.stringify(analyze(doc, settings, registry));
    const slow = JSON.stringify(analyze(copy, settings, registry));
    if (fast !== slow) throw new Error(`Analysis through the columns differs from the tree walk on ${label} ${JSON.stringify(text.slice(0, 300))}\n  columns: ${fast.slice(0, 600)}\n  tree:    ${slow.slice(0, 600)}`);
  }
  const root = doc.root;
  if (root && (root.kind === 'object' || root.kind === 'array')) {
    const parsed = columnsOf(root)!;
    const fast = plainValue(parsed.columns, parsed.text, parsed.slot);
    const slow = toJsValue(root);
    let same: boolean;
    try {
      same = JSON.stringify(fast) === JSON.stringify(slow) && Object.keys(fast as object).join() === Object.keys(slow as object).join();
    } catch {
      same = true; // Nested too deeply for JSON.stringify to compare; the parse itself is compared below.
    }
    if (!same) {
      throw new Error(`plainValue differs from toJsValue on ${label} ${JSON.stringify(text.slice(0, 300))}`);
    }
  }
}

function check(text: string, label: string): void {
  checkAnalysis(text, label);
  const expected = canonical(referenceParse(text));
  const actual = canonical(parseJson(text));
  if (expected !== actual) {
    const e = expected.split('\n');
    const a = actual.split('\n');
    let i = 0;
    while (i < e.length && e[i] === a[i]) i++;
    throw new Error(`Parsers differ on ${label} ${JSON.stringify(text.length > 400 ? `${text.slice(0, 400)}…` : text)}\n  reference: ${e[i]}\n  new:       ${a[i]}`);
  }
}

/** Edits the text the way typing does: a few characters inserted or deleted, often inside a string. */
function typingEdit(text: string, rand: () => number): string {
  let at = Math.floor(rand() * (text.length + 1));
  if (rand() < 0.2) {
    // In a number: a digit, a sign, a point or an exponent typed into it, or a character of it deleted.
    const number = /-?\d[\d.eE+-]*/g;
    number.lastIndex = at;
    const found = number.exec(text) ?? /-?\d[\d.eE+-]*/.exec(text);
    if (found) {
      const inside = found.index + Math.floor(rand() * (found[0].length + 1));
      const typed = ['0', '7', '-', '.', 'e', '1', '9', ''][Math.floor(rand() * 8)];
      return text.slice(0, inside) + typed + text.slice(inside + (rand() < 0.4 ? 1 : 0));
    }
  }
  if (rand() < 0.7) {
    // Inside a string: just after some quote.
    const quote = text.indexOf('"', at);
    if (quote >= 0) at = quote + 1 + Math.floor(rand() * 3);
  }
  // Letters every SDK writes as is, and characters some escape (U+2028, a C1 control, an emoji's surrogate pair).
  const typed = ['x', 'é', '抹', ' ', '"', '\\', '\\n', '\n', '}', ',', '1', 'ab', '\u2028', '\u0085', '😀'];
  const inserted = rand() < 0.5 ? '' : typed[Math.floor(rand() * typed.length)];
  const removed = rand() < 0.5 ? 0 : Math.floor(rand() * 3);
  return text.slice(0, at) + inserted + text.slice(at + removed);
}

function checkReparse(previousText: string, text: string, label: string): boolean {
  const previous = parseText(previousText);
  const incremental = reparse(previous, text);
  if (!incremental) return false;
  if (incremental.edit?.kind === 'number') numbersReparsed++;
  const expected = canonical(referenceParse(text));
  const actual = canonical(incremental);
  if (expected !== actual) throw new Error(`reparse differs from a fresh parse on ${label} ${JSON.stringify(text.slice(0, 300))}`);
  for (const registry of registryStates()) for (const settings of SETTINGS) {
    const fresh = JSON.stringify(analyze(parseJson(text), settings, registry));
    // The incremental analysis: the previous version analysed first, then this one reusing it.
    const again = reparse(parseText(previousText), text)!;
    // The edit record names the version it was made from (a string or a number edited).
    const before = analyzeDocument(again.edit?.previous ?? parseText(previousText), settings, registry);
    const reused = JSON.stringify(analyzeDocument(again, settings, registry, before).diagnostics);
    const findings = (list: readonly { code: string; message: string }[]) => list.map((d) => `${d.code} ${d.message}`).sort().join('\n');
    if (findings(JSON.parse(reused)) !== findings(before.diagnostics)) changedAnalyses++;
    if (reused !== fresh) throw new Error(`incremental analysis differs from a fresh one on ${label} ${JSON.stringify(text.slice(0, 300))}\n  incremental: ${reused.slice(0, 800)}\n  fresh:       ${fresh.slice(0, 800)}`);
    if (JSON.stringify(analyze(incremental, settings, registry)) !== fresh) throw new Error(`analysis after reparse differs on ${label}`);
  }
  return true;
}

let lastReparsed = 0;
let numbersReparsed = 0;
let changedAnalyses = 0;

const MODELS = [phpModel, pythonModel, nodeModel, goModel, javaModel, dotnetModel];

/** Numbers of every shape: plain decimals (the fast path), exponents, long, tiny and huge ones. */
function randomNumber(rand: () => number): string {
  const r = rand();
  let text: string;
  if (r < 0.3) text = (rand() * 10 ** Math.floor(rand() * 9 - 4)).toFixed(Math.floor(rand() * 12));
  else if (r < 0.5) text = String(rand() * 10 ** Math.floor(rand() * 30 - 15));
  else if (r < 0.7) text = String(Math.floor(rand() * 1e7) / 10 ** Math.floor(rand() * 10));
  else if (r < 0.8) text = `${Math.floor(rand() * 100)}.${'0'.repeat(Math.floor(rand() * 4))}${Math.floor(rand() * 1e6)}`;
  else if (r < 0.9) text = `0.${'0'.repeat(Math.floor(rand() * 5))}${Math.floor(rand() * 1e15)}`;
  else text = `${Math.floor(rand() * 1e9)}${rand() < 0.5 ? `.${Math.floor(rand() * 1e9)}` : ''}`;
  return rand() < 0.3 ? `-${text}` : text;
}

function checkNumbers(rand: () => number, count: number): void {
  for (let done = 0; done < count; done += 500) {
    const numbers = Array.from({ length: 500 }, () => randomNumber(rand));
    const text = `{"job":"urn:babel:a:b","data":{"v":[${numbers.join(',')}]}}`;
    const doc = parseJson(text);
    if (doc.syntaxProblems.length > 0) continue;
    const reported = new Set(findDivergences(doc).map((d) => d.offset));
    const items = (doc.root as { properties: { value: { properties: { value: { items: { offset: number; kind: string; raw?: string; isIntegerLiteral?: boolean }[] } }[] } }[] }).properties[1].value.properties[0].value.items;
    for (const item of items) {
      if (item.kind !== 'number') continue;
      const texts = MODELS.map((model) => {
        const result = model.number(item.raw!, item.isIntegerLiteral!);
        return 'error' in result ? undefined : result.text;
      });
      const differ = texts.some((t) => t !== texts[0]);
      if (differ !== reported.has(item.offset)) throw new Error(`encoding-divergence on ${item.raw}: the models write ${JSON.stringify(texts)}, reported: ${reported.has(item.offset)}`);
    }
  }
}

export function runDifferential(iterations: number): number {
  const rand = random(20260601);
  const all = seeds();
  let checked = 0;
  for (const [i, text] of all.entries()) {
    check(text, `seed ${i}`);
    checked++;
  }
  for (let i = 0; i < iterations; i++) {
    const base = all[Math.floor(rand() * all.length)];
    const text = rand() < 0.15 ? randomText(rand) : mutate(base.length > 20_000 ? base.slice(0, 20_000) : base, rand);
    check(text, `case ${i}`);
    checked++;
  }
  // Typing: a version parsed from the previous one must equal a fresh parse.
  let reparsed = 0;
  for (let i = 0; i < iterations; i++) {
    const base = all[Math.floor(rand() * all.length)];
    const previous = base.length > 20_000 ? base.slice(0, 20_000) : base;
    if (checkReparse(previous, typingEdit(previous, rand), `edit ${i}`)) reparsed++;
    checked++;
  }
  if (reparsed === 0) throw new Error('no edit took the incremental path');
  if (numbersReparsed === 0) throw new Error('no number edit took the incremental path');
  lastReparsed = reparsed;
  checkNumbers(rand, iterations * 10);
  checked += iterations * 10;
  // Deep nesting and edge inputs.
  for (const text of ['', ' ', '[', '{', '"', '-', '['.repeat(100_000), '{"a":'.repeat(50_000), `${'['.repeat(1000)}${']'.repeat(999)}}`, '\ufeff{}', '{}{}', '{} x', '1 2']) {
    check(text, 'edge');
    checked++;
  }
  return checked;
}

if (require.main === module) {
  const iterations = Number(process.argv[2] ?? 20_000);
  const checked = runDifferential(iterations);
  console.log(`the fast paths agree with the reference in ${checked} checks (${lastReparsed} edits reparsed incrementally, ${numbersReparsed} of them in a number, ${changedAnalyses} analyses with other findings than the previous version's)`);
}
