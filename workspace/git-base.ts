/**
 * A file as it is at a git revision, for the editor's breaking-change check: `git cat-file blob
 * REV:PATH`, no checkout, never blocking the server. Only plumbing runs (no pager, no textconv, no
 * filter), with every route by which a checkout's own git config could run a command closed: the
 * fsmonitor hook off, no lazy fetch and no transport at all (workspace/git-command.ts, shared with
 * `babelq compat --base`), no system or global config; the server asks only in a workspace the user
 * trusts (server/schema-compat.ts). Each git run has a timeout and a cap on its output; a
 * folder that is not a git work tree, a missing git, a revision that does not exist and a file
 * that is new since it all answer "no base" (nothing to compare with), never an error the user
 * must act on. The revision is resolved to its commit again after a few seconds (a commit or a
 * checkout moves HEAD); a file's text at a commit never changes and is kept.
 */
import { dirname, relative } from 'node:path';
import { runGit } from './git-command';
import { leavesRoot, realPath } from './path-containment';

/** One git run may not take longer (a huge repository must not hold a diagnostic up for long). */
const GIT_TIMEOUT_MS = 3000;
/** How long a revision's commit is trusted before git is asked again. */
const REVISION_TTL_MS = 2000;
/** How long a folder's work tree top (or its absence) is trusted. */
const TOP_TTL_MS = 10_000;
/** File texts kept, by commit and path (each at most the schema size limit). */
const MAX_KEPT_TEXTS = 64;

export class GitBase {
  /** Work tree tops by folder; a folder outside one is asked again later (a `git init` may follow). */
  private readonly tops = new Map<string, { at: number; top: Promise<string | undefined> }>();
  private readonly commits = new Map<string, { at: number; commit: Promise<string | undefined> }>();
  private readonly texts = new Map<string, Promise<string | undefined>>();

  /** `limit`: the largest file text read (bytes); `run` is git itself (a test may stand in for a missing one). */
  constructor(
    private readonly limit: number,
    private readonly run: (cwd: string, args: readonly string[], maxBytes: number) => Promise<string | undefined> = readOnlyGit,
  ) {}

  /** The text of `path` at `revision`, or undefined when there is none to compare with. */
  async textAt(givenPath: string, revision: string): Promise<string | undefined> {
    // git answers with the real path; the file's path is made real too, so a linked folder compares.
    const path = realPath(givenPath);
    const top = await this.topOf(dirname(path));
    if (top === undefined) return undefined;
    const commit = await this.commitOf(top, revision);
    if (commit === undefined) return undefined;
    const within = relative(top, path);
    if (leavesRoot(within)) return undefined;
    const name = within.split('\\').join('/');
    const key = `${commit}:${name}`;
    let text = this.texts.get(key);
    if (!text) {
      text = this.run(top, ['cat-file', 'blob', `${commit}:${name}`], this.limit);
      this.texts.set(key, text);
      // A failed or timed-out read is not kept: the next edit asks again.
      void text.then((found) => {
        if (found === undefined && this.texts.get(key) === text) this.texts.delete(key);
      });
      while (this.texts.size > MAX_KEPT_TEXTS) this.texts.delete(this.texts.keys().next().value!);
    }
    return text;
  }

  /** The work tree's top folder holding `directory`, asked once per folder. */
  private topOf(directory: string): Promise<string | undefined> {
    const known = this.tops.get(directory);
    if (known && Date.now() - known.at < TOP_TTL_MS) return known.top;
    const top = this.run(directory, ['rev-parse', '--show-toplevel'], 4096).then((out) => out?.trim() || undefined);
    this.tops.set(directory, { at: Date.now(), top });
    return top;
  }

  private commitOf(top: string, revision: string): Promise<string | undefined> {
    const key = `${top}\0${revision}`;
    const known = this.commits.get(key);
    if (known && Date.now() - known.at < REVISION_TTL_MS) return known.commit;
    const commit = this.run(top, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], 4096).then((out) => out?.trim() || undefined);
    this.commits.set(key, { at: Date.now(), commit });
    return commit;
  }
}

/** git as the editor runs it: no fetch (workspace/git-command.ts) and no config but the repository's. */
function readOnlyGit(cwd: string, args: readonly string[], maxBytes: number): Promise<string | undefined> {
  return runGit(cwd, args, { timeoutMs: GIT_TIMEOUT_MS, maxBytes, isolated: true });
}
