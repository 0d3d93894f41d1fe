/**
 * `babelq dlq list` and `babelq dlq redrive`: a work queue's dead letters (its DLQ by the
 * layout's convention), grouped by reason and error, and the redrive of one, some or all of them
 * back to `original_queue` with exactly the changes the chosen SDK's redrive makes. The guards of
 * `send` apply (an envelope with errors, a host that is not loopback: --yes); `--dry-run` prints
 * the bytes that would be published and moves nothing.
 */
import { planRedrive, redriveErrorCodes, redriveQuestion } from '../core/language/redrive-plan';
import { deadLetterLocation, groupDeadLetters, matchesReason, newestFirst, REDRIVE_SDKS, type RedriveSdk } from '../core/message/dead-letter';
import { decideSend, type ConfirmationKind } from '../core/message/send-policy';
import type { RedisLayout, RedriveMove } from '../core/message/types';
import { notSearchedText, openBroker, type RedriveTargetRefusal } from '../broker';
import { isBrokerError, isRedriveInterrupted } from '../broker/errors';
import { isLoopback, type BrokerTarget } from '../broker/target';
import { parseArgs, type ParsedArgs } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { brokerErrorExit, CliError, quoted, quotedId, quotedLine } from './errors';
import { messageJudgement } from './message-judgement';
import { byteBoundNote, countOption, deadLetterLines, describeQueue, groupLine, MAX_READ, readRows, rowJson, rowLine, type ReadRow } from './message-list';
import { quorumNote } from './quorum-deliveries';
import { DEFAULT_BROKER_URL, layoutOptions } from './message-options';
import { brokerTarget, MAX_TIMEOUT_MS, refuseRedisOptions, remoteReadRefusal, timeoutOption } from './send';
import { printableLines, singleLine } from './diagnostics';
import { GITHUB_WORKSPACE } from '../workspace/github-workspace';

export const DLQ_USAGE = `Usage: babelq dlq list --queue <name> [options]
       babelq dlq redrive --queue <name> (--id <meta.id> ... | --all | --reason <text>) [options]

The dead letters of a work queue, read from its dead-letter queue by the layout's convention
(Redis: <queue>.dlq, Laravel layout: queues:<queue>.dlq; RabbitMQ: queue <queue>.dlq).

list: every dead letter with its dead_letter block in words, grouped by reason and error.
redrive: moves messages back to dead_letter.original_queue (else meta.queue) as the SDK's redrive
does: dead_letter removed, attempts 0, meta.id, trace_id and created_at kept. Redis moves each
message in one atomic step; RabbitMQ publishes with a confirm before it acknowledges the DLQ copy.
A failure part-way leaves every message not yet moved in the DLQ.

Options:
  --queue <name>        the work queue (required)
  --broker <url>        as for send (default: BABELQ_BROKER_URL, else ${DEFAULT_BROKER_URL})
  --layout <babelqueue|laravel>, --prefix <p>   the Redis layout of the queue (--prefix,
                        Laravel's connection prefix, with --layout laravel only)
  --limit <n>           read at most n dead letters (default 1000, at most ${MAX_READ})
  --format <text|json>  list's output format (default text; redrive prints text)
  --timeout <ms>        give up after this long (default 5000, at most ${MAX_TIMEOUT_MS})
redrive only:
  --id <meta.id>        a message to redrive (repeat for more)
  --all                 every dead letter read
  --reason <text>       the dead letters whose reason or error contains the text
  --sdk <auto|${REDRIVE_SDKS.join('|')}>
                        whose redrive to reproduce (default auto: dead_letter.lang when that
                        SDK has a redrive, else node). node, go and java drop top-level keys
                        outside the contract and rename a lone "urn" to "job"; python and php
                        keep them; each SDK's encoder writes the bytes (number text, key order)
  --dry-run             print what would be published, move nothing (a target queue that does
                        not exist, or a Redis target key that is not a list, is said as the
                        redrive would stop on it, with its exit status)
  --yes                 redrive even with errors in an envelope or to a host that is not loopback
                        (list: read a host that is not loopback)
  -h, --help            show this help

Exit status: 0 done, 1 refused, nothing to redrive, or the broker refused the move before
anything moved (a missing queue, a key that is not a list, a virtual host or database it
does not serve), 2 usage, connection, login or permission problem, or a redrive that
stopped part-way, after moving some (the message says how many moved and where the rest
are).
`;

