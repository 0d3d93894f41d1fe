/**
 * babelq.json, the project config that the language server and `babelq lint` both read: what the
 * settings hold (severity per code, money key patterns, the registry, the validator) plus `ignore`
 * globs and `overrides` by glob. It is a config file, not an envelope, so comments and trailing
 * commas are accepted (jsonc-parser reads it, with offsets for every problem). Every key is checked:
 * a misspelt key would otherwise be ignored in silence and CI would pass on defaults. This module
 * only reads the text; finding the files and matching globs is workspace/project-config.ts.
 */
import { createScanner, parseTree, printParseErrorCode, type Node as JsoncNode, type ParseError } from 'jsonc-parser';
import { closestWord } from '../../model/edit-distance';
import type { Code } from '../code-names';
import type { SeveritySetting } from '../diagnostic';
import { COMPAT_BASE_SHAPE, isPayloadVerdict, isRedisLayout, MAX_PATH_SETTING_LENGTH, MONEY_SHAPE, pathTooLong, readCompatBase, readMoneyKeyPatterns, readSeverities, REDIS_LAYOUT_SHAPE, SEVERITY_SHAPE, VALIDATOR_SHAPE, type SettingsLayer } from './settings';
import { digitGroups } from '../../model/count-words';
import { shortened } from '../../model/describe-value';

export { PROJECT_CONFIG_FILE } from './project-file-names';

/** A problem in a config file, at the key or value it is about. */
export interface ConfigProblem {
  readonly offset: number;
  readonly end: number;
  readonly message: string;
}

/** One `overrides` entry: settings for the files its globs match. */
export interface ConfigOverride {
  /** Globs relative to the config file's folder. */
  readonly files: readonly string[];
  readonly layer: SettingsLayer;
}

export interface ProjectConfig {
  /** `"root": true`: configs above this one are not read. */
  readonly root: boolean;
  /** What it sets for every file below it; `registryPath` as written, relative to the config's folder. */
  readonly layer: SettingsLayer;
  /** Globs relative to the config's folder of fixtures a directory walk leaves out. */
  readonly ignore: readonly string[];
  readonly overrides: readonly ConfigOverride[];
  readonly problems: readonly ConfigProblem[];
}

const TOP_KEYS = ['$schema', 'root', 'severity', 'moneyKeyPatterns', 'registry', 'validator', 'compatBase', 'redisLayout', 'ignore', 'overrides'];
/** The keys a babelq.json may hold at its top. */
export const PROJECT_CONFIG_KEYS: readonly string[] = TOP_KEYS;
const OVERRIDE_KEYS = ['files', 'severity', 'moneyKeyPatterns', 'validator', 'redisLayout'];

/** Reads babelq.json's text; what cannot be used is left out and named in `problems`. */
export function readProjectConfig(text: string): ProjectConfig {
  const problems: ConfigProblem[] = [];
  const tree = parseConfigText(text, problems);
  const empty: ProjectConfig = { root: false, layer: {}, ignore: [], overrides: [], problems };
  if (!tree) return empty;
  if (tree.type !== 'object') {
    problems.push(at(tree, 'babelq.json must hold one object, such as { "severity": { "extension-key": "off" } }'));
    return empty;
  }
  let root = false;
  let layer: SettingsLayer = {};
  let ignore: string[] = [];
  const overrides: ConfigOverride[] = [];
  const globBudget: GlobBudget = { left: MAX_GLOB_CHARACTERS };
  for (const [key, keyNode, value] of properties(tree, problems)) {
    switch (key) {
      case '$schema':
        break;
      case 'root':
        if (value.type === 'boolean') root = value.value === true;
        else problems.push(at(value, '"root" must be true or false'));
        break;
      case 'registry':
        if (typeof value.value === 'string' && value.value.trim().length > MAX_PATH_SETTING_LENGTH) problems.push(at(value, `"registry" must be the path of a registry.json, relative to this file, ${pathTooLong(value.value.trim())}`));
        else if (typeof value.value === 'string' && value.value.trim() !== '') layer = { ...layer, registryPath: value.value.trim() };
        else problems.push(at(value, '"registry" must be the path of a registry.json, relative to this file'));
        break;
      case 'compatBase': {
        const base = readCompatBase(value.value);
        if (base === undefined) problems.push(at(value, `"compatBase" ${COMPAT_BASE_SHAPE}`));
        else layer = { ...layer, compatBase: base };
        break;
      }
      case 'ignore': {
        ignore = readGlobs(value, 'ignore', problems, globBudget);
        break;
      }
      case 'overrides':
        if (value.type !== 'array') problems.push(at(value, '"overrides" must be a list of { "files": [globs], "severity": { … } }'));
        else for (const entry of value.children ?? []) {
          const override = readOverride(entry, problems, globBudget);
          if (override) overrides.push(override);
        }
        break;
      default:
        if (!TOP_KEYS.includes(key)) {
          const near = closestWord(key, TOP_KEYS);
          problems.push(at(keyNode, `Unknown key "${shortened(key)}" in babelq.json${near ? ` (did you mean "${near}"?)` : ''}; the keys are ${TOP_KEYS.filter((k) => k !== '$schema').join(', ')}.`));
          break;
        }
        layer = { ...layer, ...readSettingKey(key, value, problems) };
    }
  }
  return { root, layer, ignore, overrides, problems };
}

