/**
 * What a subcommand gets and gives back. Commands return their output instead of writing it, so
 * the entry point writes stdout once and sets the exit status only after everything succeeded.
 */

export interface CliEnvironment {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is a terminal (colour for people, plain text for pipes and files). */
  readonly stdoutIsTTY: boolean;
  /** The babelq version, for `--version` and SARIF's tool.driver.version. */
  readonly version: string;
  /** Standard input's bytes, at most `limit` (more throws); for `babelq lint --stdin`. */
  readonly readStdin?: (limit: number) => Uint8Array;
  /** Today as YYYY-MM-DD (a suppression's `until` is compared with it); the clock's date in UTC when unset. */
  readonly today?: string;
  /**
   * The script a lint thread runs (the bundle's entry, dist/cli.js), for `babelq lint --concurrency`;
   * unset (the CLI run in process, as by the tests), lint uses this thread alone.
   */
  readonly lintWorkerScript?: string;
}

export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

export interface Command {
  /** The argument synopsis after the command name, for the help text. */
  readonly synopsis: string;
  /** One line for the command list of `babelq --help`. */
  readonly summary: string;
  /** Network commands (send, peek) answer asynchronously. */
  run(args: readonly string[], environment: CliEnvironment): CommandResult | Promise<CommandResult>;
}
