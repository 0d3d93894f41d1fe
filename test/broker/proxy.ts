/**
 * A loopback TCP proxy in front of the real Redis or RabbitMQ that acts at one exact command:
 * drops the connection before it reaches the broker, lets it through and then drops the
 * connection, or lets it through and swallows every reply after it. Used by the fault tests of
 * the send (midway.test.ts) and of the redrive (redrive-faults.test.ts).
 */
import { connect as connectTcp, createServer, type Server, type Socket } from 'node:net';

export type Action = 'cut-before' | 'cut-after' | 'blackhole-after';

/**
 * A loopback TCP proxy to `upstream` that watches what the client sends and, at the first command
 * `isTrigger` recognises once armed, acts: cuts both sockets before forwarding it, forwards it and
 * cuts, or forwards it and from then on swallows every reply. `intercept` may answer a command
 * itself (the proxy plays AUTH for a passwordless Redis, so the tests can use a secret).
 */
export class Proxy {
  armed = false;
  triggered = 0;
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  static async start(upstreamPort: number, action: Action, isTrigger: (frames: Buffer) => boolean, intercept?: (chunk: Buffer) => Buffer | undefined): Promise<Proxy> {
    const server = createServer();
    const proxy = new Proxy(server);
    server.on('connection', (client) => {
      const upstream = connectTcp(upstreamPort, '127.0.0.1');
      proxy.sockets.add(client).add(upstream);
      let blackhole = false;
      const cut = () => {
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) {
        socket.on('error', () => {});
        socket.on('close', cut);
      }
      upstream.on('data', (chunk) => {
        if (!blackhole) client.write(chunk);
      });
      client.on('data', (chunk: Buffer) => {
        const answer = intercept?.(chunk);
        if (answer) {
          client.write(answer);
          return;
        }
        if (proxy.armed && proxy.triggered === 0 && isTrigger(chunk)) {
          proxy.triggered++;
          if (action === 'cut-before') return cut();
          // The broker gets the command; its reply never reaches the client (then, for cut-after, the connection drops).
          blackhole = true;
          upstream.write(chunk, () => {
            if (action === 'cut-after') setTimeout(cut, 50);
          });
          return;
        }
        upstream.write(chunk);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A RESP command the client sends (RPUSH, EXEC, …), by name. */
export const respCommand = (name: string) => (chunk: Buffer) => new RegExp(`\\r\\n\\$${name.length}\\r\\n${name}\\r\\n`, 'i').test(chunk.toString('latin1'));

/** The proxy answers AUTH itself (the local Redis has no password), so the URL can carry a secret. */
export const fakeAuth = (chunk: Buffer) => (/\r\nAUTH\r\n/i.test(chunk.toString('latin1')) ? Buffer.from('+OK\r\n') : undefined);

/** An AMQP 0-9-1 basic.publish method frame (type 1, class 60, method 40) in the client's bytes. */
export function isBasicPublish(chunk: Buffer): boolean {
  return isAmqpMethod(60, 40)(chunk);
}


/** An AMQP 0-9-1 method frame of `classId`/`methodId` in the client's bytes (basic.ack is 60/80). */
export function isAmqpMethod(classId: number, methodId: number): (chunk: Buffer) => boolean {
  return (chunk) => {
    for (let at = chunk.indexOf(1); at >= 0 && at + 11 <= chunk.length; at = chunk.indexOf(1, at + 1)) {
      const size = chunk.readUInt32BE(at + 3);
      if (size >= 4 && chunk.readUInt16BE(at + 7) === classId && chunk.readUInt16BE(at + 9) === methodId) return true;
    }
    return false;
  };
}
