/**
 * "BabelQueue: Peek Queue" and "BabelQueue: Dead Letters": a queue's messages as a message viewer
 * lists them (URN, meta.id, created at, attempts, size, lint verdict; on Redis newest first, on
 * RabbitMQ from the head of the queue, the order a consumer gets them; the quick
 * pick's filter matches all of it), the queue defaulting to the open envelope's `meta.queue` with
 * its DLQ one pick away. Dead letters are grouped by reason and error, can be picked several at
 * a time, and opened or redriven. Reading a broker needs a trusted workspace, and asks first when
 * the host is not this machine.
 */
import * as vscode from 'vscode';
import { dateText, deadLetterLocation, DLQ_SUFFIX, groupDeadLetters, listingOrder, newestFirst, urnLabel, verdictText, type MessageRow } from '../../core/message/dead-letter';
import { redisProjection } from '../../core/message/build';
import { cutBefore } from '../../core/model/describe-value';
import { consumedBody, lintedRows, type ReadBody } from '../../core/language/message-rows';
import { openBroker, type Broker } from '../../broker';
import { describeTarget, isLoopback, parseTarget, type BrokerTarget } from '../../broker/target';
import { failureText } from '../send-settings';
import { labelName, labelText, quotedName, quotedText, shownLiterally, unlinked } from '../quoted-text';
import type { MessageSource, MessageViews, ShownMessage } from '../message-view';
import type { MessageJudge } from '../server-judgement';
import { redrive } from './redrive';
import { envelopeDocument, forgetRefusedPassword, resolveTarget, settingsFor, type SendServices } from './send';
import { MESSAGE_DECODERS } from '../not-utf8-view';
import { refuseUntrusted } from '../restricted-mode';

export const PEEK_COMMAND = 'babelqueue.peekQueue';
export const DEAD_LETTERS_COMMAND = 'babelqueue.deadLetters';

/** How many messages a list reads at most (Redis: the newest; RabbitMQ: got and requeued). */
const LIST_LIMIT = 1000;

export interface MessageServices extends Pick<SendServices, 'context' | 'output'> {
  readonly views: MessageViews;
  /** The language server's verdicts (client/server-judgement.ts): with the workspace's registry and babelq.json. */
  readonly judge?: MessageJudge;
}

/** Registers Peek Queue and Dead Letters. */
export function registerMessageCommands(services: MessageServices): void {
  services.context.subscriptions.push(
    vscode.commands.registerCommand(PEEK_COMMAND, () => peekQueue(services)),
    vscode.commands.registerCommand(DEAD_LETTERS_COMMAND, () => deadLetters(services)),
  );
}

interface RowItem extends vscode.QuickPickItem {
  readonly row?: MessageRow;
}

/**
 * A message's row. Its URN, meta.id and dead-letter fields are the publisher's text: each cut and
 * on one line (client/quoted-text.ts), as a quick pick shows a line break as nothing and lets a
 * bidirectional override reorder the row, and with any `$(name)` in it shown as written, not as an icon.
 */
function rowItem(row: MessageRow): RowItem {
  const attempts = row.attempts === undefined ? '' : ` · attempts ${row.attempts}`;
  const block = row.deadLetter;
  // The reason and error are in the row itself, so the filter finds them (VS Code's filter does not read a group's line).
  const reason = block?.reason === undefined ? undefined : labelName(block.reason);
  const error = block?.error ? labelText(block.error) : undefined;
  const failure = reason === undefined ? error : error ? `${reason}: ${error}` : reason;
  return {
    label: urnLabel({ ...row, urn: labelName(row.urn) }),
    description: `${labelName(row.metaId)} · ${block ? `failed ${dateText(block.failedAt)}` : `created ${dateText(row.createdAt)}`}${attempts} · ${row.bytes} bytes · ${verdictText(row)}`,
    detail: block ? [failure, block.exception ? labelText(block.exception) : undefined, block.originalQueue === undefined ? undefined : `original queue ${labelName(JSON.stringify(block.originalQueue))}`, block.lang ? `by ${labelName(block.lang)}` : undefined].filter(Boolean).join(' · ') : undefined,
    row,
  };
}

/** How long a group's heading may grow: VS Code draws it over the right of the group's first row. */
const GROUP_HEADING_CHARACTERS = 40;

/**
 * A group's heading, short: VS Code writes a separator's label over the right end of the row below
 * it, hiding that row's meta.id and date behind a long error. Each row carries its whole error.
 */
