/**
 * Finds and reads a registry and its schema files from disk (the only file I/O of the registry),
 * shared by the language server and the CLI so both see the same registry. Every path is checked
 * to stay inside the workspace folder, through `..`, absolute paths and symbolic links alike; a
 * path that escapes is refused before anything is read.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { looksLikeRegistry, readRegistryIndex } from '../core/registry/registry-file';
import { compileSchema } from '../core/registry/schema-compiler';
import { parseJson } from '../core/parse/parser';
import type { LoadedSchema, Registry, RegistryEntry, RegistryProblem, RegistryState } from '../core/registry/types';

export const REGISTRY_FILE_NAME = 'registry.json';

/** Reads a file's text, preferring what an editor holds in memory over the disk. */
export type TextReader = (absolutePath: string) => string;

/** The default reader: the disk, as UTF-8. */
export const readFromDisk: TextReader = (path) => readFileSync(path, 'utf8');

/** A loaded registry state and every file it depends on (to know when to load it again). */
export interface LoadResult {
  readonly state: RegistryState;
  readonly files: readonly string[];
}

/** True when `target` is `root` or lies below it, after resolving symbolic links where they exist. */
export function isInside(root: string, target: string): boolean {
  const lexical = relative(resolve(root), resolve(target));
  if (leavesRoot(lexical)) return false;
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return !leavesRoot(relative(real(root), real(target)));
}

/** True for a relative path that climbs out (`..`, `../x`), not for a name like `..schemas`. */
function leavesRoot(relativePath: string): boolean {
  return relativePath === '..' || relativePath.startsWith(`..${sep}`) || isAbsolute(relativePath);
}

/**
 * The registry for a fixture: the configured path (relative to the workspace folder) when given,
 * else the nearest registry.json in bqschema format at or above the fixture, inside the folder.
 */
export function findRegistry(fixturePath: string, workspaceRoot: string, configured: string | undefined, read: TextReader = readFromDisk): { path: string } | { error: string; path: string } | undefined {
  if (configured && configured.trim() !== '') {
    const path = resolve(workspaceRoot, configured);
    if (!isInside(workspaceRoot, path)) return { path, error: `The registry path "${configured}" resolves outside the workspace folder; it was not read.` };
    return { path };
  }
  let directory = dirname(resolve(fixturePath));
  const root = resolve(workspaceRoot);
  while (isInside(root, directory)) {
    const candidate = join(directory, REGISTRY_FILE_NAME);
    if (existsSync(candidate)) {
      // Contain before reading: a registry.json that links out of the folder is never opened.
      if (!isInside(root, candidate)) return { path: candidate, error: 'registry.json is a link that leaves the workspace folder; it was not read.' };
      try {
        if (looksLikeRegistry(read(candidate))) return { path: candidate };
      } catch {
        // An unreadable candidate is not a registry; keep looking upwards.
      }
    }
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return undefined;
}

/** Loads a registry and compiles each entry's schema once. Never throws. */
export function loadRegistry(registryPath: string, workspaceRoot: string, read: TextReader = readFromDisk): LoadResult {
  const files = [registryPath];
  if (!isInside(workspaceRoot, registryPath)) {
    return { files, state: { kind: 'broken', path: registryPath, error: 'The registry resolves outside the workspace folder; it was not read.' } };
  }
  let text: string;
  try {
    text = read(registryPath);
  } catch (error) {
    return { files, state: { kind: 'broken', path: registryPath, error: `registry.json cannot be read: ${describeError(error)}` } };
  }
  const index = readRegistryIndex(text);
  if (!index.ok) return { files, state: { kind: 'broken', path: registryPath, error: index.error, problems: index.problems } };

  const problems: RegistryProblem[] = [...index.problems];
  const base = dirname(registryPath);
  const schemas = new Map<string, LoadedSchema>();
  const entries: RegistryEntry[] = index.entries.map((entry) => {
    const schemaPath = resolve(base, entry.schemaRef);
    let schema = schemas.get(schemaPath);
    if (!schema) {
      files.push(schemaPath);
      schema = loadSchema(schemaPath, workspaceRoot, read);
      schemas.set(schemaPath, schema);
    }
    if (schema.error) problems.push({ offset: entry.schemaOffset, end: entry.schemaEnd, message: schema.error });
    return { ...entry, schema };
  });
  const byUrn = new Map(entries.map((entry) => [entry.urn, entry]));
  const registry: Registry = { path: registryPath, doc: index.doc, entries, byUrn, problems };
  return { files, state: { kind: 'loaded', registry } };
}

function loadSchema(path: string, workspaceRoot: string, read: TextReader): LoadedSchema {
  if (!isInside(workspaceRoot, path)) return { path, error: `The schema path resolves outside the workspace folder (${path}); it was not read.` };
  let text: string;
  try {
    if (statSync(path).isDirectory()) return { path, error: `The schema path ${path} is a directory, not a JSON Schema file.` };
    text = read(path);
  } catch (error) {
    return { path, error: `The schema file cannot be read: ${describeError(error)}` };
  }
  const doc = parseJson(text);
  if (doc.syntaxProblems.length > 0) return { path, doc, error: `The schema file ${path} is not valid JSON: ${doc.syntaxProblems[0].message}` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { path, doc, error: `The schema file ${path} is not valid JSON: ${describeError(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { path, doc, error: `The schema file ${path} must hold a JSON Schema object.` };
  const compiled = compileSchema(value);
  if ('error' in compiled) return { path, doc, value: value as Record<string, unknown>, error: `The schema ${path} is not a valid draft-07 JSON Schema: ${compiled.error}` };
  return { path, doc, value: value as Record<string, unknown>, compiled: compiled.compiled };
}

function describeError(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'the file does not exist';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}
