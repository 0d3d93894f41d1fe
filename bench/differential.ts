/**
 * Differential check of core/parse/parser.ts against the reference parser (the straightforward
 * one it replaced, kept in bench/reference/): the same tree (kinds, offsets, keys, values, raw
 * text, parents, closed flags) and the same syntax problems on every fixture and on many mutated
 * and random texts. Run: node --import tsx bench/differential.ts [iterations]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseJson } from '../core/parse/parser';
import type { ParsedDocument, ValueNode } from '../core/tree';
import { envelopeText, random, tinyText } from './generate';
import { parseJson as referenceParse } from './reference/parser';

const ROOT = resolve(__dirname, '..');

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
  for (const problem of doc.syntaxProblems) out.push(`problem ${problem.offset}-${problem.end} ${problem.message}`);
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

function check(text: string, label: string): void {
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
  // Deep nesting and edge inputs.
  for (const text of ['', ' ', '[', '{', '"', '-', '[' .repeat(100_000), '{"a":'.repeat(50_000), `${'['.repeat(1000)}${']'.repeat(999)}}`, '\ufeff{}', '{}{}', '{} x', '1 2']) {
    check(text, 'edge');
    checked++;
  }
  return checked;
}

if (require.main === module) {
  const iterations = Number(process.argv[2] ?? 20_000);
  const checked = runDifferential(iterations);
  console.log(`parsers agree on ${checked} texts`);
}
