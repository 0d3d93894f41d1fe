/**
 * Turns `babelq lint` path arguments into the list of files to lint: files as given, directories
 * searched recursively for `*.babel.json`, glob patterns expanded. Order is part of the output
 * contract: arguments in the order given, each directory or glob expanded in sorted tree order.
 * Also how a message names a file from the run's folder (`namedFromCwd`).
 */
import { lstatSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { basename, dirname, join, normalize, relative, resolve, sep } from 'node:path';
import { CliError, describeFsError, notUtf8ArgumentNote, quotedPath } from './errors';
import { globDepth, globToRegExp, isGlobPattern, splitGlob } from '../workspace/glob';
import { ENVELOPE_SUFFIX, SKIPPED_DIRECTORIES } from '../workspace/fixture-files';
import { NO_IGNORES, type IgnoreFilter } from '../workspace/ignores';
import { isUnder, linkToFileIn, realPath } from '../workspace/path-containment';
import { notAFileToRead, type UnreadableFile } from '../workspace/bounded-read';
import { plural } from '../core/model/count-words';


export interface InputFile {
  /** The path as given, or as found below a given directory or glob base; shown in every format. */
  readonly path: string;
  readonly absolute: string;
}

/**
 * A file as messages name it: from the run's folder `cwd` (`../registry.json` above it), and
 * absolute only where no relative path leads (another drive). The folder itself, whose relative
 * path is empty, is named by `path` as given, so a message never names a file ''.
 */
export function namedFromCwd(cwd: string, path: string): string {
  return relative(cwd, path) || path;
}

/**
 * Expands path arguments (relative to `cwd`) into files; throws a CliError naming every path that
 * yields no file. Directory and glob walks leave out what `ignores` says; a file named as such is
 * always taken, unless `forceExclude`: then a named file or folder that a walk from `cwd` would
 * leave out is left out too, and a path whose fixtures were all left out is no error (a hook
 * names every staged file, and a fixture kept out of lint on purpose must not block a commit).
 */
export function resolveInputs(inputs: readonly string[], cwd: string, ignores: IgnoreFilter = NO_IGNORES, forceExclude = false): InputFile[] {
  const files: InputFile[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  const add = (path: string, absolute = resolve(cwd, path)): void => {
    // The same file reached twice (`a.babel.json .`) is linted once, at its first position.
    if (seen.has(absolute)) return;
    seen.add(absolute);
    files.push({ path, absolute });
  };

  for (const input of inputs) {
    const stats = statPath(resolve(cwd, input));
    if (stats instanceof Error) {
      problems.push(`cannot read '${quotedPath(input)}': ${describeFsError(stats)}`);
    } else if (stats && forceExclude && leftOutFromHere(resolve(cwd, input), stats.isDirectory(), cwd, ignores)) {
      continue;
    } else if (stats?.isDirectory()) {
      let found = 0;
      let ignored = 0;
      const shown = displayPrefix(input);
      const folders = countingFolders(ignores);
      const linksOut: string[] = [];
      const folderLinks: string[] = [];
      walk(resolve(cwd, input), '', Infinity, folders.ignores, (relative, absolute, unreadable) => {
        if (!relative.endsWith(ENVELOPE_SUFFIX)) return;
        if (ignores.skipFile(absolute)) {
          ignored++;
          return;
        }
        found++;
        const path = shown === undefined ? join(input, relative) : shown + relative;
        if (unreadable) problems.push(cannotRead(path, unreadable));
        else add(path, absolute);
      }, { roots: linkRootsFor(cwd, input), notFollowed: (relative) => {
          if (relative.endsWith(ENVELOPE_SUFFIX)) linksOut.push(join(input, relative));
        }, folderNotFollowed: (relative) => folderLinks.push(join(input, relative)) }, input);
      // Like an empty glob: linting nothing is almost always a wrong path in a CI config.
      // Only fixtures found and left out count: a folder the walk did not enter (a .gitignore'd tmp/)
      // may hold none, and a mistyped path must still fail the run.
      const allLeftOut = forceExclude && ignored > 0;
      if (found === 0 && !allLeftOut) problems.push(`no *${ENVELOPE_SUFFIX} files in directory '${quotedPath(input)}'${ignoredNote(ignored, folders.skipped)}${linksOutNote(linksOut)}${folderLinksNote(folderLinks)}`);
    } else if (stats) {
      add(input);
    } else if (isGlobPattern(input)) {
      // A literal file whose name holds `*` or `{` was taken above; only now is it a pattern.
      const { base, pattern } = splitGlob(input);
      const matcher = globToRegExp(pattern);
      let matched = 0;
      let ignored = 0;
      const folders = countingFolders(ignores);
      const linksOut: string[] = [];
      const baseStats = statPath(resolve(cwd, base));
      // The folder a glob starts from is named as a folder is: left out, it matches nothing there.
      if (forceExclude && baseStats && !(baseStats instanceof Error) && baseStats.isDirectory() && leftOutFromHere(resolve(cwd, base), true, cwd, ignores)) continue;
      if (baseStats && !(baseStats instanceof Error) && baseStats.isDirectory()) {
        walk(resolve(cwd, base), '', globDepth(pattern), folders.ignores, (relative, absolute, unreadable) => {
          if (!matcher.test(relative)) return;
          if (ignores.skipFile(absolute)) {
            ignored++;
            return;
          }
          matched++;
          if (unreadable) problems.push(cannotRead(join(base, relative), unreadable));
          else add(join(base, relative), absolute);
        }, { roots: linkRootsFor(cwd, base), notFollowed: (relative) => {
            if (matcher.test(relative)) linksOut.push(join(base, relative));
          } }, base);
      }
      const allLeftOut = forceExclude && ignored > 0;
      if (matched === 0 && !allLeftOut) problems.push(`no files match the pattern '${quotedPath(input)}'${ignoredNote(ignored, folders.skipped)}${linksOutNote(linksOut)}`);
    } else {
      // A link to nothing is there (`ls` lists it): said as a walk says it, not as a path that does not exist.
      const link = linkToNothing(resolve(cwd, input));
      problems.push(link ? cannotRead(input, link) : `no such file or directory: '${quotedPath(input)}'${afterEndOfOptionsNote(input)}${notUtf8ArgumentNote(input)}`);
    }
  }
  if (problems.length > 0) throw new CliError(problems.join('\n'));
  return files;
}

/**
 * Said of a missing path that starts with a dash: only `--` makes one a path (cli/args.ts), so it
 * may be an option given after it, as a pre-commit config's `args` are (pre-commit puts them after
 * the hook's entry, which ends in `--`).
 */
function afterEndOfOptionsNote(input: string): string {
  return input.startsWith('-') && input !== '-' ? " (after '--' every argument is a path: give options before it)" : '';
}

/**
 * A file a walk found that is not a file to read (a named pipe, a device, a link to nothing): said
 * as a file named so is (cli/lint-file.ts readFixture), and the run fails as it does for any file
 * it cannot read, rather than passing with one file fewer.
 */
function cannotRead(path: string, unreadable: UnreadableFile): string {
  return `cannot read '${quotedPath(path)}': ${describeFsError(unreadable)}`;
}

/** Why the symbolic link at `path` is no file to read, when one is there; undefined when nothing is. */
function linkToNothing(path: string): UnreadableFile | undefined {
  try {
    const link = lstatSync(path, { throwIfNoEntry: false });
    return link?.isSymbolicLink() ? notAFileToRead(path, link) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a walk of `cwd` would leave out the file or folder at `absolute`: ignored itself, or
 * inside a folder the walk would not enter (node_modules, .git, an ignored one) below `cwd`. A path
 * outside `cwd` (`../generated/a.babel.json` from a subfolder) is judged as a walk of the nearest
 * folder it shares with `cwd` would meet it: a .gitignore folder rule (`generated/`) matches the
 * folder, not the file, so the folders between are asked too, as an "ignore" glob's folder is.
 */
export function leftOutFromHere(absolute: string, isDirectory: boolean, cwd: string, ignores: IgnoreFilter): boolean {
  if (isDirectory ? ignores.skipDirectory(absolute) : ignores.skipFile(absolute)) return true;
  let root = resolve(cwd);
  while (!isUnder(root, absolute)) {
    // Nothing shared (another drive on Windows): the path is judged by itself alone.
    if (dirname(root) === root) return false;
    root = dirname(root);
  }
  for (let folder = dirname(absolute); folder !== root && isUnder(root, folder); folder = dirname(folder)) {
    if (SKIPPED_DIRECTORIES.has(basename(folder)) || ignores.skipDirectory(folder)) return true;
  }
  return false;
}

/**
 * Where a walk follows a link to a fixture: inside the current folder (the project, as the registry
 * and suppressions are bounded by it) or inside the folder walked.
 */
function linkRootsFor(cwd: string, walked: string): string[] {
  return [realPath(cwd), realPath(resolve(cwd, walked))];
}

/** Why a walk found nothing when it left files out. */
function ignoredNote(files: number, folders: number): string {
  if (files === 0 && folders === 0) return '';
  const what = folders === 0 ? plural(files, 'file') : files === 0 ? plural(folders, 'folder') : `${plural(files, 'file')} and ${plural(folders, 'folder')}`;
  return ` (${what} left out by .gitignore, .git/info/exclude or babelq.json "ignore"; --no-ignore lints them)`;
}

/** Why a walk found nothing when it met links to files it does not follow (walk says which). */
function linksOutNote(links: readonly string[]): string {
  if (links.length === 0) return '';
  if (links.length === 1) return ` ('${links[0]}' links to a file outside the folder walked and the current folder, and is not followed; name it to lint it)`;
  return ` (${links.length} links to files outside the folder walked and the current folder, such as '${links[0]}', are not followed; name one to lint it)`;
}

/** Why a directory walk found nothing when it met links to folders, which no walk follows. */
function folderLinksNote(links: readonly string[]): string {
  if (links.length === 0) return '';
  if (links.length === 1) return ` ('${links[0]}' is a symbolic link to a folder, which a walk does not follow; name it to lint the fixtures in it)`;
  return ` (${links.length} symbolic links to folders, such as '${links[0]}', are not followed by a walk; name one to lint the fixtures in it)`;
}

/** `ignores`, counting the folders a walk does not enter because of them (so "nothing found" can say why). */
function countingFolders(ignores: IgnoreFilter): { ignores: IgnoreFilter; skipped: number } {
  const counted = {
    skipped: 0,
    ignores: {
      skipFile: (absolute: string) => ignores.skipFile(absolute),
      skipDirectory: (absolute: string) => {
        const skip = ignores.skipDirectory(absolute);
        if (skip) counted.skipped++;
        return skip;
      },
    },
  };
  return counted;
}

/** Stats or undefined when nothing is there; other failures (permissions) come back as the error. */
function statPath(path: string): Stats | Error | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return error as Error;
  }
}

/**
 * What `join(input, relative)` puts before a '/'-separated relative path, when that is plain text
 * (POSIX paths): `join` normalises, and a walk of thousands of files would normalise each path.
 * Undefined where `join` must do the work (Windows, where it also turns '/' into '\\').
 */
function displayPrefix(input: string): string | undefined {
  if (sep !== '/') return undefined;
  const base = normalize(input);
  return base === '.' || base === './' ? '' : base.endsWith('/') ? base : `${base}/`;
}

/**
 * Visits the files under `directory` (absolute and normalized) in tree order (names sorted by
 * UTF-16 code unit, so the order does not depend on the locale), with their path relative to it
 * ('/'-separated) and their absolute path, made by appending names: thousands of files need no
 * path normalized each. Symbolic links to files inside the current folder or the folder walked
 * (`linkRoots`) count; a link to a file elsewhere is not followed (a checkout could link
 * `x.babel.json` to a secret on the machine, and the findings would quote it into a CI log):
 * named as such, it is linted; `links.notFollowed` is told of it, so a walk that found nothing
 * can say why. Symbolic links to directories are not followed, so a link cycle cannot make a lint
 * run endless. An entry that is no file to read (a named pipe, a socket, a device, a link to one,
 * to nothing, or that loops) is visited with why (`unreadable`), and never opened. A folder it
 * cannot read is a CliError naming it from `shownRoot`, the path given for `directory`.
 */
function walk(directory: string, prefix: string, depth: number, ignores: IgnoreFilter, visit: (relative: string, absolute: string, unreadable?: UnreadableFile) => void, links: WalkLinks, shownRoot: string): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    // Named from the path given (`shownRoot`), as every other message names a file: `directory`
    // is absolute, the runner's own folder layout in a CI log, where the user wrote `fixtures`.
    const shown = prefix === '' ? shownRoot : join(shownRoot, prefix.slice(0, -1));
    throw new CliError(`cannot read directory '${quotedPath(shown)}': ${describeFsError(error)}`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const base = directory.endsWith(sep) ? directory : directory + sep;
  for (const entry of entries) {
    const relative = prefix + entry.name;
    const absolute = base + entry.name;
    if (entry.isDirectory()) {
      if (depth > 1 && !SKIPPED_DIRECTORIES.has(entry.name) && !ignores.skipDirectory(absolute)) walk(absolute, `${relative}/`, depth - 1, ignores, visit, links, shownRoot);
    } else if (entry.isFile()) {
      visit(relative, absolute);
    } else if (entry.isSymbolicLink() && isFileTarget(absolute)) {
      if (linkToFileIn(links.roots, absolute)) visit(relative, absolute);
      else links.notFollowed(relative);
    } else if (entry.isSymbolicLink() && links.folderNotFollowed && isFolderTarget(absolute)) {
      links.folderNotFollowed(relative);
    } else {
      const unreadable = notAFileToRead(absolute, entry);
      if (unreadable) visit(relative, absolute, unreadable);
    }
  }
}

/** Where a walk follows links to files (real paths), and whom it tells of one it does not follow. */
interface WalkLinks {
  readonly roots: readonly string[];
  readonly notFollowed: (relative: string) => void;
  /** Told of each symbolic link to a folder (never followed), so a walk that found nothing can say why. */
  readonly folderNotFollowed?: (relative: string) => void;
}

function isFolderTarget(path: string): boolean {
  const stats = statPath(path);
  return stats !== undefined && !(stats instanceof Error) && stats.isDirectory();
}

function isFileTarget(path: string): boolean {
  const stats = statPath(path);
  return stats !== undefined && !(stats instanceof Error) && stats.isFile();
}
