/**
 * The architecture as a test (ARCHITECTURE.md): which folder may import which, and no cycles.
 *
 * Between the top-level folders, dependencies point inward only:
 *
 *   core/      → nothing of ours, no Node built-ins, no vscode or LSP libraries (it is pure)
 *   workspace/ → core, Node I/O (finding and reading workspace files; never vscode, server/, client/ or cli/)
 *   server/    → core, workspace (never client/, cli/ or vscode)
 *   cli/       → core, workspace, broker (never server/, client/ or vscode)
 *   client/    → core, broker (it starts the server as a process and never imports it or cli/)
 *   broker/    → core (the message types), Node I/O (never vscode, server/, client/, cli/ or workspace/)
 *
 * Inside core/, the layers are folders in one order, and a file imports only from its own layer
 * or an earlier one (CORE_LAYERS). Across all of it, no file imports itself through others: type-only
 * imports count too, since a cycle of types is a cycle of ideas a reader must hold at once.
 *
 * Imports are found with regular expressions over the source text (static and dynamic `import`,
 * `export … from`, `require`), so the check needs no compiler and runs in milliseconds. The checks
 * are functions of a set of sources, so the tests below also feed them a reversed import and a cycle.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';

const REPO_ROOT = resolve(__dirname, '..');
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/** core/'s layers, lowest first: a file may import from its own layer and the ones before it. */
export const CORE_LAYERS = ['model', 'contract', 'parse', 'encode', 'registry', 'message', 'rules', 'language'] as const;

/** Top-level folders whose files are checked, with what they may import. */
const ADAPTERS = ['workspace', 'server', 'cli', 'client', 'broker'] as const;

interface ImportSite {
  readonly specifier: string;
  /** One-based line of the import statement. */
  readonly line: number;
}

const IMPORT_PATTERNS: readonly RegExp[] = [
  // import x from '…', import { a, b } from '…' (across lines), export * from '…', import type …
  /^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])([^'"\n]+)\1/gm,
  // import '…' (side effect only)
  /^[ \t]*import\s*(['"])([^'"\n]+)\1/gm,
  // require('…'), import('…')
  /(?<![\w$.])(?:require|import)\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
  // import x = require('…') is caught by the require pattern above.
];

/** Every module specifier a source text imports, with its line. */
function findImports(source: string): ImportSite[] {
  const sites: ImportSite[] = [];
  const seen = new Set<number>();
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of source.matchAll(pattern)) {
      const specifierOffset = match.index! + match[0].lastIndexOf(match[2]);
      if (seen.has(specifierOffset)) continue;
      seen.add(specifierOffset);
      sites.push({ specifier: match[2], line: source.slice(0, specifierOffset).split('\n').length });
    }
  }
  return sites.sort((a, b) => a.line - b.line);
}

const BUILTINS = new Set(builtinModules.map((name) => name.replace(/^node:/, '')));

/** True for `fs`, `fs/promises`, `node:test`, `path`, … */
function isNodeBuiltin(specifier: string): boolean {
  if (specifier.startsWith('node:')) return true;
  return BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]);
}

/** True for `vscode` itself. */
const isVscode = (specifier: string): boolean => specifier === 'vscode';
/** True for `vscode`, `vscode-languageserver*`, `vscode-languageclient*` and `vscode-jsonrpc`. */
const isEditorLibrary = (specifier: string): boolean =>
  isVscode(specifier) || /^vscode-(?:languageserver|languageclient|jsonrpc)(?:[-/]|$)/.test(specifier);

/** A set of sources by repository-relative POSIX path (`core/model/tree.ts`). */
type Sources = ReadonlyMap<string, string>;

/** The repository-relative file a relative import lands on, if it is one of `sources`. */
function resolveImport(sources: Sources, file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(file), specifier));
  for (const candidate of [base, ...SOURCE_EXTENSIONS.map((extension) => `${base}${extension}`), `${base}/index.ts`, `${base}.d.ts`]) {
    if (sources.has(candidate)) return candidate;
  }
  return base;
}

/** `server/` for a folder, `package.json` for a file at the root. */
const shown = (folder: string): string => (folder.includes('.') ? folder : `${folder}/`);

