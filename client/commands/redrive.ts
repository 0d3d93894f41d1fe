/**
 * Redrive from the editor: one message (from its view), several (from Dead Letters), or an
 * edited copy ("Edit, then Redrive": the edited, re-linted envelope is published instead, and the
 * stored original leaves the DLQ in the same move). The bytes are shown before anything moves;
 * the send guards apply (trust, errors, non-loopback host); broker/ does the move without loss.
 */
import * as vscode from 'vscode';
import { REDRIVE_SDKS, type RedriveSdk } from '../../core/message/dead-letter';
import { decideSend, type ConfirmationKind } from '../../core/message/send-policy';
import { ENVELOPE_LANGUAGE_ID } from '../../core/language/protocol';
import { formattedMessage } from '../../core/language/message-text';
import { planRedrive, redriveErrorCodes, redriveQuestion, type RedrivePlan } from '../../core/language/redrive-plan';
import type { RedriveMove } from '../../core/message/types';
import { DIAGNOSTIC_SOURCE } from '../../core/rules/diagnostic';
import { notSearchedText, openBroker, type Broker } from '../../broker';
import { BrokerError, isBrokerError } from '../../broker/errors';
import { describeTarget, isLoopback, parseTarget, type BrokerTarget } from '../../broker/target';
import { commandDocument, type MessageViews, type ShownMessage } from '../message-view';
import type { MessageJudge } from '../server-judgement';
import { failureText } from '../send-settings';
import { bodyExcerpt, quotedName, quotedText, someQuoted, unlinked } from '../quoted-text';
import { forgetRefusedPassword, resolveTarget, settingsFor, type SendServices } from './send';
import { refuseUntrusted } from '../restricted-mode';
import { agreesToDeclare } from '../declare-missing-queue';

export const REDRIVE_COMMAND = 'babelqueue.redriveMessage';
export const EDIT_THEN_REDRIVE_COMMAND = 'babelqueue.editThenRedrive';

/** A message to redrive, with the edited text when the user changed it first. */
export interface RedriveRequest {
  readonly message: ShownMessage;
  readonly editedText?: string;
  /** The editor showing it, whose payload-schema errors (they need the registry) count too. */
  readonly shownIn?: vscode.Uri;
}

type RedriveServices = Pick<SendServices, 'context' | 'output'> & {
  /** The language server's verdicts (client/server-judgement.ts): errors with the workspace's registry and babelq.json. */
  readonly judge?: MessageJudge;
};

/** Registers Redrive and Edit, then Redrive; `isEditedCopy` tells the edited copies still linked to their dead letter. */
export function registerRedriveCommands(services: RedriveServices & { readonly views: MessageViews }): { readonly isEditedCopy: (uri: vscode.Uri) => boolean } {
  // Edited copies (untitled envelopes) and the dead letter each one replaces.
  const edited = new Map<string, ShownMessage>();
  services.context.subscriptions.push(
    vscode.workspace.onDidCloseTextDocument((document) => edited.delete(document.uri.toString())),
    vscode.commands.registerCommand(REDRIVE_COMMAND, async (argument?: unknown) => {
      const document = commandDocument(argument);
      const viewed = document && services.views.messageOf(document.uri);
      const copy = document && edited.get(document.uri.toString());
      if (viewed && !viewed.source.deadLetters) {
        void vscode.window.showInformationMessage(`${quotedName(viewed.source.queue)} is not a dead-letter queue: only dead letters are redriven (open one with BabelQueue: Dead Letters).`);
        return false;
      }
      if (viewed) return redrive(services, [{ message: viewed, shownIn: document.uri }]);
      if (copy && document) {
        const done = await redrive(services, [{ message: copy, editedText: document.getText(), shownIn: document.uri }]);
        if (done) edited.delete(document.uri.toString());
        return done;
      }
      void vscode.window.showInformationMessage('Open a dead letter (BabelQueue: Dead Letters) or its edited copy to redrive it.');
      return false;
    }),
    vscode.commands.registerCommand(EDIT_THEN_REDRIVE_COMMAND, async (argument?: unknown) => {
      const document = commandDocument(argument);
      const viewed = document && services.views.messageOf(document.uri);
      if (!viewed || !viewed.source.deadLetters) {
        void vscode.window.showInformationMessage('Open a dead letter (BabelQueue: Dead Letters) to edit and redrive it.');
        return;
      }
      const copy = await vscode.workspace.openTextDocument({ language: ENVELOPE_LANGUAGE_ID, content: formattedMessage(viewed.row.text) });
      edited.set(copy.uri.toString(), viewed);
      await vscode.window.showTextDocument(copy, { preview: false });
      void vscode.window.showInformationMessage(`Edit the envelope, then run "BabelQueue: Redrive" to publish it in place of meta.id ${quotedName(viewed.row.metaId)}.`);
    }),
  );
  return { isEditedCopy: (uri) => edited.has(uri.toString()) };
}

