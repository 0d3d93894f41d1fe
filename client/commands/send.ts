/**
 * "BabelQueue: Send Test Envelope". The send publishes exactly the previewed bytes after the
 * guards of core/message/send-policy.ts (trust, errors, consumers that reject the bytes,
 * non-loopback host); passwords live in VS Code's secret storage and never reach settings, logs or messages.
 */
import * as vscode from 'vscode';
import { describeRejections } from '../../core/message/acceptance';
import { buildMessage } from '../../core/message/build';
import { decideSend, UNTRUSTED_SEND_REFUSAL, type ConfirmationKind } from '../../core/message/send-policy';
import type { OutgoingMessage } from '../../core/message/types';
import { ENVELOPE_LANGUAGE_ID } from '../../core/language/protocol';
import { parseJson } from '../../core/parse/parser';
import { openBroker, type Broker } from '../../broker';
import { isBrokerError } from '../../broker/errors';
import { describeTarget, isLoopback, parseTarget, withPassword, type BrokerTarget } from '../../broker/target';
import type { FreshIds } from '../fresh-ids';
import { envelopeState, type SavedBytesCheck } from '../file-bytes';
import { previewOnScreen } from '../preview';
import { quotedName, unlinked } from '../quoted-text';
import { failureText, keptPassword, passwordKey, passwordPrompt, passwordToKeep, readSendSettings, refusedPasswordKey, sendSettingsProblems, unusedSettingNotes, type SendSettings, type SettingsPurpose } from '../send-settings';
import { refuseUntrusted } from '../restricted-mode';
import { declareMissingQueue } from '../declare-missing-queue';

export const SEND_COMMAND = 'babelqueue.sendTestEnvelope';

export interface SendServices {
  readonly context: vscode.ExtensionContext;
  readonly output: vscode.LogOutputChannel;
  readonly freshIds: FreshIds;
  /** Refuses a saved file that is not UTF-8, as `babelq send` does. */
  readonly savedBytes: SavedBytesCheck;
  /** Called after a send so an open preview shows the next fresh ids. */
  readonly sent: (source: vscode.Uri) => void;
  /** Where a document's settings are read: a message view's are those it was read with (it is in no folder). */
  readonly settingsScope?: (uri: vscode.Uri) => vscode.Uri;
  /**
   * Dead letters (a view opened from Dead Letters, or its edited copy), whose CodeLens is Redrive:
   * a send from the palette asks first and offers that redrive, as publishing one would add a
   * second message with its `dead_letter` block and leave the stored one in the dead-letter queue.
   */
  readonly redriveInstead?: { readonly command: string; readonly isDeadLetter: (uri: vscode.Uri) => boolean };
}

/** The button of the question a send on a dead letter asks. */
const REDRIVE_ANSWER = 'Redrive';

/** Registers the send command. */
export function registerSendCommands(services: SendServices): void {
  services.context.subscriptions.push(
    vscode.commands.registerCommand(SEND_COMMAND, (uri?: vscode.Uri) => sendTestEnvelope(services, uri)),
  );
}

export function envelopeDocument(uri?: vscode.Uri): vscode.TextDocument | undefined {
  if (uri) return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  const document = vscode.window.activeTextEditor?.document;
  return document?.languageId === ENVELOPE_LANGUAGE_ID ? document : undefined;
}

/**
 * The send settings of `uri`'s folder, or undefined when one that `purpose` reads cannot be used as written:
 * then an error names each and the command does nothing (what it would fall back to is another
 * key, broker or encoder than the one the user chose).
 */
export function settingsFor(uri: vscode.Uri | undefined, purpose: SettingsPurpose): SendSettings | undefined {
  const get = (key: string) => vscode.workspace.getConfiguration(undefined, uri).get(key);
  const problems = sendSettingsProblems(get, purpose);
  if (problems.length > 0) {
    // The problems quote the workspace's values, and a notification makes `[text](command:…)` in one a link.
    void vscode.window.showErrorMessage(unlinked(`BabelQueue: ${problems.join('; ')}. Fix the setting${problems.length > 1 ? 's' : ''}; nothing was read from or sent to a broker.`));
    return undefined;
  }
  return readSendSettings(get);
}

/**
 * The target from the settings with the password from secret storage (asked once when needed);
 * the Redis settings it leaves aside are said in the output, with `command`'s name.
 */
