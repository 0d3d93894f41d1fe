/**
 * Redis publisher: pushes the exact body bytes onto the list the projection names, with
 * Laravel's notify marker in the same MULTI/EXEC when the projection asks for it.
 *
 * The client is set up to fail fast rather than to be resilient: one connection attempt, no
 * reconnects, no offline queue, a deadline on every step. A person is waiting for the answer, and
 * "refused" after 5 ms is more useful than a retry loop that hides it.
 */
import { isIP } from 'node:net';
import Redis from 'ioredis';
import type { OutgoingMessage, RedriveMove } from '../core/message/types';
import { BrokerError, RedriveInterrupted, type BrokerErrorKind } from './errors';
import { DEFAULT_TIMEOUT_MS, elapsed, errorMessage, named, quoted, socketFailure, tlsExpected, tlsHint, tlsReach, withDeadline } from './internal';
import type { BrokerTarget } from './target';

/** Options for a Redis connection. */
export interface RedisPublisherOptions {
  /** Deadline for connecting and for each command, in ms (default 5000). */
  readonly timeoutMs?: number;
  /** The address to connect to (broker/connect-address.ts); the host name still names the TLS server. */
  readonly address?: string;
}

/** What a Redis publish reports: how long it took and the list length after the push. */
export interface RedisPublishResult {
  readonly durationMs: number;
  readonly length?: number;
}

// Laravel's LuaScripts::push() pushes the integer 1 onto `:notify`; its blocking pop only counts entries.
const NOTIFY_MARKER = '1';

/** Marks a deadline that fired, as opposed to an error the client reported. */
class Deadline extends Error {}

type Phase = 'connect' | 'publish' | 'peek' | 'redrive';

/** What a Redis redrive reports. */
export interface RedisRedriveResult {
  readonly durationMs: number;
  readonly moved: number;
  /** Moves whose exact bytes were no longer in the DLQ (another reader took them). */
  readonly missing: number;
}

/**
 * One dead letter moved as one atomic step: only when the exact stored element (ARGV[1]) is in the
 * DLQ, RPUSH of the redriven body (plus Laravel's notify marker), then LREM of that element (one
 * copy). Returns 1 moved, 0 gone, or the error reply of the step Redis refused, with nothing changed.
 *
 * A script stops at the first failing command without undoing earlier ones, and Redis checks a
 * user's ACL per command inside it: a user allowed LREM but not RPUSH would lose the message if it
 * were taken out first. So the pushes come first, each through pcall, and a refused step takes
 * back the pushes before it (RPOP: the script runs alone, so the tail is what it pushed). Every
 * key's type is checked before anything is written, for an error that names the key at fault
 * (the DLQ's too: read as a list, it may hold something else by the time it moves). LPOS (Redis 6.0.6 and
 * later) finds the element; where it is missing or denied, the list is read in pages instead.
 * Both search from the tail, and LREM removes the copy nearest it: the dead letters chosen are
 * the newest (peek reads the tail), and a search from the head went through every older dead
 * letter first, on each move, with the server blocked meanwhile (a script runs alone).
 */
const MOVE_SCRIPT = `
for i = 1, #KEYS do
  local kind = redis.call('TYPE', KEYS[i]).ok
  if kind ~= 'list' and kind ~= 'none' then
    return redis.error_reply('WRONGTYPE the key ' .. KEYS[i] .. ' holds a ' .. kind .. ', not a list')
  end
end
local function refused(reply) return type(reply) == 'table' and reply.err ~= nil end
local function present()
  local at = redis.pcall('LPOS', KEYS[1], ARGV[1], 'RANK', -1)
  if not refused(at) then return at ~= false end
  local size = redis.call('LLEN', KEYS[1])
  for last = size - 1, 0, -256 do
    for _, item in ipairs(redis.call('LRANGE', KEYS[1], math.max(0, last - 255), last)) do
      if item == ARGV[1] then return true end
    end
  end
  return false
end
if not present() then return 0 end
local pushed = {}
local function takeBack(reply)
  for i = #pushed, 1, -1 do
    if refused(redis.pcall('RPOP', pushed[i])) then
      return redis.error_reply('BABELQ-BOTH ' .. reply.err)
    end
  end
  return reply
end
for i = 2, #KEYS do
  local reply = redis.pcall('RPUSH', KEYS[i], ARGV[i])
  if refused(reply) then return takeBack(reply) end
  pushed[#pushed + 1] = KEYS[i]
end
local removed = redis.pcall('LREM', KEYS[1], -1, ARGV[1])
if refused(removed) then return takeBack(removed) end
return 1
`;