/** The dlq command for the command table. */
export const dlqCommand: Command = {
  synopsis: 'dlq list|redrive --queue <name>',
  summary: 'list a queue\'s dead letters by reason, and redrive them to their original queue',
  run: runDlq,
};

interface DlqContext {
  readonly queue: string;
  readonly target: BrokerTarget;
  readonly layout: RedisLayout;
  readonly prefix: string;
  readonly dlqKey: string;
  readonly limit: number;
  readonly timeoutMs: number;
  readonly format: 'text' | 'json';
  /** The folder babelq runs in: a message, which has no file, is judged as a fixture at its top (cli/message-judgement.ts). */
  readonly cwd: string;
  /** GITHUB_WORKSPACE as the environment sets it: with `cwd`, what bounds the registry (cli/registry.ts). */
  readonly githubWorkspace: string | undefined;
}

/** Runs `babelq dlq`. */
export async function runDlq(args: readonly string[], environment: CliEnvironment): Promise<CommandResult> {
  const parsed = parseArgs(args, {
    queue: { value: true },
    broker: { value: true },
    layout: { value: true },
    prefix: { value: true },
    limit: { value: true },
    format: { value: true },
    timeout: { value: true },
    id: { value: true },
    all: { value: false },
    reason: { value: true },
    sdk: { value: true },
    'dry-run': { value: false },
    yes: { value: false },
    help: { value: false, aliases: ['-h'] },
  });
  const { positionals, options } = parsed;
  if (options.has('help')) return { stdout: DLQ_USAGE, stderr: '', exitCode: 0 };
  const [action, ...extra] = positionals;
  if (action !== 'list' && action !== 'redrive') throw new CliError(action === undefined ? 'name the action: dlq list or dlq redrive' : `unknown dlq action '${quoted(action)}' (list or redrive)`, true);
  if (extra.length > 0) throw new CliError(`dlq ${action} takes no file arguments`, true);
  if (action === 'list') refuseRedriveOptions(options);
  const context = dlqContext(options, environment);
  // A redrive says what it moved in lines of text: a script that asked for JSON would parse them and fail later.
  if (action === 'redrive' && context.format === 'json') throw new CliError('--format json is for dlq list; dlq redrive prints text (its lines say what moved and what did not: a chosen message not found, already gone or not searched for)', true);
  // A usage error is said before the host question: which dead letters, which SDK.
  const choice = action === 'redrive' ? { select: selection(parsed), sdk: sdkChoice(options.get('sdk')) } : undefined;
  // Both log in before anything else (redrive reads the DLQ first, a dry run too), so the host
  // is asked about here, before any connection; redrive's other questions come after the read.
  const refusal = remoteReadRefusal(context.target, options.has('yes'), action === 'list' ? 'read its queues' : 'redrive its dead letters');
  if (refusal) return refusal;
  try {
    const result = choice === undefined ? await list(context) : await redrive(context, parsed, choice);
    // A note or an error names what a dead letter holds (its meta.id, the queue it names), which
    // whoever published to the DLQ wrote: escaped for the terminal, as the listing is.
    return { ...result, stderr: printableLines(result.stderr) };
  } catch (error) {
    // The read refused (a missing DLQ queue, a key that is not a list): nothing moved, exit 1 as
    // --help says and as send does; connection, login and the like stay 2.
    if (isBrokerError(error)) return { stdout: '', stderr: printableLines(`babelq: ${error.message}\n`), exitCode: brokerErrorExit(error) };
    throw error;
  }
}

/** What only a redrive reads: given to list, which would show every dead letter as if it had chosen some. */
const REDRIVE_ONLY_OPTIONS = ['id', 'all', 'reason', 'sdk', 'dry-run'] as const;

