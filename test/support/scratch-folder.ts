/** A scratch folder for a test file's workspace, removed after the file's tests. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after } from 'node:test';

export interface ScratchFolder {
  readonly base: string;
  /** The absolute path of `path` (relative to the folder). */
  at(path: string): string;
  /** Its file URI, as an editor names the document. */
  uriOf(path: string): string;
  /** Writes `text` (an object as pretty JSON) at `path`, making its folders. */
  write(path: string, text: unknown): void;
}

export function scratchFolder(prefix: string): ScratchFolder {
  const base = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(base, { recursive: true, force: true }));
  const at = (path: string) => join(base, path);
  return {
    base,
    at,
    uriOf: (path) => pathToFileURL(at(path)).href,
    write: (path, text) => {
      mkdirSync(dirname(at(path)), { recursive: true });
      writeFileSync(at(path), typeof text === 'string' ? text : `${JSON.stringify(text, null, 2)}\n`);
    },
  };
}