function readOverride(entry: JsoncNode, problems: ConfigProblem[], globBudget: GlobBudget): ConfigOverride | undefined {
  if (entry.type !== 'object') {
    problems.push(at(entry, 'An override must be an object: { "files": ["legacy/**"], "severity": { "float-currency": "off" } }'));
    return undefined;
  }
  let files: string[] | undefined;
  let empty = false;
  let layer: SettingsLayer = {};
  for (const [key, keyNode, value] of properties(entry, problems)) {
    if (key === 'files') {
      files = readGlobs(value, 'files', problems, globBudget);
      if (value.type === 'array' && (value.children ?? []).length === 0) {
        problems.push(at(value, 'This override\'s "files" is empty, so it applies to no file: name the globs it applies to.'));
        empty = true;
      }
    }
    else if (OVERRIDE_KEYS.includes(key)) layer = { ...layer, ...readSettingKey(key, value, problems) };
    else {
      const near = closestWord(key, OVERRIDE_KEYS);
      problems.push(at(keyNode, `Unknown key "${shortened(key)}" in an override${near ? ` (did you mean "${near}"?)` : ''}; an override holds ${OVERRIDE_KEYS.join(', ')}.`));
    }
  }
  if (files === undefined) {
    problems.push({ offset: entry.offset, end: entry.offset + 1, message: 'This override has no "files": name the globs it applies to.' });
    return undefined;
  }
  if (empty) return undefined;
  return { files, layer };
}

/** severity, moneyKeyPatterns, validator and redisLayout: the settings' own checks, with the problem on the value. */
function readSettingKey(key: string, value: JsoncNode, problems: ConfigProblem[]): SettingsLayer {
  const plain = plainValue(value);
  if (key === 'severity') {
    if (value.type !== 'object') {
      problems.push(at(value, `"severity" ${SEVERITY_SHAPE}`));
      return {};
    }
    const severities = new Map<Code, SeveritySetting>();
    for (const [code, codeNode, level] of properties(value, problems)) {
      const read = readSeverities({ [code]: plainValue(level) });
      for (const message of read.problems) problems.push(at(isUnknownCodeProblem(message) ? codeNode : level, message));
      for (const [known, setting] of read.severities) severities.set(known, setting);
    }
    return { severityOverrides: severities };
  }
  if (key === 'moneyKeyPatterns') {
    const patterns = readMoneyKeyPatterns(plain);
    if (patterns) return { moneyKeyPatterns: patterns };
    problems.push(at(value, `"moneyKeyPatterns" ${MONEY_SHAPE}`));
    return {};
  }
  if (key === 'redisLayout') {
    if (isRedisLayout(plain)) return { redisLayout: plain };
    problems.push(at(value, `"redisLayout" ${REDIS_LAYOUT_SHAPE}`));
    return {};
  }
  if (isPayloadVerdict(plain)) return { registryValidator: plain };
  problems.push(at(value, `"validator" ${VALIDATOR_SHAPE}`));
  return {};
}

