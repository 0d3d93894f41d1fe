/**
 * A real partial clone (`git clone --filter=blob:none`) of a local repository that would serve
 * its missing blobs on demand, so a test can tell whether anything fetched them: a blob still
 * missing afterwards was not fetched.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PartialClone {
  /** The folder holding the source repository and the clone; remove it after the test. */
  readonly root: string;
  /** The clone's work tree (checked out with nothing: every file blob is missing). */
  readonly clone: string;
  readonly git: (cwd: string, ...args: string[]) => string;
  /** The blobs of HEAD's tree that the clone does not hold. */
  readonly missingBlobs: () => string[];
}

/** `files` committed in a source repository that serves any object a filter left out, and a blob-less clone of it. */
export function partialClone(files: Readonly<Record<string, string>>): PartialClone {
  const root = mkdtempSync(join(tmpdir(), 'babelq-partial-'));
  const source = join(root, 'source');
  const clone = join(root, 'clone');
  const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  mkdirSync(source);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(source, path)), { recursive: true });
    writeFileSync(join(source, path), text);
  }
  git(source, 'init', '-q');
  git(source, 'add', '.');
  git(source, 'commit', '-q', '-m', 'base');
  git(source, 'config', 'uploadpack.allowFilter', 'true');
  git(source, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  git(root, 'clone', '-q', '--filter=blob:none', '--no-checkout', pathToFileURL(source).href, clone);
  const missingBlobs = () => git(clone, 'rev-list', '--objects', '--missing=print', 'HEAD').split('\n').filter((line) => line.startsWith('?')).map((line) => line.slice(1));
  return { root, clone, git, missingBlobs };
}
