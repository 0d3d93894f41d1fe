/**
 * `babelq lint --config <file>`: the VS Code settings shape in a JSON file, normalised by the same
 * core function the language server uses, so a config file and the editor settings cannot mean
 * different things. Accepted shapes: flat dotted keys (`"babelqueue.diagnostics.severity"`), a
 * nested `"babelqueue"` object, or the section itself (`{"diagnostics": {"severity": …}}`). The
 * file may have comments and trailing commas, as VS Code's own settings.json may.
 */
import { createScanner } from 'jsonc-parser';
import { readBoundedBytes } from '../workspace/bounded-read';
import { MAX_CONFIG_FILE_BYTES } from '../workspace/project-config';
import { PROJECT_CONFIG_FILE, PROJECT_CONFIG_KEYS } from '../core/rules/settings/project-config';
import { closestWord } from '../core/model/edit-distance';
import { basename, resolve } from 'node:path';
import { messageOutsideEnvelope, parseJson } from '../core/parse/parser';
import { LineIndex } from '../core/model/positions';
import { readSettingsLayer, SETTING_KEYS, type SettingsLayer } from '../core/rules/settings/settings';
import { CliError, describeFsError, quoted, quotedPath } from './errors';
import { isRecord } from '../core/model/js-value';
import { asObject, forEachValue, type PropertyNode, type ValueNode } from '../core/model/tree';

const NAMESPACE = 'babelqueue';

/** Setting keys relative to the `babelqueue` section (`diagnostics.severity`, …). */
const KNOWN_KEYS = new Set<string>(Object.values(SETTING_KEYS).map((key) => key.slice(NAMESPACE.length + 1)));
/** Short names a config file may use at its top level: `validator` is `registry.validator`. */
const SHORT_KEYS = new Map<string, string>([['validator', 'registry.validator']]);
/** Their proper prefixes (`diagnostics`, …), where a nested object is walked instead of rejected. */
const KNOWN_GROUPS = new Set<string>();
for (const key of KNOWN_KEYS) {
  const parts = key.split('.');
  for (let i = 1; i < parts.length; i++) KNOWN_GROUPS.add(parts.slice(0, i).join('.'));
}

/**
 * Reads, parses and checks a settings file into the settings it sets (applied over babelq.json,
 * as editor settings are); throws a CliError (exit 2) with the reason on any problem.
 */
