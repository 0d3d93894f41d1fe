/**
 * `babelq send <file>`: publishes exactly the bytes `babelq preview` prints (same options) to a
 * Redis list or RabbitMQ queue. Guards as in the editor: an envelope with errors, bytes that some
 * SDK consumer rejects, or a broker that is not on this machine, needs `--yes`. A password never comes from the command line's
 * output: put it in the URL or in BABELQ_BROKER_PASSWORD; every message is scrubbed of it.
 */
import { analyze } from '../core/rules/analyze';
import { DEFAULT_SETTINGS } from '../core/rules/settings/settings';
import { CliRegistries } from './registry';
import { ProjectConfigs } from '../workspace/project-config';
import { describeRejections } from '../core/message/acceptance';
import { buildMessage } from '../core/message/build';
import { decideSend, type ConfirmationKind } from '../core/message/send-policy';
import { asObject, getValue, type ParsedDocument } from '../core/model/tree';
import { openBroker } from '../broker';
import { isBrokerError } from '../broker/errors';
import { isLoopback, parseTarget, withPassword, type BrokerTarget } from '../broker/target';
import { parseArgs, refuseStandardInput } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { brokerErrorExit, CliError, quoted, quotedId, quotedPath } from './errors';
import { printable, printableLines } from './diagnostics';
import { describeQueue } from './message-list';
import { DEFAULT_BROKER_URL, MESSAGE_OPTION_SPECS, messageOptions, queueNameNote, readEnvelope, sdkOption } from './message-options';
import { literal } from '../core/model/describe-value';
import { GITHUB_WORKSPACE } from '../workspace/github-workspace';

/** The longest timeout Node's timers hold (2^31 − 1 ms, about 24.8 days): a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const SEND_USAGE = `Usage: babelq send <file> [options]

Publishes an envelope file to a local broker, exactly as 'babelq preview' prints it.

Options:
  --broker <url>        redis://host:port[/db] or amqp://user@host:port[/vhost] (default: the
                        BABELQ_BROKER_URL environment variable, else ${DEFAULT_BROKER_URL});
                        the password comes from the URL or from BABELQ_BROKER_PASSWORD
  --layout <babelqueue|laravel>
                        Redis: RPUSH to the bare queue (default), or Laravel's queues:<queue>
                        plus its :notify marker; --prefix <p> adds Laravel's connection prefix
  --queue <name>        publish to this queue, and write it as meta.queue in the body (consumers
                        take meta.queue as original_queue when they dead-letter)
  --sdk <node|php|python|go|java|dotnet|auto>   the encoder (default auto)
  --no-fresh-ids        keep meta.id and meta.created_at as written
  --declare             RabbitMQ: declare the queue (durable) when it does not exist
  --timeout <ms>        give up after this long (default 5000, at most ${MAX_TIMEOUT_MS})
  --yes                 send even with errors in the envelope, bytes that some SDK consumer
                        rejects, or to a host that is not loopback
  -h, --help            show this help

Exit status: 0 sent, 1 refused (content that cannot be sent: bytes that are not UTF-8, a
byte-order mark, a syntax error, no URN; or a question that needs --yes), or the broker refused
the message (a missing queue, a key that is not a list, a virtual host or database it does not
serve), 2 usage, a file that cannot be read, connection, login or permission problem.
`;

/** The send command for the command table. */
export const sendCommand: Command = {
  synopsis: 'send <file>',
  summary: 'publish an envelope to a local Redis or RabbitMQ (what preview shows)',
  run: runSend,
};

