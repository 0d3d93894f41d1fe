/**
 * `babelq preview <file>`: the exact bytes that would be published. For one SDK, standard output
 * holds those bytes and nothing else (no trailing newline), so `babelq preview f > body` is the
 * body; `--hex` dumps them; `--sdk all` prints the full comparison of the six encoders.
 */
import { previewOutput } from '../core/message/preview';
import { buildMessage, type MessageOptions } from '../core/message/build';
import { LARAVEL_KEY_PREFIX } from '../core/contract/envelope';
import { literal } from '../core/model/describe-value';
import type { ParsedDocument } from '../core/model/tree';
import { parseArgs, refuseStandardInput } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { CliError, quotedPath } from './errors';
import { printable, printableLines } from './diagnostics';
import { brokerUrlEnvEmpty } from './send';
import { DEFAULT_BROKER_URL, MESSAGE_OPTION_SPECS, messageOptions, queueNameNote, readEnvelope, sdkOption } from './message-options';

export const PREVIEW_USAGE = `Usage: babelq preview <file> [options]

Prints the exact bytes that 'babelq send' would publish for an envelope file.

Options:
  --sdk <node|php|python|go|java|dotnet|auto|all>
                        the encoder (default auto: the SDK in meta.lang, else node);
                        'all' prints every SDK's bytes with the differences marked
  --hex                 a hex dump instead of the raw bytes (one encoder; --sdk all has its own)
  --no-fresh-ids        keep meta.id and meta.created_at as written (default: fresh ones)
  --queue <name>        the queue 'send --queue' publishes to, written as meta.queue in the body
  --layout <babelqueue|laravel>
                        the Redis layout (with laravel, a note on what a Laravel retry changes;
                        --sdk all shows the Redis commands and the bytes a retry leaves)
  --prefix <p>          Laravel's connection prefix, in the Redis commands of --sdk all
                        (with --layout laravel only)
  -h, --help            show this help

Exit status: 0 printed, 1 refused (bytes that are not UTF-8, a byte-order mark, a syntax error,
no URN: nothing to publish), 2 usage problem or a file that cannot be read.
`;

/** The preview command for the command table. */
export const previewCommand: Command = {
  synopsis: 'preview <file>',
  summary: 'print the exact bytes an envelope is published as (per SDK encoder)',
  run: runPreview,
};

/** Runs `babelq preview`. */
export function runPreview(args: readonly string[], environment: CliEnvironment): CommandResult {
  const { positionals, options } = parseArgs(args, { ...MESSAGE_OPTION_SPECS, hex: { value: false }, help: { value: false, aliases: ['-h'] } });
  if (options.has('help')) return { stdout: PREVIEW_USAGE, stderr: '', exitCode: 0 };
  if (positionals.length > 1) throw new CliError('preview takes one envelope file', true);
  refuseStandardInput('preview', positionals);
  const read = readEnvelope('preview', positionals[0], environment.cwd);
  const sdk = sdkOption(options.get('sdk'), true);
  // Each mode's own options, refused in the other rather than passed over.
  if (sdk === 'all' && options.has('hex')) throw new CliError("--hex dumps one encoder's bytes (--sdk node, php, …, or auto); --sdk all prints the comparison, with its own hex view of the body", true);
  if (sdk !== 'all' && options.has('prefix')) throw new CliError("--prefix is shown in the Redis commands of --sdk all with --layout laravel; one encoder's bytes do not depend on it", true);
  const target = brokerUrlEnvEmpty(environment.env)
    ? 'none: BABELQ_BROKER_URL is set but empty, which send refuses'
    : environment.env.BABELQ_BROKER_URL
      ? '(from BABELQ_BROKER_URL)'
      : DEFAULT_BROKER_URL;
  const built = messageOptions(options, 'auto');
  // Options are checked first (a usage error is 2); then content the tool refuses is 1, whether
  // its bytes are not UTF-8 or its text does not parse.
  if (!read.ok) return { stdout: '', stderr: `babelq: ${read.refusal}\n`, exitCode: 1 };
  const output = previewOutput(read.doc, { ...built, sdk, hex: options.has('hex'), target });
  if (!output.ok) return sdk === 'all' ? { stdout: `Nothing to publish: ${output.error}\n`, stderr: '', exitCode: 1 } : { stdout: '', stderr: `babelq: ${printable(quotedPath(positionals[0]))}: ${output.error}\n`, exitCode: 1 };
  // One encoder's output is the bytes themselves (for a pipe); the comparison of all is for people, and
  // its target lines carry the queue, URN and ids as the file spells them: escaped for the terminal.
  const queueNote = previewQueueNote(read.doc, { ...built, sdk: sdk === 'all' ? 'auto' : sdk }, typeof options.get('queue') === 'string');
  const notes = [...(queueNote === undefined ? [] : [queueNote]), ...output.notes];
  return { stdout: sdk === 'all' ? printableLines(output.text) : output.text, stderr: notes.map((note) => `babelq: ${note}\n`).join(''), exitCode: 0 };
}

/**
 * The note of `queueNameNote` for the queue the previewed message goes to. Its queue is that of the
 * published body (the auto encoder's): built again only where the text could name such a queue
 * (`queues:` or `.dlq` in it), so a preview of a large envelope is not encoded twice for nothing.
 */
function previewQueueNote(doc: ParsedDocument, options: MessageOptions, fromOption: boolean): string | undefined {
  const named = (text: string) => text.includes(LARAVEL_KEY_PREFIX) || text.includes('.dlq');
  if (fromOption ? !named(options.queue ?? '') : !named(doc.text)) return undefined;
  const built = buildMessage(doc, { ...options, freshIds: false });
  if (!built.ok) return undefined;
  const laravel = options.redisLayout === 'laravel';
  const goesTo = laravel ? `the Redis key ${literal(built.message.redis.listKey)}` : `the queue ${literal(built.message.queue)} (its Redis key, or its RabbitMQ queue)`;
  return queueNameNote(doc, built.message.queue, fromOption, goesTo, laravel);
}