function groupHeading(group: { count: number; reason: string; error: string }): string {
  const heading = `${group.count} × ${quotedName(group.reason)}${group.error ? `: ${quotedText(group.error)}` : ''}`;
  if (heading.length <= GROUP_HEADING_CHARACTERS) return shownLiterally(heading);
  // Shown literally after the cut, which could otherwise keep the `\` and lose the `$(name)` it belongs to.
  return shownLiterally(`${heading.slice(0, cutBefore(heading, GROUP_HEADING_CHARACTERS - 1))}…`);
}

/** The work queue, defaulting to the open envelope's meta.queue; `dlqFirst` offers its DLQ first. */
async function chooseQueue(title: string, dlqFirst: boolean): Promise<{ queue: string; deadLetters: boolean } | undefined> {
  const document = envelopeDocument();
  const queue = document ? metaQueue(document.getText()) : undefined;
  if (queue !== undefined) {
    // Named as the fixture writes it, cut, on one line, never as an icon; the queue read is the whole name.
    const work = { label: labelName(queue), description: 'meta.queue of the open envelope', deadLetters: false };
    const dlq = { label: labelName(`${queue}.dlq`), description: 'its dead-letter queue', deadLetters: true };
    const other = { label: 'Another queue…', deadLetters: dlqFirst };
    const picked = await vscode.window.showQuickPick(dlqFirst ? [dlq, work, other] : [work, dlq, other], { title });
    if (!picked) return undefined;
    if (picked !== other) return { queue, deadLetters: picked.deadLetters };
  }
  const typed = (
    await vscode.window.showInputBox({
      title,
      prompt: dlqFirst ? 'The work queue (its DLQ follows the layout: <queue>.dlq)' : 'Logical queue name',
      value: queue ?? 'default',
      // Enter on an empty box would end the command as Escape does, without a word: said in the box.
      validateInput: (value) => (value.trim() === '' ? 'Type the name of a queue (Escape cancels).' : undefined),
    })
  )?.trim();
  if (!typed) return undefined;
  // A name typed with the DLQ suffix is that dead-letter queue (the same list or queue is read), so its messages can be redriven.
  if (typed.endsWith(DLQ_SUFFIX) && typed.length > DLQ_SUFFIX.length) return { queue: typed.slice(0, -DLQ_SUFFIX.length), deadLetters: true };
  return { queue: typed, deadLetters: dlqFirst };
}

/** A queue as read: its rows in the order read, each one's stored bytes, and where they came from. */
interface QueueRead {
  readonly rows: MessageRow[];
  readonly bodies: ReadonlyMap<MessageRow, Uint8Array>;
  readonly source: MessageSource;
  readonly where: string;
  /** The broker: RabbitMQ's messages are read by getting and requeueing from the head of the queue. */
  readonly broker: 'redis' | 'amqp';
}

/** In Restricted Mode a broker is not read: said before anything is asked (which queue, a password). */
function refusedUntrusted(): boolean {
  if (vscode.workspace.isTrusted) return false;
  void refuseUntrusted('Reading a broker is disabled in Restricted Mode: trust this workspace first.');
  return true;
}

/**
 * Whose settings (broker, layout) a queue is read with: the active envelope's, else the active
 * editor's file's; a message view (in no folder) has those it was read with, as its preview, send
 * and redrive do; with none of these, in a workspace of several folders, the folder picked (each
 * may name its own broker, and read without a resource only the user's and the workspace's
 * settings apply). Undefined when there is no folder to choose; 'cancelled' when the pick was dismissed.
 */
async function settingsScope(views: Pick<MessageViews, 'messageOf'>): Promise<vscode.Uri | undefined | 'cancelled'> {
  const active = envelopeDocument()?.uri ?? vscode.window.activeTextEditor?.document.uri;
  const readWith = active && views.messageOf?.(active)?.source.settingsUri;
  if (readWith) return readWith;
  if ((vscode.workspace.workspaceFolders ?? []).length <= 1) return active;
  if (active && vscode.workspace.getWorkspaceFolder(active)) return active;
  const folder = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which workspace folder’s broker settings?' });
  return folder ? folder.uri : 'cancelled';
}

/** Reads and lints up to LIST_LIMIT messages of the chosen queue, after the guards. */

