/**
 * A small option parser: enough for `--name value`, `--name=value`, flags and `--`, with every
 * unknown option an error, and an option of the command taken for another's value too. No dependency, so the bundle stays one small file.
 */
import { closestWord } from '../core/model/edit-distance';
import { CliError, quoted } from './errors';

export interface OptionSpec {
  /** True when the option takes a value (`--format json`); false for a flag (`--help`). */
  readonly value: boolean;
  /** Short aliases such as `-h`. */
  readonly aliases?: readonly string[];
}

export interface ParsedArgs {
  readonly positionals: string[];
  /** Flags map to `true`; a repeated option keeps its last value, as most CLIs do. */
  readonly options: Map<string, string | true>;
  /** Every value of each valued option, in order, for options that may be given more than once (`--id a --id b`). */
  readonly repeated: Map<string, string[]>;
}

/** Splits arguments into positionals and the options of `specs`; throws a usage CliError on anything else. */
export function parseArgs(args: readonly string[], specs: Readonly<Record<string, OptionSpec>>): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  const repeated = new Map<string, string[]>();
  const setValue = (name: string, value: string) => {
    options.set(name, value);
    repeated.set(name, [...(repeated.get(name) ?? []), value]);
  };
  const byName = new Map<string, [string, OptionSpec]>();
  for (const [name, spec] of Object.entries(specs)) {
    byName.set(`--${name}`, [name, spec]);
    for (const alias of spec.aliases ?? []) byName.set(alias, [name, spec]);
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    // A lone `-` is a positional by convention (stdin), not an option.
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = equals >= 0 ? arg.slice(0, equals) : arg;
    const entry = byName.get(flag);
    if (!entry) throw new CliError(`unknown option '${quoted(flag)}'${didYouMean(flag, [...byName.keys()])}`, true);
    const [name, spec] = entry;
    if (!spec.value) {
      if (equals >= 0) throw new CliError(`option '${flag}' does not take a value`, true);
      options.set(name, true);
      continue;
    }
    if (equals >= 0) {
      setValue(name, arg.slice(equals + 1));
      continue;
    }
    const next = args[i + 1];
    if (next === undefined) throw new CliError(`option '${flag}' needs a value`, true);
    // `--registry --format json`: the value was left out, and the next option would be taken for it
    // (a registry called '--format', then 'json' a path). A value that only looks like an option is still one.
    if (isOptionOf(next, byName)) throw new CliError(`option '${flag}' needs a value, and '${quoted(next)}' is an option of its own (for a value that starts so, write --${name}=${quoted(next)})`, true);
    setValue(name, next);
    i++;
  }
  return { positionals, options, repeated };
}

/**
 * ` (did you mean '--max-warnings'?)` for a long option (or a command) within two edits of one of
 * `known`, else ''. A short option (`-x`) is not guessed at: one letter is no evidence.
 */
export function didYouMean(typed: string, known: readonly string[]): string {
  if (typed.startsWith('-') && !typed.startsWith('--')) return '';
  const candidates = known.filter((name) => name.startsWith('--') === typed.startsWith('--'));
  const closest = closestWord(typed, candidates);
  return closest === undefined ? '' : ` (did you mean '${closest}'?)`;
}

/** Whether `arg` is one of the options in `byName` (`--format`, `--format=json`, `-h`). */
function isOptionOf(arg: string, byName: ReadonlyMap<string, unknown>): boolean {
  if (!arg.startsWith('-') || arg === '-' || arg === '--') return false;
  const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
  return byName.has(equals >= 0 ? arg.slice(0, equals) : arg);
}

/** The file argument that stands for standard input, by the usual convention (`./-` names a file called '-'). */
export const STANDARD_INPUT_ARGUMENT = '-';

/**
 * Refuses `-` among the file arguments of a command that reads named files only (preview, send,
 * compat): looked up as a file, it would be "no such file", or a file called '-' read in silence.
 */
export function refuseStandardInput(command: string, positionals: readonly string[]): void {
  if (positionals.includes(STANDARD_INPUT_ARGUMENT)) {
    throw new CliError(`${command} reads files, not standard input ('-'): save it to a file and name that (./- names a file called '-')`, true);
  }
}