export function loadConfig(file: string, cwd: string): SettingsLayer {
  let bytes: Uint8Array;
  try {
    bytes = readBoundedBytes(resolve(cwd, file), MAX_CONFIG_FILE_BYTES);
  } catch (error) {
    throw new CliError(`cannot read config file '${quotedPath(file)}': ${describeFsError(error)}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CliError(`config file '${quotedPath(file)}' is not valid UTF-8`);
  }
  // The BOM is not stripped by the decoder above; a settings file saved with one is still fine.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  // VS Code writes settings.json with comments and trailing commas: blanked, at the same offsets,
  // so what follows reads strict JSON and still gives the line and column of the file as written.
  const strict = blankCommentsAndTrailingCommas(text);
  if (strict.unclosedComment !== undefined) {
    const { line, character } = new LineIndex(text).positionAt(strict.unclosedComment);
    throw new CliError(`config file '${quotedPath(file)}' is not valid JSON: ${line + 1}:${character + 1}: this /* comment is never closed with */`);
  }
  text = strict.text;
  // VS Code reads a settings.json with nothing but comments (every setting commented out) or
  // nothing at all as no settings; so does --config, which takes a settings.json as it is.
  if (text.trim() === '') return readSettingsLayer({}).layer;
  // The core parser gives line and column for the first problem, which JSON.parse does not.
  const doc = parseJson(text);
  const problem = doc.syntaxProblems[0];
  if (problem) {
    const { line, character } = new LineIndex(text).positionAt(problem.offset);
    throw new CliError(`config file '${quotedPath(file)}' is not valid JSON: ${line + 1}:${character + 1}: ${messageOutsideEnvelope(problem.message)}`);
  }
  // JSON.parse below keeps the last of two equal keys: an earlier setting would be dropped in silence.
  const twice = settingSetTwice(doc.root);
  if (twice) {
    const { line, character } = new LineIndex(text).positionAt(twice.keyOffset);
    throw new CliError(`config file '${quotedPath(file)}': ${line + 1}:${character + 1}: "${quoted(twice.key)}" is set twice in one object; keep one (the last would apply)`);
  }
  const raw: unknown = JSON.parse(text);
  if (!isRecord(raw)) throw new CliError(`config file '${quotedPath(file)}' must hold a JSON object of babelqueue settings`);

  const { section, problems } = flattenSection(raw);
  const read = readSettingsLayer(Object.fromEntries(section));
  problems.push(...read.problems.map((p) => `${p.setting}: ${p.message}`));
  const projectHint = babelqJsonHint(raw, basename(file) === PROJECT_CONFIG_FILE);
  if (projectHint) problems.push(projectHint);
  if (problems.length > 0) throw new CliError(problems.map((p) => `config file '${quotedPath(file)}': ${p}`).join('\n'));
  return read.layer;
}

/** The keys only a babelq.json has, none of them a setting. */
const PROJECT_ONLY_KEYS = PROJECT_CONFIG_KEYS.filter((key) => !KNOWN_KEYS.has(key) && !KNOWN_GROUPS.has(key) && !SHORT_KEYS.has(key) && key !== '$schema');

/**
 * What to say of a babelq.json given as --config (its keys, not the settings'): each of them would
 * be an unknown setting, and the way out is to give no --config at all, since lint reads it anyway;
 * a file of another name (`named`: false) lint reads only once it is named babelq.json.
 */
function babelqJsonHint(raw: Record<string, unknown>, named: boolean): string | undefined {
  const keys = Object.keys(raw);
  if (keys.some((key) => key === NAMESPACE || key.startsWith(`${NAMESPACE}.`))) return undefined;
  const project = keys.filter((key) => PROJECT_ONLY_KEYS.includes(key));
  if (project.length === 0) return undefined;
  const what = named ? `this is a ${PROJECT_CONFIG_FILE} (its keys ${project.join(', ')}): lint reads it on its own` : `this holds ${PROJECT_CONFIG_FILE}'s keys (${project.join(', ')}): named ${PROJECT_CONFIG_FILE}, lint reads it on its own`;
  return `${what}, from each fixture's folder upward; --config takes the editor's babelqueue.* settings, such as { "babelqueue.diagnostics.severity": { "extension-key": "off" } }`;
}

/** jsonc-parser's token kinds (a `const enum` there, which an isolated module cannot read). */
const TOKEN = { closeBrace: 2, closeBracket: 4, comma: 5, lineComment: 12, blockComment: 13, lineBreak: 14, whitespace: 15, end: 17 } as const;
/** jsonc-parser's ScanError.UnexpectedEndOfComment (a `const enum` as well). */
const UNCLOSED_COMMENT = 1;

/**
 * The text with every comment and every comma before a closing `}` or `]` turned into spaces
 * (line breaks inside a block comment kept), so each character stays at its offset; or where a
 * block comment starts that is never closed.
 */
function blankCommentsAndTrailingCommas(text: string): { text: string; unclosedComment?: number } {
  const scanner = createScanner(text, false);
  const blanks: [number, number][] = [];
  let comma: number | undefined;
  for (let token: number = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) {
    if (token === TOKEN.blockComment && (scanner.getTokenError() as number) === UNCLOSED_COMMENT) return { text, unclosedComment: scanner.getTokenOffset() };
    if (token === TOKEN.lineComment || token === TOKEN.blockComment) {
      blanks.push([scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength()]);
    } else if (token !== TOKEN.lineBreak && token !== TOKEN.whitespace) {
      if (comma !== undefined && (token === TOKEN.closeBrace || token === TOKEN.closeBracket)) blanks.push([comma, comma + 1]);
      comma = token === TOKEN.comma ? scanner.getTokenOffset() : undefined;
    }
  }
  let result = '';
  let from = 0;
  for (const [start, end] of blanks) {
    result += text.slice(from, start) + text.slice(start, end).replace(/[^\r\n]/g, ' ');
    from = end;
  }
  return { text: result + text.slice(from) };
}

/**
 * The first key that appears twice in one object among the file's babelqueue settings (the whole
 * file when it does not use the `babelqueue` namespace; other extensions' keys are not looked at).
 */
function settingSetTwice(root: ValueNode | undefined): PropertyNode | undefined {
  const object = asObject(root);
  if (!object) return undefined;
  const namespaced = object.properties.some((property) => property.key === NAMESPACE || property.key.startsWith(`${NAMESPACE}.`));
  const ours = namespaced ? object.properties.filter((property) => property.key === NAMESPACE || property.key.startsWith(`${NAMESPACE}.`)) : object.properties;
  let first: PropertyNode | undefined;
  const check = (properties: readonly PropertyNode[]) => {
    const seen = new Set<string>();
    for (const property of properties) {
      if (seen.has(property.key)) {
        if (!first || property.keyOffset < first.keyOffset) first = property;
        return;
      }
      seen.add(property.key);
    }
  };
  check(ours);
  for (const property of ours) {
    if (property.value) forEachValue(property.value, (node) => node.kind === 'object' && check(node.properties));
  }
  return first;
}

/**
 * Brings every accepted shape to flat relative keys (`diagnostics.severity`) and rejects unknown
 * keys: a misspelt setting would otherwise be ignored in silence and CI would pass on defaults.
 * Keys outside the `babelqueue` namespace are ignored when the file uses it, so a VS Code
 * `settings.json` with other extensions' settings works as is.
 */
function flattenSection(raw: Record<string, unknown>): { section: Map<string, unknown>; problems: string[] } {
  const section = new Map<string, unknown>();
  const problems: string[] = [];
  const namespaced = Object.keys(raw).some((key) => key === NAMESPACE || key.startsWith(`${NAMESPACE}.`));
  const label = (path: string): string => (namespaced ? `${NAMESPACE}.${path}` : path);
  const visit = (object: Record<string, unknown>, prefix: string): void => {
    for (const [key, value] of Object.entries(object)) {
      const path = SHORT_KEYS.get(prefix ? `${prefix}.${key}` : key) ?? (prefix ? `${prefix}.${key}` : key);
      if (KNOWN_KEYS.has(path)) {
        if (section.has(path)) problems.push(`${label(path)} is set twice`);
        section.set(path, value);
      } else if (KNOWN_GROUPS.has(path) && isRecord(value)) {
        visit(value, path);
      } else {
        const near = closestWord(path, [...KNOWN_KEYS]);
        problems.push(`unknown setting "${label(path)}"${near ? ` (did you mean "${label(near)}"?)` : ''}`);
      }
    }
  };
  if (!namespaced) {
    visit(raw, '');
    return { section, problems };
  }
  for (const [key, value] of Object.entries(raw)) {
    if (key === NAMESPACE) {
      if (isRecord(value)) visit(value, '');
      else problems.push(`"${NAMESPACE}" must be an object of settings`);
    } else if (key.startsWith(`${NAMESPACE}.`)) {
      visit({ [key.slice(NAMESPACE.length + 1)]: value }, '');
    }
  }
  return { section, problems };
}