/** What a Redis peek read: the elements, oldest first, and the size of the next one when the byte bound left it unread. */
export interface RedisPeekResult {
  readonly items: Uint8Array[];
  readonly nextBytes?: number;
}

/**
 * Peek (read only): the last ARGV[1] elements of KEYS[1], oldest first, taken from the tail while
 * they fit in ARGV[2] bytes together; the second value is the size of the first one that did not
 * fit (false when all fitted). Each element is measured with LINDEX inside the server, so one that
 * does not fit never leaves it. LLEN's refusal (WRONGTYPE) is passed on as Redis words it, not
 * wrapped as a script error (as Redis before 7 wraps an error raised inside a script).
 */
const PEEK_SCRIPT = `
local size = redis.pcall('LLEN', KEYS[1])
if type(size) == 'table' and size.err ~= nil then return redis.error_reply(size.err) end
local want = math.min(tonumber(ARGV[1]), size)
local budget = tonumber(ARGV[2])
local newestFirst = {}
local total = 0
for i = 1, want do
  local item = redis.call('LINDEX', KEYS[1], -i)
  if total + #item > budget then
    local items = {}
    for j = #newestFirst, 1, -1 do items[#items + 1] = newestFirst[j] end
    return { items, #item }
  end
  total = total + #item
  newestFirst[i] = item
end
local items = {}
for j = #newestFirst, 1, -1 do items[#items + 1] = newestFirst[j] end
return { items, false }
`;

/** A connected Redis client that publishes OutgoingMessages and peeks lists. */
export class RedisPublisher {
  /** The last error the client emitted: connect() itself only ever says "Connection is closed." */
  private lastError: unknown;
  /** Set once a command timed out: QUIT would only wait out another deadline. */
  private stalled = false;

  private constructor(
    private readonly client: Redis,
    /** The target this publisher is connected to (its password is not enumerable). */
    readonly target: BrokerTarget,
    private readonly timeoutMs: number,
    /** The address connected to, when broker/connect-address.ts pinned one. */
    private readonly address: string | undefined,
  ) {
    client.on('error', (error: unknown) => {
      this.lastError = error;
    });
  }

  /** Connects, authenticates, selects the database and checks that the server answers PING like Redis. */
  static async open(target: BrokerTarget, options: RedisPublisherOptions = {}): Promise<RedisPublisher> {
    if (target.kind !== 'redis') throw new TypeError(`RedisPublisher needs a redis:// or rediss:// target, got ${target.display}`);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const client = new Redis({
      host: options.address ?? target.host,
      port: target.port,
      ...(target.tls ? { tls: isIP(target.host.replace(/\.$/, '')) ? {} : { servername: target.host.replace(/\.$/, '') } } : {}),
      lazyConnect: true,
      retryStrategy: null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      // After end(), ioredis destroys a socket that has not closed only after 2 s; a refused or
      // failed connection would keep the process (and `babelq send --timeout 500`) alive that long.
      disconnectTimeout: Math.min(timeoutMs, 200),
      // AUTH, SELECT and the readiness probe are sent by open() instead of by ioredis: ioredis
      // only warns (on the console) when a password is given to a server that has none, and a
      // wrong password must be an error here. RESP2 keeps the handshake to what every Redis speaks.
      protocol: 2,
      enableReadyCheck: false,
      disableClientInfo: true,
    });
    const publisher = new RedisPublisher(client, target, timeoutMs, options.address);
    try {
      await withDeadline(publisher.handshake(), timeoutMs, () => new Deadline());
    } catch (error) {
      const classified = await publisher.classify(error, 'connect');
      const failure = await tlsExpected(classified, classified.kind === 'closed', target, timeoutMs, options.address);
      client.disconnect();
      throw failure;
    }
    return publisher;
  }