function refuseRedriveOptions(options: ParsedArgs['options']): void {
  const given = REDRIVE_ONLY_OPTIONS.find((name) => options.has(name));
  if (given === undefined) return;
  const filter = given === 'id' || given === 'reason' ? ' (babelq peek --queue <name> --dlq --filter <text> shows those that contain a text)' : '';
  throw new CliError(`--${given} is for dlq redrive; dlq list lists every dead letter${filter}`, true);
}

function dlqContext(options: ParsedArgs['options'], environment: CliEnvironment): DlqContext {
  const queue = options.get('queue');
  if (typeof queue !== 'string') throw new CliError('--queue is required (the work queue; its DLQ follows the layout)', true);
  if (queue.trim() === '') throw new CliError('--queue needs a queue name, not an empty value (the work queue; its DLQ follows the layout)', true);
  const { layout, prefix } = layoutOptions(options);
  const format = options.get('format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new CliError(`--format must be text or json, not '${quoted(format)}'`, true);
  const target = brokerTarget(options.get('broker'), environment.env);
  refuseRedisOptions(target, options);
  return {
    queue,
    target,
    layout,
    prefix,
    dlqKey: deadLetterLocation(queue, target.kind, layout, prefix).key,
    limit: countOption(options.get('limit'), 'limit', 1000),
    timeoutMs: timeoutOption(options.get('timeout')),
    format,
    cwd: environment.cwd,
    githubWorkspace: environment.env[GITHUB_WORKSPACE],
  };
}

async function list(context: DlqContext): Promise<CommandResult> {
  const judgement = messageJudgement(context.cwd, context.githubWorkspace);
  const read = await readRows(context.target, context.dlqKey, context.limit, context.timeoutMs, judgement);
  const linted = read.rows;
  const byRow = new Map(linted.map((entry) => [entry.row, entry]));
  const groups = groupDeadLetters(newestFirst(linted.map((entry) => entry.row)));
  const where = describeQueue(context.target, context.dlqKey);
  const quorum = quorumNote(linted.map((entry) => entry.deliveryCount), where, "this listing's included", read.server);
  const bound = byteBoundNote(read, where);
  const note = [quorum, bound].filter((line): line is string => line !== undefined).join('\n') || undefined;
  if (context.format === 'json') {
    const document = { dlq: context.dlqKey, target: context.target.display, count: linted.length, groups: groups.map((group) => ({ reason: group.reason, error: group.error, count: group.count, messages: group.rows.map((row) => rowJson(byRow.get(row)!)) })) };
    return { stdout: `${JSON.stringify(document, null, 2)}\n`, stderr: `${judgement.notes}${note ? `babelq: ${note.split('\n').join('\nbabelq: ')}\n` : ''}`, exitCode: 0 };
  }
  const lines = [`${linted.length} dead letter${linted.length === 1 ? '' : 's'} on ${where}${groups.length > 1 ? `, ${groups.length} groups` : ''}${context.target.kind === 'amqp' ? ' (got and requeued: marked redelivered, and their place in the queue may have changed)' : ''}`];
  if (note) lines.push(note);
  for (const group of groups) {
    lines.push('', groupLine(group));
    for (const row of group.rows) lines.push(`  ${rowLine(row, byRow.get(row)!.deliveryCount)}`, ...deadLetterLines(row));
  }
  return { stdout: printableLines(`${lines.join('\n')}\n`), stderr: judgement.notes, exitCode: 0 };
}

/** Where a redrive of `moves` would stop because of its targets (read only), or undefined. */
async function targetRefusal(context: DlqContext, moves: readonly RedriveMove[]): Promise<RedriveTargetRefusal | undefined> {
  const broker = await openBroker(context.target, { timeoutMs: context.timeoutMs });
  try {
    return await broker.redriveTargetRefusal(moves);
  } finally {
    await broker.close();
  }
}

function selection(parsed: ParsedArgs): (entry: ReadRow) => boolean {
  const ids = parsed.repeated.get('id') ?? [];
  const reason = parsed.options.get('reason');
  const chosen = [ids.length > 0, parsed.options.has('all'), reason !== undefined].filter(Boolean).length;
  if (chosen !== 1) throw new CliError('say which dead letters to redrive: --id <meta.id> (repeatable), --all or --reason <text>, exactly one of them', true);
  // An empty selector matches everything (every text contains ""): it would act as --all unasked.
  if (ids.some((id) => id.trim() === '')) throw new CliError('--id needs a meta.id, not an empty value (--all redrives every dead letter)', true);
  if (typeof reason === 'string' && reason.trim() === '') throw new CliError('--reason needs text to look for in the reason or error, not an empty value (--all redrives every dead letter)', true);
  if (ids.length > 0) {
    const wanted = new Set(ids);
    return ({ row }) => wanted.has(row.metaId);
  }
  if (typeof reason === 'string') return ({ row }) => matchesReason(row, reason);
  return () => true;
}

function sdkChoice(value: string | true | undefined): RedriveSdk | 'auto' {
  if (value === undefined) return 'auto';
  const choices: readonly string[] = ['auto', ...REDRIVE_SDKS];
  if (typeof value !== 'string' || !choices.includes(value)) throw new CliError(`--sdk must be one of ${choices.join(', ')} (the SDKs that ship a redrive), not '${quoted(value)}'`, true);
  return value as RedriveSdk | 'auto';
}

async function redrive(context: DlqContext, parsed: ParsedArgs, { select, sdk }: { readonly select: (entry: ReadRow) => boolean; readonly sdk: RedriveSdk | 'auto' }): Promise<CommandResult> {
  const judgement = messageJudgement(context.cwd, context.githubWorkspace);
  const read = await readRows(context.target, context.dlqKey, context.limit, context.timeoutMs, judgement);
  const linted = read.rows;
  const picked = linted.filter(select);
  const wantedIds = parsed.repeated.get('id') ?? [];
  const notFound = wantedIds.filter((id) => !picked.some(({ row }) => row.metaId === id));
  const lines: string[] = [];
  const { moves, skipped, notes: targetNotes } = planRedrive(
    picked.map(({ row, body }) => ({ metaId: row.metaId, body, text: row.text })),
    { sdk, redisLayout: context.layout, redisPrefix: context.prefix },
  );
  const errorCodes = redriveErrorCodes(moves, judgement.settings, judgement.registry);
  // Not "left in the DLQ": an id that was not read may not be there at all.
  const more = read.stopped ? ' (the read stopped at its byte bound: the DLQ holds more)' : linted.length === context.limit ? ` (--limit ${context.limit}: the DLQ may hold more)` : '';
  const dryRun = parsed.options.has('dry-run');
  const whatCounted = dryRun ? "this dry run's read included" : "this redrive's read included, and one more for each message its move gets but does not move";
  const note = quorumNote(linted.map((entry) => entry.deliveryCount), describeQueue(context.target, context.dlqKey), whatCounted, read.server);
  const bound = byteBoundNote(read, describeQueue(context.target, context.dlqKey));
  const notes = [
    judgement.notes,
    ...(note ? [`babelq: ${note}\n`] : []),
    ...(bound ? [`babelq: note: ${bound}\n`] : []),
    // Each names a meta.id and what the SDK's redrive read in the message: on its own line.
    ...skipped.map((line) => `babelq: left in the DLQ: ${singleLine(line)}\n`),
    ...targetNotes.map((line) => `babelq: note: ${singleLine(line)}\n`),
    ...notFound.map((id) => `babelq: not found: meta.id ${quotedId(id)} is not among the ${linted.length} dead letter(s) read from ${quotedLine(context.dlqKey)}${more}.\n`),
  ].join('');
  if (moves.length === 0) return { stdout: '', stderr: `${notes}babelq: nothing to redrive from ${describeQueue(context.target, context.dlqKey)}.\n`, exitCode: 1 };

  const confirmed = new Set<ConfirmationKind>(parsed.options.has('yes') ? ['errors', 'remote'] : []);
  const decision = decideSend({ trusted: true, errorCodes, loopback: isLoopback(context.target.host), host: context.target.host, confirmed });
  if (dryRun) {
    // What the redrive itself would then ask, said now: a dry run is how a user checks before it.
    const asks = decision.action === 'confirm' ? `babelq: note: without --yes, the redrive would ask first: ${redriveQuestion(decision.question, moves.length)}\n` : '';
    // Its targets are checked as the redrive checks them (read only): a RabbitMQ queue that does
    // not exist, a Redis key that is not a list, stops the real run, and so it is said here.
    const stop = await targetRefusal(context, moves);
    if (stop !== undefined) {
      const { at, error } = stop;
      for (const { message } of moves.slice(0, at)) lines.push(`meta.id ${quotedId(message.metaId)} → ${quoted(context.target.kind === 'redis' ? message.redis.listKey : message.amqp.routingKey)} (${message.sdk} redrive, ${message.bytes.length} bytes):`, message.text, '');
      const would = at === 0
        ? `the redrive would stop before moving anything: ${error.message}`
        : `the redrive would move the ${at} message(s) above, then stop at meta.id ${quotedId(moves[at]!.message.metaId)}: ${error.message}`;
      // The bodies and ids before the stop are a publisher's text, escaped as the full dry run's are.
      return { stdout: lines.length > 0 ? printableLines(`${lines.join('\n')}\n`) : '', stderr: `${notes}${asks}babelq: Dry run: ${would} Nothing was moved.\n`, exitCode: at === 0 ? brokerErrorExit(error) : 2 };
    }
    for (const move of moves) {
      const { message } = move;
      const to = context.target.kind === 'redis' ? message.redis.listKey : message.amqp.routingKey;
      lines.push(`meta.id ${quotedId(message.metaId)} → ${quoted(to)} (${message.sdk} redrive, ${message.bytes.length} bytes):`, message.text, '');
    }
    lines.push(`Dry run: ${moves.length} message(s) would be redriven from ${quotedLine(context.dlqKey)}; nothing was moved.`);
    return { stdout: printableLines(`${lines.join('\n')}\n`), stderr: `${notes}${asks}`, exitCode: 0 };
  }

  if (decision.action === 'refuse') return { stdout: '', stderr: `${notes}babelq: ${decision.reason}\n`, exitCode: 1 };
  if (decision.action === 'confirm') return { stdout: '', stderr: `${notes}babelq: ${redriveQuestion(decision.question, moves.length)} Pass --yes to redrive.\n`, exitCode: 1 };

  const broker = await openBroker(context.target, { timeoutMs: context.timeoutMs });
  try {
    const receipt = await broker.redrive(context.dlqKey, moves);
    const targets = someQueues([...new Set(moves.map((move) => (context.target.kind === 'redis' ? move.message.redis.listKey : move.message.amqp.routingKey)))]);
    const missing = receipt.missing > 0 ? `; ${receipt.missing} had already left the DLQ (nothing published for them)` : '';
    const unsearched = receipt.notSearched ? `; ${notSearchedText(receipt.notSearched, quotedLine(context.dlqKey))}` : '';
    // The targets are the queues the dead letters name.
    return { stdout: printableLines(`Redrove ${receipt.moved} message(s) from ${describeQueue(context.target, context.dlqKey)} to ${targets} in ${receipt.durationMs} ms${missing}${unsearched}.\n`), stderr: notes, exitCode: 0 };
  } catch (error) {
    if (isBrokerError(error)) {
      // Stopped after some moved: exit 2, as the help says, whatever stopped it; the message says
      // how many moved and where the rest are. Refused before anything moved: the broker said no.
      const partWay = isRedriveInterrupted(error) && error.moved > 0;
      return { stdout: '', stderr: `${notes}babelq: ${error.message}\n`, exitCode: partWay ? 2 : brokerErrorExit(error) };
    }
    throw error;
  } finally {
    await broker.close();
  }
}

/** The most target queues a redrive's summary names; the rest are counted. */
const NAMED_TARGETS = 5;

/**
 * The queues a redrive went to, as its one-line summary names them: the dead letters name them,
 * a DLQ gathered from many queues names many, and a name is as long as a producer made it.
 */
function someQueues(names: readonly string[]): string {
  const named = names.slice(0, NAMED_TARGETS).map((name) => quoted(name));
  const rest = names.length - named.length;
  return rest === 0 ? named.join(', ') : `${named.join(', ')} and ${rest} other queue${rest === 1 ? '' : 's'}`;
}
