/**
 * What reading a RabbitMQ quorum queue costs its messages, said when a read shows it is one.
 *
 * RabbitMQ has no way to read a queue without taking its messages: peek, dlq list and redrive get
 * them and requeue them. A quorum queue counts each such return as a delivery (before RabbitMQ
 * 4.3, which counts a requeue by nack no longer) and drops or dead-letters a message past its
 * delivery limit (`x-delivery-limit`, 20 by default from RabbitMQ 4.0): with a limit of 2, the
 * third peek loses the message (measured on RabbitMQ 3.10.8). Over AMQP 0-9-1 the queue's type
 * cannot be asked before the first get without altering or risking the queue (a passive declare
 * answers only its counts), so it is told afterwards, from the `x-delivery-count` header that
 * quorum queues put on the messages they deliver, with how many deliveries the messages show.
 */

/** The header RabbitMQ quorum queues add to the messages they deliver: how many times each was returned. */
export const DELIVERY_COUNT_HEADER = 'x-delivery-count';

/** The delivery count a message was got with, when it came from a quorum queue. */
export function deliveryCountOf(headers: Readonly<Record<string, unknown>> | undefined): number | undefined {
  const count = headers?.[DELIVERY_COUNT_HEADER];
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined;
}

/**
 * The note for a read in which some message showed a delivery count, or undefined. `where` names
 * the queue; `whatCounted` says which of this command's gets and requeues count.
 */
export function quorumNote(deliveryCounts: readonly (number | undefined)[], where: string, whatCounted: string, server: string | undefined): string | undefined {
  const counts = deliveryCounts.filter((count): count is number => count !== undefined);
  if (counts.length === 0) return undefined;
  const [fewest, most] = [Math.min(...counts), Math.max(...counts)];
  return (
    `note: ${where} is a quorum queue (the messages read carry ${DELIVERY_COUNT_HEADER} ${fewest === most ? most : `${fewest} to ${most}`}: their deliveries before this read). ` +
    `On RabbitMQ before 4.3 every get and requeue counts as a delivery toward the queue's delivery limit (x-delivery-limit, 20 by default from RabbitMQ 4.0), ${whatCounted}, ` +
    `and the broker drops or dead-letters a message past that limit; from RabbitMQ 4.3 a requeue by nack, as here, no longer counts.` +
    (server !== undefined ? ` This server is ${server}.` : '')
  );
}