  /** RPUSHes `message.bytes` onto `message.redis.listKey` (with the notify marker, atomically, when there is a notifyKey). */
  async publish(message: OutgoingMessage): Promise<RedisPublishResult> {
    const { listKey, notifyKey } = message.redis;
    // A view on the caller's bytes, not a re-encoding of `text`: what was previewed is what is sent.
    const body = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    const start = performance.now();
    this.lastError = undefined;
    try {
      if (notifyKey === undefined) {
        const length = await this.client.rpush(listKey, body);
        return { durationMs: elapsed(start), length };
      }
      await this.refuseKeysNotLists([listKey, notifyKey]);
      // MULTI on a round trip of its own, answered before anything else is sent: Redis answers a
      // MULTI the user's ACL refuses with an error and then runs the pushes after it one by one,
      // outside any transaction, so a pipelined MULTI/RPUSH/RPUSH/EXEC stored the body (without
      // its marker when that push was refused) under an error that said nothing was sent.
      await this.client.multi({ pipeline: false });
      // A push the ACL refuses is refused when it is queued, and EXEC then discards every push.
      const [bodyQueued, markerQueued, executed] = await Promise.allSettled([this.client.rpush(listKey, body), this.client.rpush(notifyKey, NOTIFY_MARKER), this.client.exec()]);
      if (executed.status === 'rejected') throw refusedFirst([bodyQueued, markerQueued]) ?? executed.reason;
      const results = executed.value;
      if (!results) throw new BrokerError('rejected', `${this.target.display} aborted the transaction for ${named(listKey)}: nothing was pushed.`, { target: this.target.display });
      for (const [error] of results) if (error) throw error;
      const length = results[0]?.[1];
      return { durationMs: elapsed(start), ...(typeof length === 'number' ? { length } : {}) };
    } catch (error) {
      throw await this.classify(error, 'publish', listKey, notifyKey);
    }
  }

  /**
   * Refuses a send before anything is pushed when one of `keys` holds something other than a
   * list. Inside MULTI, Redis runs the push onto the other key anyway and reports only the one it
   * refused: the body would be stored without its notify marker (or a marker without a body) under
   * an error that said nothing was pushed, and named the wrong key. A user whose ACL refuses TYPE
   * gets the send as before.
   */
  private async refuseKeysNotLists(keys: readonly string[]): Promise<void> {
    let kinds: string[];
    try {
      kinds = await Promise.all(keys.map((key) => this.client.type(key)));
    } catch (error) {
      if (/^NOPERM/i.test(errorMessage(error))) return;
      throw error;
    }
    const at = kinds.findIndex((kind) => kind !== 'list' && kind !== 'none');
    if (at >= 0) throw new BrokerError('rejected', `${this.target.display} refused: the key ${named(keys[at]!)} holds a ${kinds[at]}, not a list, so nothing was pushed.`, { target: this.target.display });
  }

