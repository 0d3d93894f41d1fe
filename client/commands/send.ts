/**
 * "BabelQueue: Send Test Envelope" and "BabelQueue: Peek Queue". The send publishes exactly the
 * previewed bytes after the guards of core/message/send-policy.ts (trust, errors, consumers that
 * reject the bytes, non-loopback host); passwords live in VS Code's secret storage and never reach settings, logs or messages.
 */
import * as vscode from 'vscode';
import { analyzeText } from '../../core/rules/analyze';
import { describeRejections } from '../../core/message/acceptance';
import { buildMessage, redisProjection } from '../../core/message/build';
import { decideSend, type ConfirmationKind } from '../../core/message/send-policy';
import type { OutgoingMessage } from '../../core/message/types';
import { ENVELOPE_LANGUAGE_ID } from '../../core/language/protocol';
import { parseJson } from '../../core/parse/parser';
import { openBroker, type Broker } from '../../broker';
import { isBrokerError } from '../../broker/errors';
import { describeTarget, isLoopback, parseTarget, withPassword, type BrokerTarget } from '../../broker/target';
import type { FreshIds } from '../fresh-ids';
import { passwordKey, readSendSettings, type SendSettings } from '../send-settings';

export const SEND_COMMAND = 'babelqueue.sendTestEnvelope';
export const PEEK_COMMAND = 'babelqueue.peekQueue';

interface SendServices {
  readonly context: vscode.ExtensionContext;
  readonly output: vscode.LogOutputChannel;
  readonly freshIds: FreshIds;
  /** Called after a send so an open preview shows the next fresh ids. */
  readonly sent: (source: vscode.Uri) => void;
}

/** Registers the send and peek commands. */
export function registerSendCommands(services: SendServices): void {
  services.context.subscriptions.push(
    vscode.commands.registerCommand(SEND_COMMAND, (uri?: vscode.Uri) => sendTestEnvelope(services, uri)),
    vscode.commands.registerCommand(PEEK_COMMAND, () => peekQueue(services)),
  );
}

function envelopeDocument(uri?: vscode.Uri): vscode.TextDocument | undefined {
  if (uri) return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  const document = vscode.window.activeTextEditor?.document;
  return document?.languageId === ENVELOPE_LANGUAGE_ID ? document : undefined;
}

function settingsFor(uri: vscode.Uri | undefined): SendSettings {
  return readSendSettings((key) => vscode.workspace.getConfiguration(undefined, uri).get(key));
}

/** The target from the settings with the password from secret storage (asked once when needed). */
async function resolveTarget(services: SendServices, settings: SendSettings): Promise<BrokerTarget | undefined> {
  let target: BrokerTarget;
  try {
    target = parseTarget(settings.brokerUrl);
  } catch (error) {
    void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    return undefined;
  }
  if (target.password !== undefined || target.username === undefined) return target;
  const key = passwordKey(target.display, target.username);
  let password = await services.context.secrets.get(key);
  if (password === undefined) {
    password = await vscode.window.showInputBox({
      title: `Password for ${target.username} on ${target.display}`,
      prompt: 'Kept in VS Code secret storage, never in settings or logs.',
      password: true,
      ignoreFocusOut: true,
    });
    if (password === undefined) return undefined;
    await services.context.secrets.store(key, password);
  }
  return withPassword(target, password);
}