/** Why `file` may not import `specifier` (landing on `target`), or undefined when it may. */
function violation(file: string, specifier: string, target: string | undefined): string | undefined {
  const [layer, sublayer] = file.split('/');
  const folder = target === undefined ? undefined : target.startsWith('../') ? '..' : target.split('/')[0];
  switch (layer) {
    case 'core': {
      if (isNodeBuiltin(specifier)) return 'imports a Node built-in (core is pure)';
      if (isEditorLibrary(specifier)) return 'imports an editor/LSP library (core is pure)';
      if (folder === undefined) return undefined;
      if (folder !== 'core') return `imports ${shown(folder)} (core depends on nothing of ours)`;
      const from = CORE_LAYERS.indexOf(sublayer as (typeof CORE_LAYERS)[number]);
      const to = CORE_LAYERS.indexOf(target!.split('/')[1] as (typeof CORE_LAYERS)[number]);
      if (from < 0) return `lies in core/${sublayer}, which is not a layer of core (CORE_LAYERS)`;
      if (to < 0) return `imports core/${target!.split('/')[1]}, which is not a layer of core (CORE_LAYERS)`;
      if (to > from) return `imports core/${CORE_LAYERS[to]}/ from core/${CORE_LAYERS[from]}/: a lower layer may not depend on a higher one (${CORE_LAYERS.join(' < ')})`;
      return undefined;
    }
    case 'server':
      return isVscode(specifier) ? 'imports vscode' : into(folder, ['client', 'cli', 'broker']);
    case 'cli':
      return isVscode(specifier) ? 'imports vscode' : into(folder, ['server', 'client']);
    case 'client':
      return into(folder, ['server', 'cli', 'workspace']);
    case 'workspace':
      return isEditorLibrary(specifier) ? 'imports an editor/LSP library' : into(folder, ['server', 'client', 'cli', 'broker']);
    case 'broker':
      return isEditorLibrary(specifier) ? 'imports an editor/LSP library' : into(folder, ['server', 'client', 'cli', 'workspace']);
    default:
      return undefined;
  }
}

function into(folder: string | undefined, forbidden: readonly string[]): string | undefined {
  return folder !== undefined && forbidden.includes(folder) ? `imports ${shown(folder)}` : undefined;
}

/** Every layering violation in `sources`, as `file:line: 'specifier' reason`. */
export function layerViolations(sources: Sources): string[] {
  const found: string[] = [];
  for (const [file, source] of sources) {
    for (const site of findImports(source)) {
      const reason = violation(file, site.specifier, resolveImport(sources, file, site.specifier));
      if (reason) found.push(`${file}:${site.line}: '${site.specifier}' ${reason}`);
    }
  }
  return found;
}

/** Every import cycle among `sources`, each as `a → b → … → a` (one per strongly connected group). */
export function importCycles(sources: Sources): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const targets = findImports(source)
      .map((site) => resolveImport(sources, file, site.specifier))
      .filter((target): target is string => target !== undefined && sources.has(target));
    edges.set(file, [...new Set(targets)]);
  }
  // Iterative depth-first search with colours; each back edge closes a cycle, reported once per start.
  const colour = new Map<string, 'grey' | 'black'>();
  const cycles: string[] = [];
  for (const start of [...sources.keys()].sort()) {
    if (colour.has(start)) continue;
    const path: string[] = [start];
    const frames: { file: string; next: number }[] = [{ file: start, next: 0 }];
    colour.set(start, 'grey');
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const targets = edges.get(frame.file) ?? [];
      if (frame.next >= targets.length) {
        colour.set(frame.file, 'black');
        frames.pop();
        path.pop();
        continue;
      }
      const target = targets[frame.next++];
      const state = colour.get(target);
      if (state === 'grey') cycles.push([...path.slice(path.indexOf(target)), target].join(' → '));
      else if (state === undefined) {
        colour.set(target, 'grey');
        path.push(target);
        frames.push({ file: target, next: 0 });
      }
    }
  }
  return cycles;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (SOURCE_EXTENSIONS.some((extension) => name.endsWith(extension)) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The project's own sources: core/ and the adapters, by repository-relative POSIX path. */
function projectSources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const folder of ['core', ...ADAPTERS]) {
    if (!existsSync(join(REPO_ROOT, folder))) continue;
    for (const file of sourceFiles(join(REPO_ROOT, folder))) sources.set(relative(REPO_ROOT, file).split(sep).join('/'), readFileSync(file, 'utf8'));
  }
  return sources;
}