  /**
   * The last `count` elements of the list at `key`, oldest first, without removing them, and no
   * more of them than fit in `maxBytes` together: the newest first, up to the first one that would
   * not fit (`nextBytes`: its size), which is left unread with everything older. A user whose ACL
   * refuses EVAL, or a server without EVAL, gets the elements by one LRANGE of `count`, which
   * reads them all from the server, and the same bound is applied to what came back.
   */
  async peek(key: string, count: number, maxBytes = Number.MAX_SAFE_INTEGER): Promise<RedisPeekResult> {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`peek count must be a whole number ≥ 0, got ${count}`);
    if (count === 0) return { items: [] };
    this.lastError = undefined;
    try {
      let reply: [Buffer[], number | null];
      try {
        reply = (await this.client.callBuffer('EVAL', PEEK_SCRIPT, 1, key, String(count), String(maxBytes))) as [Buffer[], number | null];
      } catch (error) {
        // A server whose EVAL was renamed away (rename-command) answers it as an unknown command:
        // reading needs no script, only the bound is then applied on arrival.
        if (!/^NOPERM|^ERR The user executing the script can't|^ERR unknown command [`']EVAL[`']/i.test(errorMessage(error))) throw error;
        // One LRANGE (what it reads is one moment's list), the bound applied as the script applies
        // it: what is read past it crosses the wire, but is neither returned nor counted as read.
        const all = await this.client.lrangeBuffer(key, -count, -1);
        let total = 0;
        let first = all.length;
        while (first > 0 && total + all[first - 1]!.byteLength <= maxBytes) total += all[--first]!.byteLength;
        reply = [all.slice(first), first > 0 ? all[first - 1]!.byteLength : null];
      }
      const [items, nextBytes] = reply;
      return { items: items.map((item) => new Uint8Array(item.buffer, item.byteOffset, item.byteLength)), ...(typeof nextBytes === 'number' ? { nextBytes } : {}) };
    } catch (error) {
      throw await this.classify(error, 'peek', key);
    }
  }

  /**
   * Moves each dead letter from the list `dlqKey` to its message's list, one atomic script per
   * message, in order, stopping at the first failure: every message not yet moved stays in the DLQ,
   * and the one in flight is in exactly one of the two lists.
   */
  async redrive(dlqKey: string, moves: readonly RedriveMove[]): Promise<RedisRedriveResult> {
    const start = performance.now();
    let moved = 0;
    let missing = 0;
    for (const move of moves) {
      const { listKey, notifyKey } = move.message.redis;
      const keys = notifyKey === undefined ? [dlqKey, listKey] : [dlqKey, listKey, notifyKey];
      const args = [view(move.original), view(move.message.bytes), ...(notifyKey === undefined ? [] : [NOTIFY_MARKER])];
      this.lastError = undefined;
      try {
        const result = await this.client.eval(MOVE_SCRIPT, keys.length, ...keys, ...args);
        if (result === 1) moved++;
        else missing++;
      } catch (error) {
        const cause = await this.classify(error, 'redrive', listKey);
        const after = moves.length - moved - missing - 1;
        const [id, from, to] = [named(move.message.metaId), named(dlqKey), named(listKey)];
        // An error reply (the user's ACL, a key of the wrong type, the server's own refusal) means
        // the script left both lists as they were: it takes back its pushes when a later step is
        // refused, unless it could not take them back either. Anything else (a lost connection, a
        // timeout, a reply that was not Redis's) leaves the outcome unknown.
        const inFlight = cause.kind !== 'auth' && cause.kind !== 'rejected'
          ? `The move of meta.id ${id} is one atomic step, so it is either still in ${from} or already on ${to}, never both and never neither`
          : /^BABELQ-BOTH /.test(errorMessage(error))
            ? `Redis refused the move of meta.id ${id} part-way and did not allow taking its push back: it is now both on ${to} and still in ${from}; remove one copy before redriving again`
            : `Redis refused the move of meta.id ${id} and nothing was changed, so it is still in ${from}`;
        throw new RedriveInterrupted(
          cause,
          moved,
          `Redrive stopped after ${moved} of ${moves.length} message(s): ${cause.message} ${inFlight}; ${after === 1 ? 'the 1 after it was not touched and is' : `the ${after} after it were not touched and are`} still in ${from}.`,
        );
      }
    }
    return { durationMs: elapsed(start), moved, missing };
  }

  /**
   * Read only (TYPE): the first of `moves` whose target key (or notify key) holds something other
   * than a list, with the error redrive() would stop there with, or undefined. A user whose ACL
   * refuses TYPE gets undefined: the redrive itself will say.
   */
  async redriveTargetRefusal(moves: readonly RedriveMove[]): Promise<{ at: number; error: BrokerError } | undefined> {
    const kinds = new Map<string, string>();
    for (const [at, move] of moves.entries()) {
      const { listKey, notifyKey } = move.message.redis;
      for (const key of notifyKey === undefined ? [listKey] : [listKey, notifyKey]) {
        let kind = kinds.get(key);
        if (kind === undefined) {
          this.lastError = undefined;
          try {
            kind = await this.client.type(key);
          } catch (error) {
            if (/^NOPERM/i.test(errorMessage(error))) return undefined;
            throw await this.classify(error, 'peek', key);
          }
          kinds.set(key, kind);
        }
        if (kind !== 'list' && kind !== 'none') {
          return { at, error: new BrokerError('rejected', `${this.target.display} refused: the key ${named(key)} exists but is not a list (it holds a ${kind}), so nothing was moved onto it.`, { target: this.target.display }) };
        }
      }
    }
    return undefined;
  }

  /** Closes the connection (QUIT, or a hard disconnect when the server does not answer in time). */
  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    if (this.stalled) {
      this.client.disconnect();
      return;
    }
    try {
      await withDeadline(this.client.quit(), this.timeoutMs, () => new Deadline());
    } catch {
      // The server is gone or stalled: dropping the socket is all that is left to do.
    } finally {
      this.client.disconnect();
    }
  }

  private async handshake(): Promise<void> {
    await this.client.connect();
    const { username, password, db } = this.target;
    if (password !== undefined) {
      if (username !== undefined) await this.client.auth(username, password);
      else await this.client.auth(password);
    }
    if (db) await this.client.select(db);
    const pong = await this.client.ping();
    if (pong !== 'PONG') throw new BrokerError('wrong-protocol', `${this.target.display} answered PING with something other than PONG: is that port really Redis?`, { target: this.target.display });
  }

  /** Turns whatever ioredis threw into a BrokerError in a user's words. */
  private async classify(error: unknown, phase: Phase, fullKey?: string, fullNotifyKey?: string): Promise<BrokerError> {
    if (error instanceof BrokerError) return error;
    const [key, notifyKey] = [fullKey, fullNotifyKey].map((name) => (name === undefined ? undefined : named(name)));
    const where = this.target.display;
    const make = (kind: BrokerErrorKind, text: string) => new BrokerError(kind, text, { target: where });
    // ioredis reports the real cause through the 'error' event and rejects the command with a
    // generic "Connection is closed."; the event's error says more.
    const generic = /Connection is closed|Stream isn't writeable|enableOfflineQueue/i.test(errorMessage(error));
    const cause = generic && this.lastError !== undefined ? this.lastError : error;
    // MOVE_SCRIPT prefixes a refusal whose pushes it could not take back; redrive() words that part.
    const message = errorMessage(cause).replace(/^BABELQ-BOTH /, '');
    const timedOut = cause instanceof Deadline || /Command timed out|ETIMEDOUT/.test(message) || (cause as { code?: unknown }).code === 'ETIMEDOUT';
    if (timedOut) {
      this.stalled = true;
      if (phase === 'connect' && this.target.tls) {
        const reach = await tlsReach(this.target, Math.min(this.timeoutMs, 1000), this.address);
        if (reach === 'tcp') return make('tls', `${where} accepted the connection but did not complete a TLS handshake within ${this.timeoutMs} ms: ${tlsHint(this.target)}`);
        if (reach === 'handshake') return make('timeout', `${where} completed the TLS handshake but did not answer within ${this.timeoutMs} ms: is Redis listening behind TLS on that port?`);
      }
      if (phase === 'publish') {
        return make('timeout', `${where} did not confirm the push onto ${key} within ${this.timeoutMs} ms: it may or may not have been stored; check with peek before sending again.`);
      }
      if (phase === 'redrive') return make('timeout', `${where} did not answer the move onto ${key} within ${this.timeoutMs} ms.`);
      return make('timeout', `${where} did not answer within ${this.timeoutMs} ms: is Redis listening there, and is nothing dropping the packets?`);
    }
    // Lost after the command left (a reset or a broken pipe once connected): it may have been stored.
    const code = (cause as { code?: unknown }).code;
    if ((phase === 'publish' || phase === 'redrive') && (generic || code === 'ECONNRESET' || code === 'EPIPE')) return make('closed', outcomeUnknown(where, phase, key));
    const socket = socketFailure(cause, this.target, 'Redis', this.timeoutMs);
    if (socket) return socket;
    if ((cause as { name?: unknown }).name === 'ParserError' || /Protocol error|Unknown RESP type/i.test(message)) {
      return make('wrong-protocol', `${where} answered, but not in the Redis protocol: is that port really Redis (not RabbitMQ, HTTP, …)?`);
    }
    if (/without any password configured|no password is set/i.test(message)) {
      return new BrokerError('auth', `Authentication failed at ${where}: a password was given but the server has none configured. Remove the password, or check that this is the right server.`, { target: where, loginRefused: true });
    }
    if (/^(WRONGPASS|ERR invalid password|ERR invalid username-password)/i.test(message)) {
      return new BrokerError('auth', `Authentication failed at ${where}: wrong user name or password.`, { target: where, loginRefused: true });
    }
    if (phase === 'connect' && this.target.username !== undefined && /^ERR wrong number of arguments for .auth/i.test(message)) {
      // Redis before 6 has no ACL users: its AUTH takes the password alone, and refuses a user name with it as a malformed command.
      return make('auth', `Authentication failed at ${where}: the server takes no user names (Redis before 6 has none), only a password: give it after a colon, redis://:password@host.`);
    }
    if (/^NOAUTH/i.test(message)) {
      // The ways a password is given, as the CLI and the editor take one. Not as whole URLs with
      // their credentials part: every BrokerError is redacted of those (errors.ts), placeholder or not.
      const hostPart = where.slice(where.indexOf('://') + 3);
      return make('auth', `${where} requires a password, and none was given. babelq takes it from the BABELQ_BROKER_PASSWORD environment variable, or from the URL, after a colon before the host (:PASSWORD@${hostPart}); the editor asks for it, and keeps it in VS Code's secret storage, when its broker URL (babelqueue.broker.url) names a user before the host (default@${hostPart}: "default" is the user a requirepass password is for).`);
    }
    // An EXEC the ACL refuses comes back as EXECABORT quoting the NOPERM.
    if (/^NOPERM|^EXECABORT [^:]*: NOPERM|^ERR The user executing the script can't (run this command|access)/i.test(message)) {
      if (phase === 'redrive') return make('auth', `${where} does not allow this user every command a move onto ${key ?? 'the queue'} needs (EVAL, TYPE, LPOS or else LLEN and LRANGE, RPUSH, LREM, RPOP): check the user's ACL.`);
      // open() sends SELECT (for a database in the URL) and PING before any command asked for.
      if (phase === 'connect') return make('auth', `${where} does not allow this user a command babelq sends on connecting (SELECT for a database in the URL, PING to check the server is Redis): check the user's ACL (${quoted(firstLine(message), this.target)}).`);
      if (phase === 'publish' && notifyKey !== undefined) {
        return make('auth', `${where} does not allow this user every command a send in the Laravel layout needs (MULTI, RPUSH onto ${key} and ${notifyKey}, EXEC), so nothing was pushed: check the user's ACL (${quoted(firstLine(message), this.target)}).`);
      }
      return make('auth', `${where} does not allow this user to ${phase === 'peek' ? 'read' : 'write'} ${key ?? 'there'}: check the user's ACL.`);
    }
    if (/^WRONGTYPE/i.test(message)) {
      // MOVE_SCRIPT names the key it found of another type: in the Laravel layout it may be the
      // notify key, not the list `key`.
      const other = /^WRONGTYPE the key ([\s\S]*) holds a (\w+), not a list$/.exec(message)?.[1];
      return make('rejected', `${where} refused: the key ${other === undefined ? key : named(other)} exists but is not a list, so nothing was ${phase === 'redrive' ? 'moved' : phase === 'peek' ? 'read' : 'pushed'}.`);
    }
    if (/^ERR DB index is out of range|^ERR invalid DB index/i.test(message)) {
      return make('rejected', `${where} has no database ${this.target.db}.`);
    }
    if (generic) {
      return make('closed', phase === 'connect' ? `${where} closed the connection before answering: is that port really Redis?` : `The connection to ${where} closed before Redis answered the ${phase}.`);
    }
    // READONLY, OOM, MISCONF, LOADING, …: the server's own first line is the clearest explanation.
    return make('rejected', `${where} refused the ${phase}: ${quoted(firstLine(message), this.target) || 'no reason given'}.`);
  }
}

/** What a lost connection after a push or a move means to the user: nobody knows whether Redis did it. */
function outcomeUnknown(where: string, phase: 'publish' | 'redrive', key: string | undefined): string {
  if (phase === 'redrive') {
    return `The connection to ${where} closed before Redis answered the move onto ${key ?? 'the queue'}: its outcome is unknown (the move is atomic: the message is on one queue or the other). Check both with peek before redriving again.`;
  }
  return `The connection to ${where} closed before Redis answered the push onto ${key ?? 'the queue'}: its outcome is unknown (it may have been stored). Check with peek before sending again.`;
}

/** Connects a RedisPublisher to `target` (shorthand for RedisPublisher.open). */
export function openRedis(target: BrokerTarget, options: RedisPublisherOptions = {}): Promise<RedisPublisher> {
  return RedisPublisher.open(target, options);
}

/** The first refusal among commands queued in a MULTI (EXEC then only says EXECABORT). */
function refusedFirst(queued: readonly PromiseSettledResult<unknown>[]): unknown {
  return queued.find((result): result is PromiseRejectedResult => result.status === 'rejected')?.reason;
}

function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim().replace(/\.$/, '');
}