async function readQueue(services: MessageServices, command: 'Peek Queue' | 'Dead Letters', queue: string, deadLetters: boolean): Promise<QueueRead | undefined> {
  if (refusedUntrusted()) return undefined;
  const settingsUri = await settingsScope(services.views);
  if (settingsUri === 'cancelled') return undefined;
  const settings = settingsFor(settingsUri, 'broker');
  if (!settings) return undefined;
  let configured: BrokerTarget;
  try {
    configured = parseTarget(settings.brokerUrl);
  } catch (error) {
    void vscode.window.showErrorMessage(unlinked(error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  const { host } = configured;
  // Asked before resolveTarget, as Send asks: no password is asked for, or stored, for a host the user declines.
  if (!isLoopback(host)) {
    const answer = await vscode.window.showWarningMessage(`${host} is not this machine. Read its queue "${quotedName(queue)}"?`, { modal: true }, 'Read');
    if (answer !== 'Read') return undefined;
  }
  const target = await resolveTarget(services, settings, command);
  if (!target) return undefined;
  const location = deadLetters ? deadLetterLocation(queue, target.kind, settings.redisLayout, settings.redisPrefix) : undefined;
  const key = location?.key ?? (target.kind === 'redis' ? redisProjection(queue, settings.redisLayout, settings.redisPrefix).listKey : queue);
  // The queue may be the open envelope's meta.queue, as its fixture writes it.
  // Named as the setting (and the CodeLens) name it, whatever password secret storage supplied.
  const where = describeTarget(configured, quotedName(key));
  let broker: Broker | undefined;
  let peeked: Awaited<ReturnType<Broker['peek']>>;
  try {
    broker = await openBroker(target, { timeoutMs: settings.timeoutMs });
    peeked = await broker.peek(key, LIST_LIMIT);
  } catch (error) {
    await forgetRefusedPassword(services, settings, error, target);
    const text = failureText(error, [target.password]);
    services.output.error(`${command}: reading ${where} failed: ${text}`);
    void vscode.window.showErrorMessage(unlinked(`Cannot read ${where}: ${text}`));
    return undefined;
  } finally {
    await broker?.close();
  }
  if (peeked.stopped) {
    const { maxBytes, nextBytes } = peeked.stopped;
    const note = `${command}: read ${peeked.length} message(s) of ${where} and no more: the next one is ${nextBytes} bytes, and one read takes at most ${Math.round(maxBytes / 1024 / 1024)} MiB of messages together.`;
    services.output.warn(note);
    void vscode.window.showWarningMessage(unlinked(note));
  }
  // Judged once the connection is closed. Decoded as lint decodes a file (a BOM or bytes that are
  // not UTF-8 are its json-syntax error); a Redis header frame is read as the consumers read it:
  // the envelope inside (as babelq peek does).
  const read = peeked.map(({ body }) => consumedBody(body, MESSAGE_DECODERS, target.kind === 'redis').body);
  const rows = await judgedRows(services, command, read);
  const bodies = new Map(rows.map((row, index) => [row, peeked[index]!.body]));
  return { rows, bodies, where, broker: target.kind, source: { queue: location?.queue ?? queue, key, deadLetters, ...(settingsUri ? { settingsUri } : {}) } };
}

/**
 * The rows of bodies read, each with the language server's verdict (the registry's payload schema
 * and babelq.json applied, as to the message once opened); a body that is not UTF-8 keeps lint's
 * one finding on its bytes, at the severity the server's settings give it. Without the server's
 * answer, every row keeps the verdict on the bytes and the contract alone, and the output says so.
 */
async function judgedRows(services: MessageServices, command: string, bodies: readonly ReadBody[]): Promise<MessageRow[]> {
  const rows = lintedRows(bodies).map((entry) => entry.row);
  if (bodies.length === 0) return rows;
  const judged = bodies.flatMap((body, index) => (body.notUtf8 ? [] : [index]));
  const answer = services.judge ? await services.judge(judged.map((index) => bodies[index]!.text)) : { unjudged: 'no language server' };
  if ('unjudged' in answer) {
    services.output.warn(`${command}: verdicts on the envelope contract alone, without the registry's payload schemas: ${answer.unjudged}.`);
    return rows;
  }
  let unjudged = 0;
  judged.forEach((index, at) => {
    const verdict = answer.verdicts[at];
    if (verdict) rows[index] = { ...rows[index]!, errors: verdict.errors, warnings: verdict.warnings };
    else unjudged++;
  });
  // A text longer than the server reads keeps the contract's verdict: said, as a redrive says it.
  if (unjudged > 0) services.output.warn(`${command}: verdicts on the envelope contract alone, without the registry's payload schemas, for ${unjudged} message(s) longer than the BabelQueue language server judges.`);
  // Bytes that are not UTF-8: lint's one json-syntax finding, at the severity babelq.json gives it (as babelq peek and dlq).
  const { notUtf8 } = answer;
  if (notUtf8) {
    bodies.forEach((body, index) => {
      if (body.notUtf8) rows[index] = { ...rows[index]!, errors: notUtf8.errors, warnings: notUtf8.warnings };
    });
  }
  return rows;
}

async function peekQueue(services: MessageServices): Promise<void> {
  if (refusedUntrusted()) return;
  const chosen = await chooseQueue('BabelQueue: Peek Queue', false);
  if (!chosen) return;
  const read = await readQueue(services, 'Peek Queue', chosen.queue, chosen.deadLetters);
  if (!read) return;
  if (read.rows.length === 0) {
    void vscode.window.showInformationMessage(unlinked(`No messages on ${read.where}.`));
    return;
  }
  const ordered = listingOrder(read.rows, read.broker);
  const title = read.broker === 'amqp'
    ? `${read.rows.length} message(s) from the head of ${read.where}, in the order a consumer would get them (got and requeued: marked redelivered, and their place in the queue may have changed)`
    : `${read.rows.length} message(s) on ${read.where}, newest first`;
  const picked = await vscode.window.showQuickPick(ordered.map(rowItem), {
    title,
    placeHolder: 'Filter by URN, meta.id, date, verdict…; Enter opens the message',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (picked?.row) await services.views.open({ row: picked.row, source: read.source, body: read.bodies.get(picked.row)! });
}

async function deadLetters(services: MessageServices): Promise<void> {
  if (refusedUntrusted()) return;
  const chosen = await chooseQueue('BabelQueue: Dead Letters', true);
  if (!chosen) return;
  const read = await readQueue(services, 'Dead Letters', chosen.queue, true);
  if (!read) return;
  if (read.rows.length === 0) {
    void vscode.window.showInformationMessage(unlinked(`No dead letters on ${read.where}.`));
    return;
  }
  const groups = groupDeadLetters(newestFirst(read.rows));
  const items: RowItem[] = [];
  for (const group of groups) {
    items.push({ label: groupHeading(group), kind: vscode.QuickPickItemKind.Separator });
    items.push(...group.rows.map(rowItem));
  }
  const picker = vscode.window.createQuickPick<RowItem>();
  picker.title = `${read.rows.length} dead letter(s) on ${read.where}, by reason and error${read.broker === 'amqp' ? ' (got and requeued)' : ''}`;
  picker.placeholder = 'Filter; Enter opens or redrives one; Space checks several';
  picker.items = items;
  picker.canSelectMany = true;
  picker.matchOnDescription = true;
  picker.matchOnDetail = true;
  const title = picker.title;
  const selection = await new Promise<{ rows: MessageRow[]; filter: string } | undefined>((resolve) => {
    picker.onDidAccept(() => {
      // A pick that checks several has no active row after typing a filter (VS Code moves to none):
      // Enter then takes the one message the filter leaves, else says how to choose.
      const chosen = picker.selectedItems.length > 0 ? picker.selectedItems : picker.activeItems.length > 0 ? picker.activeItems : filtered(items, picker.value);
      const rows = chosen.flatMap((item) => (item.row ? [item.row] : []));
      if (picker.selectedItems.length === 0 && picker.activeItems.length === 0 && rows.length !== 1) {
        picker.title = `${title}: ${rows.length === 0 ? 'no message matches the filter' : `${rows.length} messages match`}; move to one (Down) or check several (Space), then Enter`;
        return;
      }
      resolve({ rows, filter: picker.value });
      picker.hide();
    });
    picker.onDidHide(() => resolve(undefined));
    picker.show();
  });
  picker.dispose();
  if (!selection || selection.rows.length === 0) return;
  const shown: ShownMessage[] = selection.rows.map((row) => ({ row, source: read.source, body: read.bodies.get(row)! }));
  const actions = [
    ...(shown.length === 1 ? [{ label: 'Open', description: 'read-only, diagnosed; redrive, edit then redrive, or save as a fixture from there', action: 'open' as const }] : []),
    { label: shown.length === 1 ? 'Redrive…' : `Redrive ${shown.length} messages…`, description: 'back to dead_letter.original_queue, after a preview of the bytes', action: 'redrive' as const },
  ];
  const action = await vscode.window.showQuickPick(actions, { title: shown.length === 1 ? `meta.id ${quotedName(shown[0]!.row.metaId)}` : `${shown.length} dead letters` });
  if (!action) return;
  if (action.action === 'open') await services.views.open(shown[0]!);
  else await redrive(services, shown.map((message) => ({ message })));
}

/** The rows a quick pick's filter leaves: the text, trimmed, in the label, description or detail (case ignored). */
function filtered(items: readonly RowItem[], value: string): RowItem[] {
  const text = value.trim().toLowerCase();
  return items.filter((item) => item.row && [item.label, item.description, item.detail].some((field) => (field ?? '').toLowerCase().includes(text)));
}

function metaQueue(text: string): string | undefined {
  try {
    const queue = (JSON.parse(text) as { meta?: { queue?: unknown } }).meta?.queue;
    return typeof queue === 'string' && queue.trim() !== '' ? queue : undefined;
  } catch {
    return undefined;
  }
}
