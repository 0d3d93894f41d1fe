/**
 * The question Send and Redrive ask when a RabbitMQ queue they would publish to does not exist
 * (the default exchange would drop the message silently): declare it durable, as the BabelQueue
 * transports do, and go on. Any other answer leaves the broker as it was.
 */
import * as vscode from 'vscode';
import type { Broker } from '../broker';
import { quotedName } from './quoted-text';

/**
 * Asks, and declares `queue` on `broker` when the user agrees: true once it is declared, false
 * when declined or when the broker declares no queues (Redis makes a list on the first push).
 */
export async function declareMissingQueue(broker: Broker, queue: string, action: 'send' | 'redrive'): Promise<boolean> {
  if (!broker.declareQueue) return false;
  if (!(await agreesToDeclare(queue, action))) return false;
  await broker.declareQueue(queue);
  return true;
}

/**
 * Only the question: true when the user agrees to declare `queue`. Redrive asks it for every
 * missing queue before declaring any, so a declined one leaves the broker as it was.
 */
export async function agreesToDeclare(queue: string, action: 'send' | 'redrive'): Promise<boolean> {
  // The name is the fixture's or the dead letter's text: cut and on one line, in the button too.
  const name = quotedName(queue);
  const declare = `Declare "${name}"`;
  const what = action === 'send' ? 'the message' : 'the redriven messages';
  const answer = await vscode.window.showWarningMessage(`The queue "${name}" does not exist, so RabbitMQ would drop ${what}. Declare it (durable) and ${action}?`, { modal: true }, declare);
  return answer === declare;
}
