/**
 * `babelq peek`: the last messages on a queue, each decoded and validated with the same engine.
 * Redis reads without removing anything; RabbitMQ gets and requeues, which changes the order in
 * which consumers will receive those messages (said in the output).
 */
import { analyzeText } from '../core/rules/analyze';
import { redisProjection } from '../core/message/build';
import { openBroker } from '../broker';
import { isBrokerError } from '../broker/errors';
import { describeTarget } from '../broker/target';
import { parseArgs } from './args';
import type { CliEnvironment, Command, CommandResult } from './command';
import { CliError } from './errors';
import { DEFAULT_BROKER_URL } from './message-options';
import { brokerTarget, timeoutOption } from './send';

export const PEEK_USAGE = `Usage: babelq peek --queue <name> [options]

Shows the last messages on a queue, each validated like a fixture.

Options:
  --queue <name>        the logical queue (required)
  --broker <url>        as for send (default ${DEFAULT_BROKER_URL}, or BABELQ_BROKER_URL)
  --layout <babelqueue|laravel>, --prefix <p>   the Redis layout of the queue
  --count <n>           how many messages (default 5)
  --format <text|json>  output format (default text)
  --timeout <ms>        give up after this long (default 5000)
  -h, --help            show this help
`;

/** The peek command for the command table. */
export const peekCommand: Command = {
  synopsis: 'peek --queue <name>',
  summary: 'show and validate the last messages on a queue',
  run: runPeek,
};

/** Runs `babelq peek`. */
export async function runPeek(args: readonly string[], environment: CliEnvironment): Promise<CommandResult> {
  const { positionals, options } = parseArgs(args, {
    queue: { value: true },
    broker: { value: true },
    layout: { value: true },
    prefix: { value: true },
    count: { value: true },
    format: { value: true },
    timeout: { value: true },
    help: { value: false, aliases: ['-h'] },
  });
  if (options.has('help')) return { stdout: PEEK_USAGE, stderr: '', exitCode: 0 };
  if (positionals.length > 0) throw new CliError('peek takes no file arguments', true);
  const queue = options.get('queue');
  if (typeof queue !== 'string' || queue.trim() === '') throw new CliError('--queue is required', true);
  const countText = options.get('count') ?? '5';
  if (typeof countText !== 'string' || !/^\d+$/.test(countText) || Number(countText) < 1) throw new CliError('--count needs a whole number of 1 or more', true);
  const format = options.get('format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new CliError('--format must be text or json', true);
  const layout = options.get('layout') ?? 'babelqueue';
  if (layout !== 'babelqueue' && layout !== 'laravel') throw new CliError('--layout must be babelqueue or laravel', true);
  const prefix = options.get('prefix');
  const target = brokerTarget(options.get('broker'), environment.env);
  const key = target.kind === 'redis' ? redisProjection(queue, layout, typeof prefix === 'string' ? prefix : '').listKey : queue;

  let broker;
  let messages;
  try {
    broker = await openBroker(target, { timeoutMs: timeoutOption(options.get('timeout')) });
    messages = await broker.peek(key, Number(countText));
  } catch (error) {
    if (isBrokerError(error)) return { stdout: '', stderr: `babelq: ${error.message}\n`, exitCode: 2 };
    throw error;
  } finally {
    await broker?.close();
  }
  const decoded = messages.map((message) => {
    const text = new TextDecoder().decode(message.body);
    const diagnostics = analyzeText(text).map((d) => ({ code: d.code, severity: d.severity, message: d.message }));
    return { text, diagnostics };
  });
  if (format === 'json') return { stdout: `${JSON.stringify(decoded, null, 2)}\n`, stderr: '', exitCode: 0 };
  const lines = [`${decoded.length} message${decoded.length === 1 ? '' : 's'} on ${describeTarget(target, key)}${target.kind === 'amqp' ? ' (got and requeued: their delivery order changed)' : ''}`];
  decoded.forEach((entry, index) => {
    lines.push('', `#${index + 1} ${entry.diagnostics.length === 0 ? 'valid' : `${entry.diagnostics.length} problem(s)`}`, entry.text);
    for (const d of entry.diagnostics) lines.push(`  ${d.severity} ${d.code}: ${d.message}`);
  });
  return { stdout: `${lines.join('\n')}\n`, stderr: '', exitCode: 0 };
}
