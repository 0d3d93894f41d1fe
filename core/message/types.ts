/**
 * A message ready to publish: the exact body bytes and how each broker carries them. Preview and
 * send both use this one value, so what is shown is what is sent. The broker layer executes it
 * and adds nothing of its own.
 */

export type RedisLayout = 'babelqueue' | 'laravel';

/** Redis: the list the body is pushed onto, atomically with Laravel's notify marker when asked. */
export interface RedisProjection {
  readonly layout: RedisLayout;
  /** The list key: the bare queue (`orders`) or Laravel's `queues:orders` (with its prefix). */
  readonly listKey: string;
  /** Laravel's blocking pop waits on this list; one marker is pushed with the body. */
  readonly notifyKey?: string;
  /** The commands, for people: `RPUSH orders <body>`. */
  readonly commands: readonly string[];
}

/** AMQP 0-9-1 properties with native types, as the conformance projection fixes them. */
export interface AmqpProperties {
  readonly contentType: 'application/json';
  readonly contentEncoding: 'utf-8';
  /** 2 = persistent. */
  readonly deliveryMode: 2;
  readonly appId: 'babelqueue';
  /** The URN: consumers route on it without reading the body. */
  readonly type: string;
  /** trace_id. */
  readonly correlationId: string;
  /** meta.id. */
  readonly messageId: string;
  readonly headers: {
    readonly 'x-schema-version': number;
    readonly 'x-source-lang': string;
    readonly 'x-attempts': number;
  };
}

/** RabbitMQ: the default exchange with the queue as routing key. */
export interface AmqpProjection {
  readonly exchange: '';
  readonly routingKey: string;
  readonly properties: AmqpProperties;
}

/** The exact bytes and the broker projections of one envelope. */
export interface OutgoingMessage {
  /** The body as text (what the encoder wrote) and as UTF-8 bytes (what goes on the wire). */
  readonly text: string;
  readonly bytes: Uint8Array;
  /** How many bytes the body is (known without encoding it: a preview of a 5 MB envelope shows the count and its first bytes only). */
  readonly byteLength: number;
  /**
   * The body's length in UTF-16 code units, and its first or last units, known without writing the
   * whole body. (Functions and getters: a message is not data to clone or serialize as it is.)
   */
  readonly textLength: number;
  textHead(units: number): string;
  textTail(units: number): string;
  /** The SDK whose encoder wrote the body. */
  readonly sdk: string;
  /** The logical queue (`meta.queue` unless overridden). */
  readonly queue: string;
  /** The URN as the chosen SDK's decoder reads it (decodedUrn): what the message routes on. */
  readonly urn: string;
  readonly metaId: string;
  readonly redis: RedisProjection;
  readonly amqp: AmqpProjection;
}

/** One dead letter to move: its exact stored bytes in the DLQ, and the message to publish instead. */
export interface RedriveMove {
  readonly original: Uint8Array;
  readonly message: OutgoingMessage;
}
