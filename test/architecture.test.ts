/**
 * Layering: dependencies point inward only (see ARCHITECTURE.md).
 *
 *   core/   → nothing of ours, no Node built-ins, no vscode or LSP libraries (it is pure)
 *   workspace/ → core, Node I/O (finding and reading registry files; never vscode, server/, client/ or cli/)
 *   server/ → core, workspace (never client/, cli/ or vscode)
 *   cli/    → core, workspace, broker (never server/, client/ or vscode)
 *   client/ → core, broker (it starts the server as a process and never imports it or cli/)
 *   broker/ → core (the message types), Node I/O (never vscode, server/, client/, cli/ or workspace/)
 *
 * Imports are found with regular expressions over the source text (static and dynamic `import`,
 * `export … from`, `require`), so the check needs no compiler and runs in milliseconds.
 * Only directories that exist are checked.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';

const REPO_ROOT = resolve(__dirname, '..');
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];

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

/** The top-level folder of the repository a relative import lands in, e.g. `core` or `server`. */
function targetFolder(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = relative(REPO_ROOT, resolve(dirname(file), specifier));
  if (target.startsWith('..')) return '..';
  return target.split(sep)[0];
}

interface LayerRule {
  readonly layer: string;
  /** Why an import is not allowed here, or undefined when it is. */
  readonly check: (specifier: string, folder: string | undefined) => string | undefined;
}

/** `server/` for a folder, `package.json` for a file at the root. */
const shown = (folder: string): string => (folder.includes('.') ? folder : `${folder}/`);

const notInto = (folders: readonly string[]) => (folder: string | undefined) => (folder !== undefined && folders.includes(folder) ? `imports ${shown(folder)}` : undefined);

const RULES: readonly LayerRule[] = [
  {
    layer: 'core',
    check: (specifier, folder) => {
      if (isNodeBuiltin(specifier)) return 'imports a Node built-in (core is pure)';
      if (isEditorLibrary(specifier)) return 'imports an editor/LSP library (core is pure)';
      if (folder !== undefined && folder !== 'core') return `imports ${shown(folder)} (core depends on nothing of ours)`;
      return undefined;
    },
  },
  {
    layer: 'server',
    check: (specifier, folder) => (isVscode(specifier) ? 'imports vscode' : notInto(['client', 'cli'])(folder)),
  },
  {
    layer: 'cli',
    check: (specifier, folder) => (isVscode(specifier) ? 'imports vscode' : notInto(['server', 'client'])(folder)),
  },
  {
    layer: 'client',
    check: (_specifier, folder) => notInto(['server', 'cli'])(folder),
  },
  {
    layer: 'workspace',
    check: (specifier, folder) => (isVscode(specifier) || isEditorLibrary(specifier) ? 'imports an editor/LSP library' : notInto(['server', 'client', 'cli', 'broker'])(folder)),
  },
  {
    layer: 'broker',
    check: (specifier, folder) => (isVscode(specifier) || isEditorLibrary(specifier) ? 'imports an editor/LSP library' : notInto(['server', 'client', 'cli', 'workspace'])(folder)),
  },
];

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

/** Every violation of one layer's rule, as `file:line: 'specifier' reason`. */
function violations(rule: LayerRule): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(join(REPO_ROOT, rule.layer))) {
    for (const site of findImports(readFileSync(file, 'utf8'))) {
      const reason = rule.check(site.specifier, targetFolder(file, site.specifier));
      if (reason) found.push(`${relative(REPO_ROOT, file)}:${site.line}: '${site.specifier}' ${reason}`);
    }
  }
  return found;
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

test('core/ exists and has sources to check', () => {
  assert.ok(existsSync(join(REPO_ROOT, 'core')), 'core/ is missing');
  const files = sourceFiles(join(REPO_ROOT, 'core'));
  assert.ok(files.length > 0, 'no source file found under core/');
  assert.ok(files.some((file) => findImports(readFileSync(file, 'utf8')).length > 0), 'the scanner found no import at all in core/: is it broken?');
});

const absent = RULES.filter((rule) => !existsSync(join(REPO_ROOT, rule.layer))).map((rule) => `${rule.layer}/`);
if (absent.length > 0) console.log(`layering: not checked (absent): ${absent.join(', ')}`);

for (const rule of RULES) {
  if (!existsSync(join(REPO_ROOT, rule.layer))) continue;
  test(`${rule.layer}/ imports only what its layer may`, () => {
    const found = violations(rule);
    assert.deepEqual(found, [], `layering violations:\n${found.join('\n')}`);
  });
}