test('the import scanner finds every import form', () => {
  const source = [
    "import { a } from './a';", // 1
    'import type { B } from "../server/b";', // 2
    'import {', // 3
    '  c,', // 4
    "} from 'node:fs';", // 5
    "import 'vscode';", // 6
    "export * from '../cli/main';", // 7
    "const p = require('path');", // 8
    "const q = await import('child_process');", // 9
    "import x = require('vscode-languageserver/node');", // 10
    "// a comment that says import data from the file is not an import", // 11
    "const s = 'import nothing';", // 12
  ].join('\n');
  assert.deepEqual(findImports(source), [
    { specifier: './a', line: 1 },
    { specifier: '../server/b', line: 2 },
    { specifier: 'node:fs', line: 5 },
    { specifier: 'vscode', line: 6 },
    { specifier: '../cli/main', line: 7 },
    { specifier: 'path', line: 8 },
    { specifier: 'child_process', line: 9 },
    { specifier: 'vscode-languageserver/node', line: 10 },
  ]);
  assert.ok(isNodeBuiltin('fs') && isNodeBuiltin('fs/promises') && isNodeBuiltin('node:test') && isNodeBuiltin('net') && isNodeBuiltin('http'));
  assert.ok(!isNodeBuiltin('jsonc-parser') && !isNodeBuiltin('./fs'));
  assert.ok(isEditorLibrary('vscode-languageserver-textdocument') && isEditorLibrary('vscode-languageclient/node') && !isEditorLibrary('vscode-uri-like'));
});

test('a reversed import between layers of core is a violation, the forward one is not', () => {
  const sources = new Map([
    ['core/model/tree.ts', "import { analyze } from '../rules/analyze';\nexport const x = 1;\n"],
    ['core/rules/analyze.ts', "import { x } from '../model/tree';\nexport const analyze = x;\n"],
    ['core/language/hover.ts', "import { analyze } from '../rules/analyze';\n"],
  ]);
  assert.deepEqual(layerViolations(sources), [
    "core/model/tree.ts:1: '../rules/analyze' imports core/rules/ from core/model/: a lower layer may not depend on a higher one (model < contract < parse < encode < registry < message < rules < language)",
  ]);
});

test('core may not import an adapter, Node or the editor libraries; an adapter may not import another', () => {
  const sources = new Map([
    ['core/parse/parser.ts', "import { readFileSync } from 'node:fs';\nimport { Connection } from 'vscode-languageserver';\nimport { x } from '../../server/server';\n"],
    ['core/stray.ts', "import { y } from './model/tree';\n"],
    ['core/model/tree.ts', ''],
    ['server/server.ts', "import { lint } from '../cli/lint';\n"],
    ['client/extension.ts', "import { findRegistry } from '../workspace/registry-loader';\nimport { openBroker } from '../broker';\n"],
    ['cli/lint.ts', ''],
    ['workspace/registry-loader.ts', ''],
    ['broker/index.ts', ''],
  ]);
  assert.deepEqual(layerViolations(sources), [
    "core/parse/parser.ts:1: 'node:fs' imports a Node built-in (core is pure)",
    "core/parse/parser.ts:2: 'vscode-languageserver' imports an editor/LSP library (core is pure)",
    "core/parse/parser.ts:3: '../../server/server' imports server/ (core depends on nothing of ours)",
    "core/stray.ts:1: './model/tree' lies in core/stray.ts, which is not a layer of core (CORE_LAYERS)",
    "server/server.ts:1: '../cli/lint' imports cli/",
    "client/extension.ts:1: '../workspace/registry-loader' imports workspace/",
  ]);
});

test('an import cycle is found, through type-only imports too, and reported once', () => {
  const sources = new Map([
    ['core/language/complete.ts', "import { items } from './registry-completion';\nexport interface Item {}\n"],
    ['core/language/registry-completion.ts', "import type { Item } from './complete';\nexport const items = [];\n"],
    ['core/language/hover.ts', "import { items } from './registry-completion';\n"],
    ['core/model/a.ts', "import { b } from './b';\n"],
    ['core/model/b.ts', "import { c } from './c';\n"],
    ['core/model/c.ts', "export const c = 1;\n"],
  ]);
  assert.deepEqual(importCycles(sources), ['core/language/complete.ts → core/language/registry-completion.ts → core/language/complete.ts']);
});