/** The broker target from --broker / BABELQ_BROKER_URL, with BABELQ_BROKER_PASSWORD applied. */
export function brokerTarget(option: string | true | undefined, env: CliEnvironment['env']): BrokerTarget {
  // An empty URL (a variable that held nothing) is named as one, not as "not a URL", nor taken for the default.
  if (typeof option === 'string' && option.trim() === '') throw new CliError(`--broker needs a broker URL, not an empty value (leave it out for BABELQ_BROKER_URL, else ${DEFAULT_BROKER_URL})`, true);
  if (option === undefined && brokerUrlEnvEmpty(env)) throw new CliError(`BABELQ_BROKER_URL is set but empty: set it to a broker URL, or unset it for the default, ${DEFAULT_BROKER_URL}`, true);
  const url = typeof option === 'string' ? option : (env.BABELQ_BROKER_URL ?? DEFAULT_BROKER_URL);
  let target: BrokerTarget;
  try {
    target = parseTarget(url);
  } catch (error) {
    // A URL that cannot be parsed is the user's typing, not a broker failure: a usage error.
    if (isBrokerError(error)) throw new CliError(error.message, true);
    throw error;
  }
  return env.BABELQ_BROKER_PASSWORD ? withPassword(target, env.BABELQ_BROKER_PASSWORD) : target;
}

/**
 * `--layout` and `--prefix` name Redis keys; a RabbitMQ broker takes the queue by its name, so
 * with one they would change nothing: refused (send, peek, dlq) rather than passed over.
 */
export function refuseRedisOptions(target: BrokerTarget, options: ReadonlyMap<string, string | true>): void {
  if (target.kind === 'redis') return;
  const given = ['layout', 'prefix'].filter((name) => options.has(name)).map((name) => `--${name}`);
  if (given.length === 0) return;
  const [verb, them] = given.length > 1 ? ['are', 'them'] : ['is', 'it'];
  throw new CliError(`${given.join(' and ')} ${verb} for a Redis broker: on RabbitMQ (${target.display}) a message goes to the queue by its name; leave ${them} out`, true);
}

/** Whether BABELQ_BROKER_URL is set to nothing (or blanks): no URL, and not the default either. */
export function brokerUrlEnvEmpty(env: CliEnvironment['env']): boolean {
  return env.BABELQ_BROKER_URL !== undefined && env.BABELQ_BROKER_URL.trim() === '';
}

/**
 * Reading a queue logs in to the broker with the user's credentials, so the verbs that read
 * (peek, dlq list, and dlq redrive, which reads the DLQ before it decides anything) ask before a
 * host that is not this machine, as a send does, and before any connection; `--yes` answers.
 */
export function remoteReadRefusal(target: BrokerTarget, yes: boolean, purpose = 'read its queues'): CommandResult | undefined {
  if (yes || isLoopback(target.host)) return undefined;
  return { stdout: '', stderr: `babelq: ${target.host} is not this machine. Pass --yes to log in to it and ${purpose}.\n`, exitCode: 1 };
}

/** A timeout option in milliseconds, from 1 to MAX_TIMEOUT_MS. */
export function timeoutOption(value: string | true | undefined): number {
  if (value === undefined) return 5000;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1) throw new CliError(`--timeout needs a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not '${quoted(value)}'`, true);
  if (Number(value) > MAX_TIMEOUT_MS) throw new CliError(`--timeout is at most ${MAX_TIMEOUT_MS} ms (about 24.8 days), not ${quoted(value)}`, true);
  return Number(value);
}

