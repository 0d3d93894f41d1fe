/**
 * The `babelq` entry point (bundled to dist/cli.js): picks the command, runs it, writes stdout
 * once and sets the exit status. Commands live in one table.
 */
import { existsSync, fstatSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { version } from '../package.json';
import { didYouMean } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { printable } from './diagnostics';
import { megabytes, readFileStart } from '../workspace/bounded-read';
import { compatCommand } from './compat';
import { dlqCommand } from './dlq';
import { gdprCommand } from './gdpr';
import { CliError, describeFsError, quoted } from './errors';
import { internalErrorText } from './internal-error';
import { redact } from '../broker/errors';
import { lintCommand } from './lint';
import { runAsLintShare } from './lint-threads';
import { startedAsLintShare } from './lint-share-role';
import { lspCommand } from './lsp';
import { peekCommand } from './peek';
import { previewCommand } from './preview';
import { sendCommand } from './send';

const COMMANDS: Readonly<Record<string, Command>> = {
  lint: lintCommand,
  preview: previewCommand,
  send: sendCommand,
  peek: peekCommand,
  lsp: lspCommand,
  dlq: dlqCommand,
  compat: compatCommand,
  gdpr: gdprCommand,
};

/** The top-level help text, built from the command table so a new command lists itself. */
export function usage(): string {
  const width = Math.max(...Object.values(COMMANDS).map((command) => command.synopsis.length));
  const commands = Object.values(COMMANDS).map((command) => `  ${command.synopsis.padEnd(width)}  ${command.summary}`);
  return [
    'Usage: babelq <command> [options]',
    '',
    'Tools for BabelQueue envelope fixtures (*.babel.json).',
    '',
    'Commands:',
    ...commands,
    '',
    'Options:',
    '  -h, --help     show this help (babelq help <command>: that command\'s)',
    '  -v, --version  print the version',
    '',
    "Run 'babelq <command> --help' for the options of a command.",
    '',
  ].join('\n');
}

/** Runs babelq with the arguments after the program name; never throws, every failure is exit status 2. */
export async function runCli(argv: readonly string[], environment: CliEnvironment): Promise<CommandResult> {
  const [name, ...rest] = argv;
  const command = name !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (name === '-h' || name === '--help' || name === 'help') {
      // `babelq help lint` and `babelq --help lint` are what `babelq lint --help` shows, as git's are.
      const [topic, ...extra] = rest;
      if (topic === undefined) return { stdout: usage(), stderr: '', exitCode: 0 };
      if (!Object.prototype.hasOwnProperty.call(COMMANDS, topic)) throw new CliError(`no help for '${quoted(topic)}': it is not a command (${Object.keys(COMMANDS).join(', ')})`, true);
      if (extra.length > 0) throw new CliError(`${name} takes one command, not '${quoted(extra.join(' '))}'`, true);
      return await COMMANDS[topic].run(['--help'], environment);
    }
    if (name === '-v' || name === '--version') {
      // An argument after it is a command line typed wrong (`babelq --version lint`): refused, as help refuses a second command.
      if (rest.length > 0) throw new CliError(`${name} takes no arguments, not '${quoted(rest.join(' '))}'`, true);
      return { stdout: `${environment.version}\n`, stderr: '', exitCode: 0 };
    }
    if (name === undefined) return { stdout: '', stderr: usage(), exitCode: 2 };
    // `help` is a command line of its own (`babelq help lint`), so a misspelt one is guessed as it.
    if (!command) throw new CliError(`unknown ${name.startsWith('-') ? 'option' : 'command'} '${quoted(name)}'${didYouMean(name, [...Object.keys(COMMANDS), 'help', '--help', '--version'])}`, true);
    return await command.run(rest, environment);
  } catch (error) {
    if (error instanceof CliError) {
      const help = command ? `babelq ${name} --help` : 'babelq --help';
      const hint = error.usage ? `\nRun '${help}' for usage.` : '';
      // Names in the message (a file's, a queue's) come from the user's files: printable, line by
      // line. A usage error quotes what it was given, and a broker URL given in the wrong place (a
      // file's, a command's, another option's) carries its password: masked, as in a broker error.
      return { stdout: '', stderr: `babelq: ${redact(error.message).split('\n').map((line) => printable(line)).join('\nbabelq: ')}${hint}\n`, exitCode: 2 };
    }
    return { stdout: '', stderr: `babelq: internal error, please report it:\n${internalErrorText(error, argv, environment.env)}\n`, exitCode: 2 };
  }
}


