/**
 * How every git run of ours starts (the editor's base for breaking-change, `babelq compat
 * --base`): plumbing that reads this clone and never the network. A partial clone (`git clone
 * --filter`) fetches an object it lacks from its promisor remote on demand, which would be a
 * network side effect that is no broker operation, and could run the checkout's transport config
 * (`core.sshCommand`). `GIT_NO_LAZY_FETCH` stops that fetch before it starts (git 2.44, and the
 * 2.39.4, 2.40.2, 2.41.1, 2.42.2 and 2.43.4 security releases); on an older git the fetch still
 * starts, so every transport is refused too: `protocol.allow=never`, and each of git's own
 * protocols by name, since a repository's `protocol.<name>.allow` would win over `protocol.allow`.
 * A read that needs a missing object then fails, and the caller says so.
 */
import type { execFile as ExecFile, execFileSync as ExecFileSync } from 'node:child_process';
import { devNull } from 'node:os';

/** node:child_process, loaded at the first git run: `babelq lint` and most editor sessions run none, and would pay its few milliseconds at every start. */
const childProcess = () => require('node:child_process') as { execFile: typeof ExecFile; execFileSync: typeof ExecFileSync };

const NO_TRANSPORT = ['protocol.allow=never', ...['file', 'git', 'http', 'https', 'ssh', 'ext', 'fd'].map((name) => `protocol.${name}.allow=never`)];

export interface GitRunOptions {
  readonly timeoutMs: number;
  /** The most standard output read; a longer answer is a failure. */
  readonly maxBytes: number;
  /**
   * No system or global config, only the repository's: for the editor, which runs git on a
   * checkout's behalf. The CLI keeps the user's own config (a global `safe.directory` lets a CI
   * container read a checkout another user owns).
   */
  readonly isolated?: boolean;
}

/** The arguments and environment of one git run: no pager, no prompt, no fsmonitor hook, no fetch. */
export function gitInvocation(args: readonly string[], isolated = false): { args: string[]; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1', GIT_PROTOCOL_FROM_USER: '0', GIT_LITERAL_PATHSPECS: '1' };
  if (isolated) Object.assign(env, { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull });
  const config = ['core.fsmonitor=false', ...NO_TRANSPORT].flatMap((setting) => ['-c', setting]);
  return { args: ['--no-pager', ...config, ...args], env };
}

/** git's standard output, or undefined when it fails, times out or says more than `maxBytes`. */
export function runGit(cwd: string, args: readonly string[], options: GitRunOptions): Promise<string | undefined> {
  const invocation = gitInvocation(args, options.isolated);
  return new Promise((resolve) => {
    childProcess().execFile('git', invocation.args, { cwd, encoding: 'utf8', timeout: options.timeoutMs, maxBuffer: options.maxBytes, env: invocation.env, windowsHide: true }, (error, stdout) => {
      resolve(error ? undefined : stdout);
    });
  });
}

/** runGit, waited for: for the CLI, which has nothing else to do meanwhile. */
export function runGitSync(cwd: string, args: readonly string[], options: GitRunOptions): string | undefined {
  const invocation = gitInvocation(args, options.isolated);
  try {
    return childProcess().execFileSync('git', invocation.args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: options.timeoutMs, maxBuffer: options.maxBytes, env: invocation.env, windowsHide: true });
  } catch {
    return undefined;
  }
}