/** Runs `babelq send`. */
export async function runSend(args: readonly string[], environment: CliEnvironment): Promise<CommandResult> {
  const { positionals, options } = parseArgs(args, {
    ...MESSAGE_OPTION_SPECS,
    broker: { value: true },
    declare: { value: false },
    timeout: { value: true },
    yes: { value: false },
    help: { value: false, aliases: ['-h'] },
  });
  if (options.has('help')) return { stdout: SEND_USAGE, stderr: '', exitCode: 0 };
  if (positionals.length > 1) throw new CliError('send takes one envelope file', true);
  refuseStandardInput('send', positionals);
  const read = readEnvelope('send', positionals[0], environment.cwd);
  const sdk = sdkOption(options.get('sdk'), false);
  const timeoutMs = timeoutOption(options.get('timeout'));
  const target = brokerTarget(options.get('broker'), environment.env);
  refuseRedisOptions(target, options);
  const messageOpts = messageOptions(options, sdk === 'all' ? 'auto' : sdk);
  // Options are checked first (a usage error is 2); bytes that are not UTF-8 are refused (1), as
  // a syntax error is below.
  if (!read.ok) return { stdout: '', stderr: `babelq: ${read.refusal}\n`, exitCode: 1 };
  const { doc, path } = read;

  const built = buildMessage(doc, messageOpts);
  if (!built.ok) return { stdout: '', stderr: `babelq: ${printable(quotedPath(positionals[0]))}: ${built.error} Nothing was sent.\n`, exitCode: 1 };
  const { message } = built;
  const rejectedBy = describeRejections(built.consumers);
  // A broker's name for a queue (queues:orders, a dead letter's orders.dlq): said, whatever follows.
  const queueNote = queueNameNote(doc, message.queue, typeof options.get('queue') === 'string', target.kind === 'redis' ? `the Redis key ${literal(message.redis.listKey)}` : `the RabbitMQ queue ${literal(message.queue)}`, target.kind === 'redis' && message.redis.layout === 'laravel');
  // It quotes the file's queue name: escaped for the terminal, as the rest of send's lines are.
  const noted = queueNote === undefined ? '' : printableLines(`babelq: ${queueNote}\n`);

  // The same errors the editor would show, registry included, decide whether to ask.
  // babelq.json applies as it does to lint and in the editor.
  const settings = new ProjectConfigs().settingsFor(path, DEFAULT_SETTINGS, []);
  const registry = new CliRegistries(environment.cwd, undefined, { githubWorkspace: environment.env[GITHUB_WORKSPACE] }).stateFor(path, settings.registryPath);
  const errors = analyze(doc, settings, registry).filter((d) => d.severity === 'error');
  const confirmed = new Set<ConfirmationKind>(options.has('yes') ? ['errors', 'rejected', 'remote'] : []);
  const decision = decideSend({ trusted: true, errorCodes: errors.map((d) => d.code), rejectedBy, loopback: isLoopback(target.host), host: target.host, confirmed });
  if (decision.action === 'refuse') return { stdout: '', stderr: `${noted}babelq: ${decision.reason}\n`, exitCode: 1 };
  if (decision.action === 'confirm') return { stdout: '', stderr: `${noted}babelq: ${decision.question} Pass --yes to send.\n`, exitCode: 1 };

  const queueName = target.kind === 'redis' ? message.redis.listKey : message.queue;
  const where = describeQueue(target, queueName);
  let broker;
  try {
    broker = await openBroker(target, { timeoutMs });
    try {
      await broker.publish(message);
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'missing-queue' && options.has('declare') && broker.declareQueue) {
        await broker.declareQueue(message.queue);
        await broker.publish(message);
      } else {
        throw error;
      }
    }
  } catch (error) {
    if (isBrokerError(error)) {
      // RabbitMQ reserves the "amq." prefix: --declare could not create such a queue either.
      const reserved = message.queue.startsWith('amq.');
      const hint = error.kind === 'missing-queue' ? (reserved ? ' Names starting with "amq." are reserved for the broker: it cannot be declared.' : ' Pass --declare to create it (durable).') : '';
      // The error names the queue as the file spells it: escaped for the terminal, as on success.
      return { stdout: '', stderr: `${noted}${printableLines(`babelq: not sent: ${error.message}${hint}\n`)}`, exitCode: brokerErrorExit(error) };
    }
    throw error;
  } finally {
    await broker?.close();
  }
  // The queue and meta.id as the file spells them: escaped for the terminal.
  return { stdout: printableLines(`Sent ${message.bytes.length} bytes (${message.sdk} encoder, meta.id ${quotedId(message.metaId)}) to ${where}${queueRewritten(doc, options.get('queue'), message.queue)}\n`), stderr: noted, exitCode: 0 };
}

/** With --queue, that the body's meta.queue says the queue too, and what it said before when that differs. */
function queueRewritten(doc: ParsedDocument, option: string | true | undefined, queue: string): string {
  if (typeof option !== 'string' || option.trim() === '') return '';
  const before = getValue(asObject(getValue(asObject(doc.root), 'meta')), 'queue');
  const was = before?.kind === 'string' ? (before.value === queue ? '' : ` (it was ${JSON.stringify(before.value)})`) : ' (it had none)';
  return `; meta.queue in the body is ${JSON.stringify(queue)}${was}`;
}