/** An unknown code is about the key; a bad level about the value. */
function isUnknownCodeProblem(message: string): boolean {
  return message.startsWith('unknown diagnostic code');
}

/**
 * A list of globs relative to the config's folder. A glob that is absolute or climbs out with `..`
 * could only ever match files the config does not govern, so it is refused rather than ignored.
 */
function readGlobs(value: JsoncNode, key: string, problems: ConfigProblem[], budget: GlobBudget): string[] {
  if (value.type !== 'array') {
    problems.push(at(value, `"${key}" must be a list of globs relative to this file, such as ["fixtures/negative/**"]`));
    return [];
  }
  const globs: string[] = [];
  for (const item of value.children ?? []) {
    const glob = typeof item.value === 'string' ? item.value.trim().replace(/^\.\//, '') : undefined;
    if (glob === undefined || glob === '') problems.push(at(item, `"${key}" holds globs (non-empty strings)`));
    else if (glob.startsWith('/') || /^[A-Za-z]:[\\/]/.test(glob) || glob.split('/').includes('..')) problems.push(at(item, `The glob "${shortened(glob)}" must stay below this file's folder (no leading "/", no "..").`));
    else if (glob.length > MAX_GLOB_LENGTH) problems.push(at(item, `This glob is ${glob.length} characters long, more than the ${MAX_GLOB_LENGTH} of the longest path; it was not used.`));
    else if (braceDepth(glob) > MAX_GLOB_BRACE_DEPTH) problems.push(at(item, `This glob nests {…} alternatives ${braceDepth(glob)} deep, more than ${MAX_GLOB_BRACE_DEPTH}; it was not used.`));
    else if (unbalancedBrace(glob) !== undefined) problems.push(at(item, `The glob "${shortened(glob)}" has a ${unbalancedBrace(glob) === '{' ? '"{" that no "}" closes' : '"}" that no "{" opens'}: {a,b} lists alternatives, and an unclosed one would only match the characters themselves. It was not used.`));
    else if (glob.length > budget.left) problems.push(at(item, `With this glob the globs of this file would hold more than ${digitGroups(MAX_GLOB_CHARACTERS)} characters together (each one is compiled and tested against every file and folder a walk meets); it was not used.`));
    else {
      budget.left -= glob.length;
      globs.push(glob);
    }
  }
  return globs;
}

/** The tree of a config text, its syntax errors worded with a position each; undefined when empty. */
export function parseConfigText(text: string, problems: ConfigProblem[], whenEmpty = 'write an object such as { "root": true }.'): JsoncNode | undefined {
  // jsonc-parser reads nesting by recursion: a few thousand `[` would overflow the call stack.
  const tooDeep = nestedTooDeep(text);
  if (tooDeep !== undefined) {
    problems.push({ offset: tooDeep, end: tooDeep + 1, message: `Nested more than ${MAX_CONFIG_DEPTH} levels deep here; this file's settings need a few. It was not read.` });
    return undefined;
  }
  // Nothing but white space and comments: jsonc-parser calls it "value expected", which hides what is wrong.
  if (onlyTrivia(text)) {
    problems.push({ offset: 0, end: 0, message: `The file is empty; ${whenEmpty}` });
    return undefined;
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  // One mistake often gives several errors at one place (`{ "a": 1, ` ends where a key, a value
  // and a `}` were each due): the first, which names what was due first, is the one said there.
  const placesSaid = new Set<number>();
  for (const error of errors) {
    if (placesSaid.has(error.offset)) continue;
    placesSaid.add(error.offset);
    problems.push({ offset: error.offset, end: error.offset + Math.max(error.length, 1), message: `Not valid JSON with comments: ${syntaxWords(printParseErrorCode(error.error))}.` });
  }
  if (!tree) return undefined;
  return errors.length > 0 && tree.type !== 'object' ? undefined : tree;
}

/** Whether `text` holds no token but white space and comments. */
function onlyTrivia(text: string): boolean {
  return createScanner(text, true).scan() === TOKEN.end;
}

/** A glob longer than a path can be matches nothing a walk finds. */
const MAX_GLOB_LENGTH = 4096;
/**
 * The most characters the `ignore` and `overrides` globs of one babelq.json may hold together.
 * Compiling costs by the character: 250 globs of 4,096 (`{*a,*a,…}`, 1 MB) took a lint of 20
 * fixtures 22 s and 490 MB, and held the server's event loop as long. A real file's globs hold a
 * few hundred characters; at this bound the costliest shapes compile in about a second, as the
 * bounds of a `.gitignore` allow (workspace/gitignore.ts).
 */
const MAX_GLOB_CHARACTERS = 8 * 1024;

/** What is left of MAX_GLOB_CHARACTERS while a file's globs are read, in order. */
interface GlobBudget {
  left: number;
}
/** `{a,{b,c}}` nests two deep; a glob is compiled level by level, so the depth is bounded. */
const MAX_GLOB_BRACE_DEPTH = 16;

/**
 * The brace a glob leaves unmatched: a `{` still open at its end, or a `}` with none open. The glob
 * matcher reads such a brace as itself (workspace/glob.ts), which no fixture path holds on purpose:
 * written in babelq.json, it is a typo that would leave the glob matching nothing in silence.
 */
function unbalancedBrace(glob: string): '{' | '}' | undefined {
  let depth = 0;
  for (const char of glob) {
    if (char === '{') depth++;
    else if (char === '}' && --depth < 0) return '}';
  }
  return depth > 0 ? '{' : undefined;
}

// Brackets are no class here but the characters themselves, and so are left alone: a folder named
// `[locale]` or `[id]` (Next.js, SvelteKit routes) is named by them, and `[ab]` cannot be told from it.

/** How deep the glob's `{` nest at most (an unclosed one counts while it is open). */
function braceDepth(glob: string): number {
  let depth = 0;
  let deepest = 0;
  for (const char of glob) {
    if (char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === '}' && depth > 0) depth--;
  }
  return deepest;
}

/** Deeper than any babelq.json or suppressions file needs, far below what overflows the parser. */
export const MAX_CONFIG_DEPTH = 64;

/** jsonc-parser's token kinds (a `const enum` there, which an isolated module cannot read). */
const TOKEN = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, end: 17 } as const;

/** The offset of the bracket that opens level MAX_CONFIG_DEPTH + 1, outside strings and comments; undefined when none does. */
function nestedTooDeep(text: string): number | undefined {
  const scanner = createScanner(text, false);
  let depth = 0;
  for (let token: number = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) {
    if (token === TOKEN.openBrace || token === TOKEN.openBracket) {
      if (++depth > MAX_CONFIG_DEPTH) return scanner.getTokenOffset();
    } else if (token === TOKEN.closeBrace || token === TOKEN.closeBracket) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** jsonc-parser's error names (`PropertyNameExpected`) as words (`property name expected`). */
function syntaxWords(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** An object node's properties as [key, key node, value node]; a key given twice is a problem (the last wins, as in JSON.parse). */
export function properties(object: JsoncNode, problems: ConfigProblem[]): [string, JsoncNode, JsoncNode][] {
  const result: [string, JsoncNode, JsoncNode][] = [];
  const seen = new Set<string>();
  for (const property of object.children ?? []) {
    const [keyNode, value] = property.children ?? [];
    if (!keyNode || !value || typeof keyNode.value !== 'string') continue;
    const key = keyNode.value;
    if (seen.has(key)) problems.push(at(keyNode, `"${shortened(key)}" is set twice; the last one applies.`));
    seen.add(key);
    result.push([key, keyNode, value]);
  }
  return result;
}

/** A node's value as JSON.parse would give it (objects and arrays rebuilt from their children). */
export function plainValue(node: JsoncNode): unknown {
  if (node.type === 'object') {
    const object: Record<string, unknown> = {};
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (key && value && typeof key.value === 'string') Object.defineProperty(object, key.value, { value: plainValue(value), enumerable: true, configurable: true, writable: true });
    }
    return object;
  }
  if (node.type === 'array') return (node.children ?? []).map(plainValue);
  return node.value;
}

export function at(node: JsoncNode, message: string): ConfigProblem {
  return { offset: node.offset, end: node.offset + node.length, message };
}
