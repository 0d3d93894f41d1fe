/**
 * `babelq lint --fix` and `--fix-dry-run`: the safe fixes of core/language/fix-all.ts (the same the
 * editor runs on save as `source.fixAll.babelqueue`) applied to each file before it is linted.
 * `--fix` writes a changed file atomically (a temporary file beside it, its mode copied, then a
 * rename), so an interrupted run leaves the old file or the new one, never half of each;
 * `--fix-dry-run` writes nothing and returns a unified diff instead.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fixAll } from '../core/language/fix-all';
import { unifiedDiff } from '../core/model/unified-diff';
import { CliError, describeFsError } from './errors';
import { decodeStrictly, settingsFor, type LintContext } from './lint-file';
import type { InputFile } from './paths';

const FRESH = { uuid: randomUUID, now: Date.now };

export type FixMode = 'fix' | 'dry-run';

export interface FixOutcome {
  /** The bytes to lint: the fixed text when something changed, else the bytes as read. */
  readonly bytes: Uint8Array;
  /** How many fixes applied. */
  readonly applied: number;
  /** For a dry run: the diff of what --fix would write ('' when nothing). */
  readonly diff: string;
  /** Set when the file was left alone on purpose. */
  readonly skipped?: string;
}

/** Fixes one file's bytes (already read); writes the file when `mode` is 'fix' and anything changed. */
export function fixFile(file: InputFile, bytes: Uint8Array, context: LintContext, mode: FixMode): FixOutcome {
  const decoded = decodeStrictly(bytes);
  if (!decoded.ok) return { bytes, applied: 0, diff: '', skipped: 'not UTF-8' };
  const settings = settingsFor(context, file.absolute);
  const registry = context.registries.stateFor(file.absolute, settings.registryPath);
  const result = fixAll(decoded.text, settings, registry, FRESH);
  if (result.refused) return { bytes, applied: 0, diff: '', skipped: result.refused };
  if (result.applied === 0) return { bytes, applied: 0, diff: '' };
  const fixed = Buffer.from(result.text, 'utf8');
  if (mode === 'dry-run') return { bytes: fixed, applied: result.applied, diff: unifiedDiff(decoded.text, result.text, file.path.split('\\').join('/')) };
  writeAtomically(file, fixed);
  return { bytes: fixed, applied: result.applied, diff: '' };
}

/** Writes through a temporary file in the same folder and a rename, keeping the file's mode. */
function writeAtomically(file: InputFile, bytes: Uint8Array): void {
  const temporary = join(dirname(file.absolute), `.${basename(file.absolute)}.${process.pid}.babelq-fix`);
  try {
    const { mode } = statSync(file.absolute);
    writeFileSync(temporary, bytes, { flag: 'wx', mode: mode & 0o7777 });
    chmodSync(temporary, mode & 0o7777);
    renameSync(temporary, file.absolute);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`cannot write the fixes to '${file.path}': ${describeFsError(error)}`);
  }
}
