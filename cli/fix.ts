/**
 * `babelq lint --fix` and `--fix-dry-run`: the safe fixes of core/language/fix-all.ts (the same the
 * editor runs on save as `source.fixAll.babelqueue`) applied to each file before it is linted.
 * `--fix` writes a changed file atomically (cli/write-file.ts);
 * `--fix-dry-run` writes nothing and returns a unified diff instead.
 */
import { isAbsolute, relative, sep } from 'node:path';
import { fixAll } from '../core/language/fix-all';
import { pointerAt } from '../core/model/json-pointer';
import type { ParsedDocument } from '../core/model/tree';
import type { CoreDiagnostic } from '../core/rules/diagnostic';
import { applySuppressions } from '../core/rules/settings/suppressions-file';
import { unifiedDiff } from '../core/model/unified-diff';
import { realPath } from '../workspace/path-containment';
import { decodeStrictly } from '../workspace/strict-utf8';
import { FRESH } from './fresh-values';
import { settingsFor, type LintContext } from './lint-file';
import type { InputFile } from './paths';
import { writeFileAtomically } from './write-file';

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
  /** For a dry run: the diff's name of a file outside the current folder, which git apply refuses there. */
  readonly outside?: string;
}

/**
 * Fixes one file's bytes (already read); writes the file when `mode` is 'fix' and anything changed.
 * For a dry run, `diffed` keeps the fixed bytes of each file diffed so far by its real path: a file
 * reached again (through another symbolic link) is linted as --fix would have left it, and diffed
 * once, since git apply refuses a second diff of the same file.
 */
export function fixFile(file: InputFile, bytes: Uint8Array, context: LintContext, mode: FixMode, diffed?: Map<string, Uint8Array>): FixOutcome {
  const real = mode === 'dry-run' && diffed ? realPath(file.absolute) : undefined;
  const earlier = real === undefined ? undefined : diffed!.get(real);
  if (earlier) return { bytes: earlier, applied: 0, diff: '' };
  const decoded = decodeStrictly(bytes);
  if (!decoded.ok) return { bytes, applied: 0, diff: '', skipped: 'not UTF-8' };
  const settings = settingsFor(context, file.absolute);
  const registry = context.registries.stateFor(file.absolute, settings.registryPath);
  // A finding its suppressions file accepts is hidden from the report, and its fix is not applied either.
  const suppressions = context.configs.suppressionsFor(file.absolute);
  const shown = suppressions.length === 0 ? undefined : (doc: ParsedDocument, diagnostics: readonly CoreDiagnostic[]) => applySuppressions(diagnostics, (diagnostic) => pointerAt(doc, diagnostic.offset), suppressions, context.today).kept;
  const result = fixAll(decoded.text, settings, registry, FRESH, shown);
  if (result.refused) return { bytes, applied: 0, diff: '', skipped: result.refused };
  if (result.applied === 0) return { bytes, applied: 0, diff: '' };
  const fixed = Buffer.from(result.text, 'utf8');
  if (mode === 'dry-run') {
    if (real !== undefined) diffed!.set(real, fixed);
    const { name, inside } = diffName(file, context.cwd);
    return { bytes: fixed, applied: result.applied, diff: unifiedDiff(decoded.text, result.text, name), ...(inside ? {} : { outside: name }) };
  }
  writeFileAtomically(file.absolute, fixed, file.path, true, bytes);
  return { bytes: fixed, applied: result.applied, diff: '' };
}

/**
 * The file's name in the diff's headers: its path from the current folder, normalised (`./a`,
 * `fx/../a` and `fx//a` all become what `git apply` and `patch -p1` accept, which is no `.` or `..`
 * segment), with `/` between the folders; a file outside the current folder keeps its path as given.
 * A file reached through a symbolic link is named where it really is, the file --fix writes: git
 * apply does not patch a file through a link (a link is a file of its own to git).
 * `inside` is false for a file outside the current folder: git apply and patch refuse its path there.
 */
function diffName(file: InputFile, cwd: string): { readonly name: string; readonly inside: boolean } {
  const inside = (from: string, to: string) => {
    const shown = relative(from, to);
    return shown === '' || isAbsolute(shown) || shown === '..' || shown.startsWith(`..${sep}`) ? undefined : shown;
  };
  const below = inside(realPath(cwd), realPath(file.absolute)) ?? inside(cwd, file.absolute);
  const path = below ?? file.path;
  return { name: sep === '\\' ? path.split('\\').join('/') : path, inside: below !== undefined };
}