/**
 * The error codes of what the moves would publish, as the language server judges them (the first
 * workspace folder's registry and babelq.json, as `babelq dlq redrive` judges them in the folder
 * it runs in). Without its answer: the plan's own, on the contract alone, with the payload-schema
 * errors of the editors showing a candidate (as of the server's last answer on that text), and a
 * line in the output saying the registry was not consulted.
 */
async function judgedErrorCodes(services: RedriveServices, requests: readonly RedriveRequest[], plan: RedrivePlan): Promise<string[]> {
  const judged = services.judge ? await services.judge(plan.moves.map(({ message }) => message.text)) : { unjudged: 'no language server' };
  if ('verdicts' in judged) {
    // A text longer than the server judges is judged here, on the contract alone, and said so.
    const unjudged = judged.verdicts.filter((verdict) => verdict === null).length;
    if (unjudged > 0) services.output.warn(`Redrive: errors counted on the envelope contract alone, without the registry's payload schemas, for ${unjudged} message(s) longer than the BabelQueue language server judges.`);
    return judged.verdicts.flatMap((verdict, at) => verdict?.errorCodes ?? redriveErrorCodes([plan.moves[at]!]));
  }
  services.output.warn(`Redrive: errors counted on the envelope contract alone, without the registry's payload schemas: ${judged.unjudged}.`);
  const codes = redriveErrorCodes(plan.moves);
  for (const index of plan.movedCandidates) {
    const shownIn = requests[index]!.shownIn;
    if (shownIn) codes.push(...schemaErrorsShown(shownIn));
  }
  return codes;
}

/** The server's payload-schema errors on an open editor, as its squiggles show them: one code per error, for the send question. */
function schemaErrorsShown(uri: vscode.Uri): string[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === DIAGNOSTIC_SOURCE && d.severity === vscode.DiagnosticSeverity.Error && diagnosticCode(d) === 'payload-schema').map(() => 'payload-schema');
}

function diagnosticCode(diagnostic: vscode.Diagnostic): string | undefined {
  const { code } = diagnostic;
  return typeof code === 'object' ? String(code.value) : code === undefined ? undefined : String(code);
}