/** What to do instead, said after either message below. */
const STDIN_INSTEAD = 'pipe the envelope in (babelq lint --stdin < a.babel.json), or name the file to lint';
/**
 * Said when descriptor 0 is /dev/null open for reading and writing (`babelq lint --stdin <&-`):
 * what Node puts in place of a closed one, and also what Python's subprocess.DEVNULL, systemd's
 * StandardInput=null and `<>/dev/null` give, which nothing tells apart from it.
 */
const STDIN_CLOSED = `standard input is closed, or is /dev/null opened for reading and writing (which is what Node puts in place of a closed one): there is no envelope to read; ${STDIN_INSTEAD}`;
/** Said when reading descriptor 0 gives EBADF: closed, or open for writing only (nohup's /dev/null). */
const STDIN_UNREADABLE = `standard input cannot be read (it is closed, or open for writing only): there is no envelope to read; ${STDIN_INSTEAD}`;

/** O_ACCMODE and O_RDWR of Linux's open flags, as /proc/self/fdinfo shows them (octal). */
const ACCESS_MODE = 0o3;
const READ_WRITE = 0o2;

/**
 * Whether standard input was closed when babelq started, as far as can be told. Node puts
 * /dev/null, opened read-write, in place of a closed descriptor 0 before any script runs, so a
 * closed input reads as an empty one; a shell's `</dev/null` and a parent's `stdio: 'ignore'` open it read-only, and stay an
 * empty input. A /dev/null a parent opened read-write (Python's subprocess.DEVNULL, systemd's
 * StandardInput=null, `<>/dev/null`) is the same open file as Node's and counts too: the message
 * (STDIN_CLOSED) says both. Told apart where the system shows how descriptor 0 is open (Linux's
 * /proc/self/fdinfo); elsewhere a closed standard input still reads as an empty one.
 */
function standardInputClosed(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stdin = fstatSync(0);
    if (!stdin.isCharacterDevice() || stdin.rdev !== statSync('/dev/null').rdev) return false;
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileStart('/proc/self/fdinfo/0', 4096).toString('latin1'));
    return flags !== null && (parseInt(flags[1], 8) & ACCESS_MODE) === READ_WRITE;
  } catch {
    // Nothing to tell it by (no /proc mounted): read it, as before.
    return false;
  }
}

/** Standard input, read to its end but never more than `limit` bytes (a stream that never ends is cut off, not waited for forever: its size is). */
function readStdin(limit: number): Uint8Array {
  if (standardInputClosed()) throw new CliError(STDIN_CLOSED);
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let read: number;
    try {
      read = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      // A non-blocking stdin (a pipe set up so by the parent) says "try again"; wait for it.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if ((error as NodeJS.ErrnoException).code === 'EOF') break;
      // A descriptor 0 that is not open for reading: closed where Node leaves it so, or write-only.
      if ((error as NodeJS.ErrnoException).code === 'EBADF') throw new CliError(STDIN_UNREADABLE);
      throw error;
    }
    if (read === 0) break;
    total += read;
    if (total > limit) throw new CliError(`standard input holds more than ${megabytes(limit)}, the most this tool reads for one envelope file; it was not linted`);
    chunks.push(Buffer.from(chunk.subarray(0, read)));
  }
  return Buffer.concat(chunks);
}

async function main(): Promise<void> {
  const result = await runCli(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    version,
    readStdin,
    ...(existsSync(BUNDLE_ENTRY) ? { lintWorkerScript: BUNDLE_ENTRY } : {}),
  });
  // No process.exit(): it could cut a large report short while stdout is still flushing to a pipe.
  // Set before writing, so a failed write (reported now or later) has the last word on it.
  process.exitCode = result.exitCode;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // `babelq lint | head` closes the pipe early; that is the reader's choice, not a crash.
    if (error.code === 'EPIPE') return;
    // A report cut short (a full disk under `> out.sarif`) is an I/O problem, not findings or a clean run.
    process.exitCode = 2;
    process.stderr.write(`babelq: cannot write to standard output: ${describeFsError(error)}\n`);
  });
  if (result.stderr) process.stderr.write(result.stderr);
  if (result.stdout) process.stdout.write(result.stdout);
}

/**
 * dist/cli.js beside this bundle (dist/cli-main.js): what a lint thread runs, with the code cache.
 * Run from the sources (tsx) there is none, and lint keeps to one thread.
 */
const BUNDLE_ENTRY = join(__dirname, 'cli.js');

// The same bundle is a lint thread when `babelq lint --concurrency` starts it as one (cli/lint-threads.ts).
if (startedAsLintShare()) void runAsLintShare().then((ran) => (ran ? undefined : main()));
else void main();
