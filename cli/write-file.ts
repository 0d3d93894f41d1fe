/**
 * Writing a user's file from the CLI (`--fix`, a suppressions baseline, pruning): through a
 * temporary file beside it and a rename, so an interrupted run leaves the old file or the new
 * one, never half of each; an existing file's mode is kept.
 */
import { chmodSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError, describeFsError } from './errors';

/** Replaces (or creates) `path` with `data`; `shown` is the path as the user gave it, for the error. */
export function writeFileAtomically(path: string, data: string | Uint8Array, shown = path): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.babelq-tmp`);
  try {
    const mode = statSync(path, { throwIfNoEntry: false })?.mode;
    writeFileSync(temporary, data, { flag: 'wx', ...(mode !== undefined ? { mode: mode & 0o7777 } : {}) });
    if (mode !== undefined) chmodSync(temporary, mode & 0o7777);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`cannot write '${shown}': ${describeFsError(error)}`);
  }
}