test('core/ holds only its layers, each with sources, and the scanner sees its imports', () => {
  assert.ok(existsSync(join(REPO_ROOT, 'core')), 'core/ is missing');
  const entries = readdirSync(join(REPO_ROOT, 'core')).filter((name) => !name.startsWith('.') && name !== 'tsconfig.json');
  assert.deepEqual(entries.sort(), [...CORE_LAYERS].sort(), 'core/ should hold exactly the layer folders of CORE_LAYERS (and its tsconfig.json)');
  const sources = projectSources();
  for (const layer of CORE_LAYERS) assert.ok([...sources.keys()].some((file) => file.startsWith(`core/${layer}/`)), `core/${layer}/ has no sources`);
  assert.ok([...sources.values()].some((source) => findImports(source).length > 0), 'the scanner found no import at all: is it broken?');
});

test('every folder imports only what its layer may', () => {
  const found = layerViolations(projectSources());
  assert.deepEqual(found, [], `layering violations:\n${found.join('\n')}`);
});

test('no file of core/ or the adapters imports itself through others', () => {
  const cycles = importCycles(projectSources());
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join('\n')}`);
});

/** ARCHITECTURE.md's file map: each folder's entry (its first line and the indented lines after it). */
function fileMapEntries(markdown: string): Map<string, string> {
  const section = markdown.split(/^## Files$/m)[1] ?? '';
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const entries = new Map<string, string>();
  let current: string | undefined;
  for (const line of block.split('\n')) {
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      current = line.split(/\s+/, 1)[0];
      entries.set(current, line);
    } else if (current) {
      entries.set(current, `${entries.get(current)} ${line.trim()}`);
    }
  }
  return entries;
}

/** The rule modules named by ARCHITECTURE.md's generated table (npm run generate writes it from the modules). */
function tabledRuleModules(markdown: string): Set<string> {
  const block = /<!-- generated:rule-modules:start[^>]*-->([\s\S]*?)<!-- generated:rule-modules:end -->/.exec(markdown)?.[1] ?? '';
  return new Set([...block.matchAll(/`(core\/rules\/[a-z-]+\/[a-z0-9-]+\.ts)`/g)].map((match) => match[1]));
}

test('ARCHITECTURE.md names every source file in its folder\'s entry of the file map (a rule module in its generated table)', () => {
  const markdown = readFileSync(join(REPO_ROOT, 'ARCHITECTURE.md'), 'utf8');
  const entries = fileMapEntries(markdown);
  const modules = tabledRuleModules(markdown);
  assert.ok(entries.size > 10, 'the file map of ARCHITECTURE.md was not found');
  assert.ok(modules.size > 10, 'the table of rule modules in ARCHITECTURE.md was not found');
  const missing: string[] = [];
  for (const top of ['core', ...ADAPTERS, 'scripts', 'bench']) {
    const stack = [top];
    while (stack.length > 0) {
      const folder = stack.pop()!;
      const names = readdirSync(join(REPO_ROOT, folder), { withFileTypes: true });
      for (const entry of names) if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'out') stack.push(`${folder}/${entry.name}`);
      const files = names
        .filter((entry) => entry.isFile() && /\.(ts|mjs|cjs|js|sh)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        .map((entry) => entry.name)
        .filter((name) => !modules.has(`${folder}/${name}`));
      if (files.length === 0) continue;
      const text = entries.get(`${folder}/`);
      if (text === undefined) {
        missing.push(`${folder}/ has no entry`);
        continue;
      }
      for (const file of files) if (!new RegExp(`(^|[\\s(,/])${file.replace(/\./g, '\\.')}\\b`).test(text)) missing.push(`${folder}/${file}`);
    }
  }
  assert.deepEqual(missing, [], `add these to the file map of ARCHITECTURE.md:\n${missing.join('\n')}`);
});

test('the file map reader finds entries and their continuation lines', () => {
  const entries = fileMapEntries('# A\n\n## Files\n\n```\ncore/model/   tree.ts, edits.ts\n              positions.ts\ncli/          main.ts\n```\n');
  assert.deepEqual([...entries.keys()], ['core/model/', 'cli/']);
  assert.match(entries.get('core/model/')!, /positions\.ts/);
});