async function sendTestEnvelope(services: SendServices, uri?: vscode.Uri): Promise<void> {
  const document = envelopeDocument(uri);
  if (!document) {
    void vscode.window.showInformationMessage('Open a *.babel.json envelope to send it.');
    return;
  }
  const settings = settingsFor(document.uri);
  let parsedTarget: BrokerTarget;
  try {
    parsedTarget = parseTarget(settings.brokerUrl);
  } catch (error) {
    void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    return;
  }
  // Built before the questions, so they can name the consumers that reject these exact bytes.
  const source = document.uri.toString();
  const built = buildMessage(parseJson(document.getText()), {
    sdk: settings.encoder,
    freshIds: settings.freshIds,
    fresh: services.freshIds.for(source),
    redisLayout: settings.redisLayout,
    redisPrefix: settings.redisPrefix,
  });
  if (!built.ok) {
    void vscode.window.showErrorMessage(built.error);
    return;
  }
  const message = built.message;
  const rejectedBy = describeRejections(built.consumers);
  const errorCount = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'babelqueue' && d.severity === vscode.DiagnosticSeverity.Error).length;
  const confirmed = new Set<ConfirmationKind>();
  for (;;) {
    const decision = decideSend({ trusted: vscode.workspace.isTrusted, errorCount, rejectedBy, loopback: isLoopback(parsedTarget.host), host: parsedTarget.host, confirmed });
    if (decision.action === 'send') break;
    if (decision.action === 'refuse') {
      void vscode.window.showWarningMessage(decision.reason);
      return;
    }
    const answer = await vscode.window.showWarningMessage(decision.question, { modal: true }, decision.confirmLabel);
    if (answer !== decision.confirmLabel) return;
    confirmed.add(decision.kind);
  }
  const target = await resolveTarget(services, settings);
  if (!target) return;

  const where = describeTarget(target, target.kind === 'redis' ? message.redis.listKey : message.queue);
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Sending to ${where}…` }, () => publish(target, settings, message));
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'auth') await services.context.secrets.delete(passwordKey(target.display, target.username));
    const text = isBrokerError(error) ? error.message : 'The send failed; see the BabelQueue output.';
    services.output.error(`Send to ${where} failed: ${text}`);
    void vscode.window.showErrorMessage(`Not sent: ${text}`);
    return;
  }
  services.output.info(`${new Date().toISOString()} sent ${message.bytes.length} bytes to ${where}, meta.id ${message.metaId}, ${message.sdk} encoder`);
  void vscode.window.showInformationMessage(`Sent to ${message.queue}: meta.id ${message.metaId}, ${message.bytes.length} bytes.`);
  services.freshIds.renew(source);
  services.sent(document.uri);
}

/** Publishes; a missing RabbitMQ queue is declared (durable) after the user agrees. */
async function publish(target: BrokerTarget, settings: SendSettings, message: OutgoingMessage): Promise<void> {
  let broker: Broker | undefined;
  try {
    broker = await openBroker(target, { timeoutMs: settings.timeoutMs });
    try {
      await broker.publish(message);
    } catch (error) {
      if (!(isBrokerError(error) && error.kind === 'missing-queue' && broker.declareQueue)) throw error;
      const declare = `Declare "${message.queue}"`;
      const answer = await vscode.window.showWarningMessage(`The queue "${message.queue}" does not exist, so RabbitMQ would drop the message. Declare it (durable) and send?`, { modal: true }, declare);
      if (answer !== declare) throw error;
      await broker.declareQueue(message.queue);
      await broker.publish(message);
    }
  } finally {
    await broker?.close();
  }
}

async function peekQueue(services: SendServices): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Peeking a broker is disabled in Restricted Mode: trust this workspace first.');
    return;
  }
  const document = envelopeDocument();
  const settings = settingsFor(document?.uri);
  const defaultQueue = document ? metaQueue(document.getText()) : 'default';
  const queue = await vscode.window.showInputBox({ title: 'BabelQueue: Peek Queue', prompt: 'Logical queue name', value: defaultQueue });
  if (!queue) return;
  const target = await resolveTarget(services, settings);
  if (!target) return;
  if (!isLoopback(target.host)) {
    const answer = await vscode.window.showWarningMessage(`${target.host} is not this machine. Read its queue "${queue}"?`, { modal: true }, 'Peek');
    if (answer !== 'Peek') return;
  }
  const key = target.kind === 'redis' ? redisProjection(queue, settings.redisLayout, settings.redisPrefix).listKey : queue;
  let broker: Broker | undefined;
  let bodies: Uint8Array[];
  try {
    broker = await openBroker(target, { timeoutMs: settings.timeoutMs });
    bodies = (await broker.peek(key, 10)).map((entry) => entry.body);
  } catch (error) {
    void vscode.window.showErrorMessage(`Cannot peek: ${isBrokerError(error) ? error.message : String(error)}`);
    return;
  } finally {
    await broker?.close();
  }
  if (bodies.length === 0) {
    void vscode.window.showInformationMessage(`No messages on ${describeTarget(target, key)}.`);
    return;
  }
  const items = bodies.map((body, index) => {
    const text = new TextDecoder().decode(body);
    const problems = analyzeText(text);
    const errors = problems.filter((d) => d.severity === 'error').length;
    return { label: `#${index + 1} ${jobOf(text)}`, description: `${body.length} bytes`, detail: errors > 0 ? `${errors} error(s): ${problems[0].message}` : problems.length > 0 ? `${problems.length} warning(s)` : 'valid', text };
  });
  const note = target.kind === 'amqp' ? ' (got and requeued: their delivery order changed)' : '';
  const picked = await vscode.window.showQuickPick(items, { title: `${items.length} message(s) on ${describeTarget(target, key)}${note}`, placeHolder: 'Open a message as an envelope document' });
  if (!picked) return;
  const opened = await vscode.workspace.openTextDocument({ language: ENVELOPE_LANGUAGE_ID, content: picked.text });
  await vscode.window.showTextDocument(opened);
}

function metaQueue(text: string): string {
  try {
    const queue = (JSON.parse(text) as { meta?: { queue?: unknown } }).meta?.queue;
    return typeof queue === 'string' && queue.trim() !== '' ? queue : 'default';
  } catch {
    return 'default';
  }
}

function jobOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { job?: unknown; urn?: unknown };
    return typeof parsed.job === 'string' ? parsed.job : typeof parsed.urn === 'string' ? parsed.urn : '(no URN)';
  } catch {
    return '(not JSON)';
  }
}
