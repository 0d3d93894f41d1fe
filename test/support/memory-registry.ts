/**
 * A registry built from texts held in memory, for tests of core features that need one (completion,
 * hover, definition): the same loader the editor and the CLI use, reading from a map instead of a
 * disk, under a folder that does not exist.
 */
import { join } from 'node:path';
import type { RegistryState } from '../../core/registry/types';
import { loadRegistry, type TextReader } from '../../workspace/registry-loader';

/** The folder the files seem to lie in (nothing is there on disk). */
export const MEMORY_ROOT = '/in-memory-workspace';

/** The registry of `files` (paths relative to MEMORY_ROOT; objects written as JSON), loaded from `registry.json`. */
export function memoryRegistry(files: Record<string, string | object>): RegistryState {
  const texts = new Map(Object.entries(files).map(([path, content]) => [join(MEMORY_ROOT, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2)]));
  const read: TextReader = (path) => {
    const text = texts.get(path);
    if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
    return text;
  };
  return loadRegistry(join(MEMORY_ROOT, 'registry.json'), MEMORY_ROOT, read).state;
}