export async function resolveTarget(services: Pick<SendServices, 'context' | 'output'>, settings: SendSettings, command: string): Promise<BrokerTarget | undefined> {
  let target: BrokerTarget;
  try {
    target = parseTarget(settings.brokerUrl);
  } catch (error) {
    void vscode.window.showErrorMessage(unlinked(error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  for (const note of unusedSettingNotes(settings, target)) services.output.warn(`${command}: ${note}`);
  if (target.password !== undefined || target.username === undefined) return target;
  const key = passwordKey(target);
  let password = keptPassword(target, await services.context.secrets.get(key));
  if (password === undefined) {
    password = await vscode.window.showInputBox({ ...passwordPrompt(target), password: true, ignoreFocusOut: true });
    if (password === undefined) return undefined;
    if (password === '') {
      // No password: the command goes on without one, and secret storage is left as it was (on a
      // Redis server its one slot may hold another user's password).
      void vscode.window.showInformationMessage(`No password entered: connecting to ${target.display} without a password. Nothing was stored in secret storage, so the next command asks again.`);
      return withPassword(target, '');
    }
    await services.context.secrets.store(key, passwordToKeep(target, password));
  }
  return withPassword(target, password);
}

/**
 * A password the broker refused is forgotten, so the next command asks for it again. `used`, the
 * target the command connected with: one without a password (an empty answer at the prompt) used
 * nothing kept, so nothing is forgotten.
 */
export async function forgetRefusedPassword(services: Pick<SendServices, 'context'>, settings: SendSettings, error: unknown, used?: BrokerTarget): Promise<void> {
  if (used && used.password === undefined) return;
  const key = refusedPasswordKey(settings.brokerUrl, error);
  if (key !== undefined) await services.context.secrets.delete(key);
}

async function sendTestEnvelope(services: SendServices, uri?: vscode.Uri): Promise<void> {
  const document = envelopeDocument(uri);
  if (!document) {
    void vscode.window.showInformationMessage('Open a *.babel.json envelope to send it.');
    return;
  }
  // Restricted Mode is why nothing is sent, whatever else is wrong (a setting, the file's bytes): said first.
  if (!vscode.workspace.isTrusted) {
    void refuseUntrusted(UNTRUSTED_SEND_REFUSAL);
    return;
  }
  if (services.redriveInstead?.isDeadLetter(document.uri)) {
    // Nothing is sent from here: the lens above a dead letter is Redrive, and the palette agrees.
    const answer = await vscode.window.showWarningMessage(
      'This message is a dead letter: sending it would publish a second message with its dead_letter block and its attempts, and leave the stored one in the dead-letter queue. Redrive returns it to its original queue instead (without the dead_letter block, in place of the stored one).',
      { modal: true },
      REDRIVE_ANSWER,
    );
    if (answer === REDRIVE_ANSWER) await vscode.commands.executeCommand(services.redriveInstead.command, document.uri);
    return;
  }
  const settings = settingsFor(services.settingsScope?.(document.uri) ?? document.uri, 'send');
  if (!settings) return;
  let parsedTarget: BrokerTarget;
  try {
    parsedTarget = parseTarget(settings.brokerUrl);
  } catch (error) {
    void vscode.window.showErrorMessage(unlinked(error instanceof Error ? error.message : String(error)));
    return;
  }
  // What lint refuses is never published, whatever the answers: its bytes would not be the file's.
  const refusal = await services.savedBytes.refusal(envelopeState(document));
  if (refusal) {
    void vscode.window.showErrorMessage(unlinked(`${refusal} Nothing was sent.`));
    return;
  }
  // Built before the questions, so they can name the consumers that reject these exact bytes.
  const source = document.uri.toString();
  // The values a preview on screen shows are the ones sent; with none on screen, the pinned ones
  // may be from long ago (minted after the last send, or by a preview since closed): mint them now.
  if (!previewOnScreen(source)) services.freshIds.renew(source);
  const built = buildMessage(parseJson(document.getText()), {
    sdk: settings.encoder,
    freshIds: settings.freshIds,
    fresh: services.freshIds.for(source),
    redisLayout: settings.redisLayout,
    redisPrefix: settings.redisPrefix,
  });
  if (!built.ok) {
    void vscode.window.showErrorMessage(unlinked(built.error));
    return;
  }
  const message = built.message;
  const rejectedBy = describeRejections(built.consumers);
  const errors = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === 'babelqueue' && d.severity === vscode.DiagnosticSeverity.Error);
  const errorCodes = errors.map((d) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code ?? '')));
  const confirmed = new Set<ConfirmationKind>();
  for (;;) {
    const decision = decideSend({ trusted: vscode.workspace.isTrusted, errorCodes, rejectedBy, loopback: isLoopback(parsedTarget.host), host: parsedTarget.host, confirmed });
    if (decision.action === 'send') break;
    if (decision.action === 'refuse') {
      // Refused only in Restricted Mode, which the check above answers first; kept so decideSend's every answer is handled.
      void refuseUntrusted(decision.reason);
      return;
    }
    const answer = await vscode.window.showWarningMessage(decision.question, { modal: true }, decision.confirmLabel);
    if (answer !== decision.confirmLabel) return;
    confirmed.add(decision.kind);
  }
  const target = await resolveTarget(services, settings, 'Send');
  if (!target) return;

  // The queue and meta.id are the fixture's text: named cut and on one line wherever they are said.
  // The broker is named as the setting names it, as the CodeLens does: a password kept in secret
  // storage that equals the user name would otherwise take the user name out of the name.
  const where = describeTarget(parsedTarget, quotedName(target.kind === 'redis' ? message.redis.listKey : message.queue));
  const metaId = quotedName(message.metaId);
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Sending to ${where}…` }, () => publish(target, settings, message));
  } catch (error) {
    await forgetRefusedPassword(services, settings, error, target);
    // The output gets the real words of any failure; the notification keeps a broker's and points there for the rest.
    services.output.error(`Send to ${where} failed: ${failureText(error, [target.password])}`);
    void vscode.window.showErrorMessage(unlinked(`Not sent: ${isBrokerError(error) ? error.message : 'The send failed; see the BabelQueue output.'}`));
    return;
  }
  services.output.info(`Sent ${message.bytes.length} bytes to ${where}, meta.id ${metaId}, ${message.sdk} encoder`);
  void vscode.window.showInformationMessage(`Sent to ${quotedName(message.queue)} on ${parsedTarget.display}: meta.id ${metaId}, ${message.bytes.length} bytes.`);
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
      if (!(isBrokerError(error) && error.kind === 'missing-queue') || !(await declareMissingQueue(broker, message.queue, 'send'))) throw error;
      await broker.publish(message);
    }
  } finally {
    await broker?.close();
  }
}