/** Redrives `requests` after the preview and the guards; true when they were moved. */
export async function redrive(services: RedriveServices, requests: readonly RedriveRequest[], sdk: RedriveSdk | 'auto' = 'auto'): Promise<boolean> {
  if (requests.length === 0) return false;
  if (!vscode.workspace.isTrusted) {
    void refuseUntrusted('Redrive is disabled in Restricted Mode: trust this workspace to move messages on a broker.');
    return false;
  }
  const { source } = requests[0]!.message;
  const settings = settingsFor(source.settingsUri, 'broker');
  if (!settings) return false;
  // Re-linted as sent (dead_letter removed, attempts 0): an edit can fix errors, or make new ones.
  const plan = planRedrive(
    requests.map((request) => ({ metaId: request.message.row.metaId, body: request.message.body, text: request.editedText ?? request.message.row.text, edited: request.editedText !== undefined })),
    { sdk, redisLayout: settings.redisLayout, redisPrefix: settings.redisPrefix },
  );
  const { moves, skipped: refused, notes } = plan;
  if (moves.length === 0) {
    // Each names a meta.id and what the SDK's redrive read in the message: the first few, on one line each.
    void vscode.window.showErrorMessage(`Nothing to redrive: ${someQuoted(refused, quotedText, '; ')}`);
    return false;
  }

  let configured: BrokerTarget;
  try {
    configured = parseTarget(settings.brokerUrl);
  } catch (error) {
    void vscode.window.showErrorMessage(unlinked(error instanceof Error ? error.message : String(error)));
    return false;
  }
  const { host, kind } = configured;
  // The queues, ids and bodies are the dead letters' (whoever dead-lettered them wrote them):
  // quoted cut and on one line, the few bodies shown cut, the rest counted.
  const destinations = someQuoted([...new Set(moves.map(({ message }) => (kind === 'redis' ? message.redis.listKey : message.amqp.routingKey)))]);
  const preview = moves.slice(0, 3).map(({ message }) => `meta.id ${quotedName(message.metaId)} → ${quotedName(kind === 'redis' ? message.redis.listKey : message.amqp.routingKey)}, ${message.bytes.length} bytes:\n${bodyExcerpt(message.text)}`);
  const more = moves.length > 3 ? `\n… and ${moves.length - 3} more` : '';
  const skipped = refused.length > 0 ? `\n\nLeft in the DLQ: ${someQuoted(refused, quotedText, '; ')}` : '';
  // First in the detail: a queue named by white space is invisible in the question's "to …".
  const targetNotes = notes.length > 0 ? `Note: ${someQuoted(notes, quotedText, '; ')}\n\n` : '';
  const anotherSdk = 'Another SDK…';
  const answer = await vscode.window.showInformationMessage(
    `Redrive ${moves.length} message(s) from ${quotedName(source.key)} to ${destinations} (${moves[0]!.message.sdk} redrive: dead_letter removed, attempts 0)?`,
    { modal: true, detail: `${targetNotes}${preview.join('\n\n')}${more}${skipped}` },
    'Redrive',
    anotherSdk,
  );
  if (answer === anotherSdk) {
    const picked = await vscode.window.showQuickPick(
      REDRIVE_SDKS.map((name) => ({ label: name, description: name === 'python' || name === 'php' ? 'keeps top-level keys outside the contract' : 'drops top-level keys outside the contract' })),
      { title: 'Whose redrive to reproduce' },
    );
    return picked ? redrive(services, requests, picked.label as RedriveSdk) : false;
  }
  if (answer !== 'Redrive') return false;

  const errorCodes = await judgedErrorCodes(services, requests, plan);
  const confirmed = new Set<ConfirmationKind>();
  for (;;) {
    const decision = decideSend({ trusted: true, errorCodes, loopback: isLoopback(host), host, confirmed });
    if (decision.action === 'send') break;
    if (decision.action === 'refuse') {
      void vscode.window.showWarningMessage(unlinked(decision.reason));
      return false;
    }
    // In a redrive's words, the button too: "Redrive Anyway", not "Send Anyway".
    const confirmLabel = decision.confirmLabel.replace(/^Send\b/, 'Redrive');
    const yes = await vscode.window.showWarningMessage(redriveQuestion(decision.question, moves.length), { modal: true }, confirmLabel);
    if (yes !== confirmLabel) return false;
    confirmed.add(decision.kind);
  }
  const target = await resolveTarget(services, settings, 'Redrive');
  if (!target) return false;
  // Named as the setting (and the CodeLens) name it, whatever password secret storage supplied.
  const where = describeTarget(configured, quotedName(source.key));
  let broker: Broker | undefined;
  try {
    // Every question about a missing RabbitMQ queue is answered before the progress starts (a modal
    // question under a spinning "Redriving from …" looks stuck), and before any queue is declared:
    // one declined leaves the broker as it was.
    let toDeclare: readonly string[] = [];
    if (kind === 'amqp') {
      broker = await openBroker(target, { timeoutMs: settings.timeoutMs });
      const { missing, refusal } = await missingTargets(broker, moves);
      if (refusal) throw nothingMoved(refusal, moves.length, source.key);
      if (missing.length > 0) {
        // No connection is held open while the user decides.
        await broker.close();
        broker = undefined;
        const declined = await firstDeclined(missing);
        if (declined) throw nothingMoved(declined, moves.length, source.key);
        toDeclare = missing.map(({ queue }) => queue);
      }
    }
    const receipt = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Redriving from ${where}…` }, async () => {
      broker ??= await openBroker(target, { timeoutMs: settings.timeoutMs });
      try {
        for (const queue of toDeclare) await broker.declareQueue?.(queue);
      } catch (error) {
        // A declare the broker refuses (a reserved name, no configure permission) moved nothing either: said so.
        if (isBrokerError(error)) throw nothingMoved(error, moves.length, source.key);
        throw error;
      }
      return broker.redrive(source.key, moves);
    });
    const unsearched = receipt.notSearched ? notSearchedText(receipt.notSearched, quotedName(source.key)) : undefined;
    services.output.info(`Redrove ${receipt.moved} message(s) from ${where} to ${destinations} in ${receipt.durationMs} ms${receipt.missing ? `, ${receipt.missing} already gone` : ''}${unsearched ? `; ${unsearched}` : ''}`);
    const gone = receipt.missing > 0 ? ` ${receipt.missing} had already left the DLQ: nothing was published for them.` : '';
    const stopped = unsearched ? ` ${unsearched.charAt(0).toUpperCase()}${unsearched.slice(1)}.` : '';
    void vscode.window.showInformationMessage(`Redrove ${receipt.moved} message(s) to ${destinations}.${gone}${stopped}`);
    return receipt.moved > 0;
  } catch (error) {
    await forgetRefusedPassword(services, settings, error, target);
    // The output gets the real words of any failure; the notification keeps a broker's and points there for the rest.
    services.output.error(`Redrive from ${where} failed: ${failureText(error, [target.password])}`);
    void vscode.window.showErrorMessage(unlinked(isBrokerError(error) ? error.message : 'The redrive failed; see the BabelQueue output.'));
    return false;
  } finally {
    await (broker as Broker | undefined)?.close();
  }
}

/** `error`, saying that the `count` message(s) are still in the DLQ `key`. */
function nothingMoved(error: BrokerError, count: number, key: string): BrokerError {
  return new BrokerError(error.kind, `${error.message} Nothing was moved: the ${count} message(s) are still in ${quotedName(key)}.`, { target: error.target });
}

interface MissingTarget {
  readonly queue: string;
  /** What the redrive would stop with, before moving anything, if the queue stayed missing. */
  readonly error: BrokerError;
}

/**
 * RabbitMQ (read only, passive declares): the target queues of `moves` that do not exist, which
 * Redrive offers to declare (durable) as Send does, since the default exchange would drop a
 * message published to them; or the first other refusal of a target.
 */
async function missingTargets(broker: Broker, moves: readonly RedriveMove[]): Promise<{ readonly missing: readonly MissingTarget[]; readonly refusal?: BrokerError }> {
  if (!broker.declareQueue) return { missing: [] };
  const byQueue = new Map<string, RedriveMove[]>();
  for (const move of moves) {
    const queue = move.message.amqp.routingKey;
    const same = byQueue.get(queue);
    if (same) same.push(move);
    else byQueue.set(queue, [move]);
  }
  const missing: MissingTarget[] = [];
  for (const [queue, onQueue] of byQueue) {
    const refusal = await broker.redriveTargetRefusal(onQueue);
    if (!refusal) continue;
    if (refusal.error.kind !== 'missing-queue') return { missing, refusal: refusal.error };
    missing.push({ queue, error: refusal.error });
  }
  return { missing };
}

/** Asks about each missing queue in turn: the error of the first one the user declines, or undefined when every one is agreed to. */
async function firstDeclined(missing: readonly MissingTarget[]): Promise<BrokerError | undefined> {
  for (const { queue, error } of missing) {
    if (!(await agreesToDeclare(queue, 'redrive'))) return error;
  }
  return undefined;
}
