/**
 * `babelq peek`: the messages on a queue (or its dead-letter queue) as a message viewer lists
 * them: URN, meta.id, created at, attempts, size and the lint verdict, with a filter;
 * `--format json` gives the same rows with each body and its diagnostics for scripts. Redis reads
 * the newest messages (the list's tail) without removing anything and shows them newest first;
 * RabbitMQ can only get messages from the head of a queue, so it shows the next ones a consumer
 * would get, in that order, and requeues them, which can change the order in which consumers
 * receive them (said in the output).
 */
import { deadLetterLocation, listingOrder, matchesFilter } from '../core/message/dead-letter';
import { redisProjection } from '../core/message/build';
import { isBrokerError } from '../broker/errors';
import { parseArgs } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { brokerErrorExit, CliError, quoted } from './errors';
import { messageJudgement } from './message-judgement';
import { byteBoundNote, countOption, describeQueue, frameLine, readRows, rowJson, rowLine, type QueueRead } from './message-list';
import { quorumNote } from './quorum-deliveries';
import { DEFAULT_BROKER_URL, layoutOptions } from './message-options';
import { brokerTarget, MAX_TIMEOUT_MS, refuseRedisOptions, remoteReadRefusal, timeoutOption } from './send';
import { printableLines } from './diagnostics';
import { GITHUB_WORKSPACE } from '../workspace/github-workspace';

export const PEEK_USAGE = `Usage: babelq peek --queue <name> [options]

Lists the messages on a queue, each validated like a fixture: on Redis the newest, newest first;
on RabbitMQ the first ones at the head of the queue, in the order a consumer would get them
(RabbitMQ cannot read a queue from its tail).

Options:
  --queue <name>        the logical queue (required)
  --dlq                 read the queue's dead-letter queue instead (<queue>.dlq in the layout)
  --broker <url>        as for send (default: BABELQ_BROKER_URL, else ${DEFAULT_BROKER_URL})
  --layout <babelqueue|laravel>, --prefix <p>   the Redis layout of the queue (--prefix,
                        Laravel's connection prefix, with --layout laravel only)
  --count <n>           how many messages to read (default 5; Redis: the newest n; RabbitMQ:
                        the first n at the head of the queue)
  --filter <text>       only messages whose URN, meta.id, dead-letter reason, error or exception contain it
  --format <text|json>  output format (default text)
  --timeout <ms>        give up after this long (default 5000, at most ${MAX_TIMEOUT_MS})
  --yes                 read a host that is not loopback (peek logs in with your credentials)
  -h, --help            show this help

Exit status: 0 read (whatever the messages' verdicts, and when none matched), 1 refused (a host
that is not loopback without --yes), or the broker refused the read before anything was read (a
RabbitMQ queue that does not exist, a Redis key that is not a list, a virtual host or database it
does not serve; Redis keeps no empty list, so a Redis queue that does not exist reads as one with
no messages, exit 0), 2 usage, connection, login or permission problem.
`;

/** The peek command for the command table. */
export const peekCommand: Command = {
  synopsis: 'peek --queue <name>',
  summary: 'list and validate the messages on a queue or its DLQ',
  run: runPeek,
};

/** Runs `babelq peek`. */
export async function runPeek(args: readonly string[], environment: CliEnvironment): Promise<CommandResult> {
  const { positionals, options } = parseArgs(args, {
    queue: { value: true },
    dlq: { value: false },
    broker: { value: true },
    layout: { value: true },
    prefix: { value: true },
    count: { value: true },
    filter: { value: true },
    format: { value: true },
    timeout: { value: true },
    yes: { value: false },
    help: { value: false, aliases: ['-h'] },
  });
  if (options.has('help')) return { stdout: PEEK_USAGE, stderr: '', exitCode: 0 };
  if (positionals.length > 0) throw new CliError('peek takes no file arguments', true);
  const queue = options.get('queue');
  if (typeof queue !== 'string') throw new CliError('--queue is required', true);
  if (queue.trim() === '') throw new CliError('--queue needs a queue name, not an empty value', true);
  const count = countOption(options.get('count'), 'count', 5);
  const format = options.get('format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new CliError(`--format must be text or json, not '${quoted(format)}'`, true);
  const { layout, prefix } = layoutOptions(options);
  const filterOption = options.get('filter');
  // Every text contains "": an empty filter would let every message through, as none does, unsaid.
  if (typeof filterOption === 'string' && filterOption.trim() === '') throw new CliError('--filter needs text to look for, not an empty value (leave it out to list every message)', true);
  const filter = typeof filterOption === 'string' ? filterOption : '';
  const target = brokerTarget(options.get('broker'), environment.env);
  refuseRedisOptions(target, options);
  const refusal = remoteReadRefusal(target, options.has('yes'));
  if (refusal) return refusal;
  const key = options.has('dlq')
    ? deadLetterLocation(queue, target.kind, layout, prefix).key
    : target.kind === 'redis'
      ? redisProjection(queue, layout, prefix).listKey
      : queue;

  const judgement = messageJudgement(environment.cwd, environment.env[GITHUB_WORKSPACE]);
  let read: QueueRead;
  try {
    read = await readRows(target, key, count, timeoutOption(options.get('timeout')), judgement);
  } catch (error) {
    // The broker refused the read (a missing queue, a key that is not a list): nothing was read,
    // exit 1 as send and dlq do for the same answer; connection, login and the like stay 2.
    // The error may quote the broker's own words and the queue's name: escaped, as dlq's and send's are.
    if (isBrokerError(error)) return { stdout: '', stderr: printableLines(`babelq: ${error.message}\n`), exitCode: brokerErrorExit(error) };
    throw error;
  }
  const linted = read.rows;
  const quorum = quorumNote(linted.map((entry) => entry.deliveryCount), describeQueue(target, key), "this peek's included", read.server);
  const bound = byteBoundNote(read, describeQueue(target, key));
  const note = [quorum, bound].filter((line): line is string => line !== undefined).join('\n') || undefined;
  const byRow = new Map(linted.map((entry) => [entry.row, entry]));
  const shown = listingOrder(linted.map((entry) => entry.row), target.kind).filter((row) => matchesFilter(row, filter)).map((row) => byRow.get(row)!);
  // For scripts, stdout stays one JSON document: the note goes to stderr.
  if (format === 'json') return { stdout: `${JSON.stringify(shown.map(rowJson), null, 2)}\n`, stderr: `${judgement.notes}${note ? `babelq: ${note.split('\n').join('\nbabelq: ')}\n` : ''}`, exitCode: 0 };
  const filtered = filter && shown.length !== linted.length ? ` (${shown.length} of ${linted.length} match "${quoted(filter)}")` : '';
  const plural = shown.length === 1 ? '' : 's';
  const header = target.kind === 'redis'
    ? `${shown.length} message${plural} on ${describeQueue(target, key)}, newest first${filtered}`
    : `${shown.length} message${plural} from the head of ${describeQueue(target, key)}, in the order a consumer would get them${filtered} (got and requeued: marked redelivered, and their place in the queue may have changed)`;
  const lines = note ? [header, note] : [header];
  for (const { row, diagnostics, deliveryCount, frameHeaders } of shown) {
    lines.push('', rowLine(row, deliveryCount), ...(frameHeaders ? [frameLine(frameHeaders)] : []), `  ${row.text}`);
    for (const d of diagnostics) lines.push(`  ${d.severity} ${d.code}: ${d.message}`);
  }
  return { stdout: printableLines(`${lines.join('\n')}\n`), stderr: judgement.notes, exitCode: 0 };
}
