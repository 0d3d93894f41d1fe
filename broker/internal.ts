/**
 * Helpers shared by the broker modules: deadlines, and the classification of socket-level errors
 * that Redis and AMQP clients surface the same way (they both sit on net/tls sockets).
 */
import { isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { nameOnOneLine, showOnOneLine } from '../core/language/markdown';
import { shortened } from '../core/model/describe-value';
import { BrokerError, scrub, type BrokerErrorKind } from './errors';
import type { BrokerTarget } from './target';

export const DEFAULT_TIMEOUT_MS = 5000;

/**
 * The most bytes one read takes, its messages' bodies together (64 MiB, the bound of an envelope
 * file): a queue of large messages is not read into memory a thousand at a time. A peek stops at
 * it, and so does a RabbitMQ redrive's search of its DLQ (the messages it holds unacked).
 */
export const PEEK_MAX_BYTES = 64 * 1024 * 1024;

/** The most messages one read takes (`--limit` of peek and dlq), and a RabbitMQ redrive's search gets. */
export const READ_MAX_MESSAGES = 10_000;

/** The longest key, queue name or meta.id an error names whole, as the CLI quotes a path. */
const MAX_NAMED = 200;

/** The longest reason of a server or library an error quotes whole (RabbitMQ's run to some 300 characters with the queue's name in them). */
const MAX_REASON = 500;

/**
 * A key, queue name or meta.id as an error names it (core's nameOnOneLine): whole up to 200
 * characters, else its start and its end with `…` between (a work queue and its DLQ whose long
 * names share their start stay apart); on one line, its line breaks written `\n` and `\r` and
 * every other invisible character (ESC, BEL, C1 controls, bidirectional overrides) `\uXXXX`. A redrive's
 * targets and ids come from the dead letters it reads, as long as whoever produced them made them
 * and holding what they put there: raw, such a name would move a terminal's cursor, retitle it,
 * reorder the line or start a forged one wherever the error is shown.
 */
export function named(name: string): string {
  return nameOnOneLine(name, MAX_NAMED);
}

/** Resolves like `work`, or rejects with `onTimeout()` after `ms`; `onTimeout` should also tear the attempt down. */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Milliseconds since `start` (from performance.now()), rounded to 0.1 ms. */
export function elapsed(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

/** The string `code` of an error-like value (`ECONNREFUSED`, `ERR_SSL_…`), if any. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : typeof code === 'number' ? String(code) : undefined;
}

/** The message of an error-like value, '' when there is none. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : '';
}

const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(VERIFY|GET)_|HOSTNAME_MISMATCH$)/;

/**
 * A BrokerError for failures that happen below the broker protocol (socket and TLS), or undefined
 * when the error is something the broker itself said.
 */
export function socketFailure(error: unknown, target: BrokerTarget, product: string, timeoutMs: number): BrokerError | undefined {
  const code = errorCode(error);
  const message = errorMessage(error);
  const where = target.display;
  const opts = { target: where, ...(code ? { code } : {}) };
  const make = (kind: BrokerErrorKind, text: string) => new BrokerError(kind, text, opts);
  switch (code) {
    case 'ECONNREFUSED':
      return make('refused', `Connection refused by ${where}: is ${product} running there?`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return make('unreachable', `Cannot reach ${where}: the host name "${target.host}" does not resolve.`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return make('unreachable', `Cannot reach ${where}: there is no network route to that host.`);
    case 'ETIMEDOUT':
      return make('timeout', `${where} did not answer within ${timeoutMs} ms: is ${product} listening there, and is nothing dropping the packets?`);
    case 'ECONNRESET':
    case 'EPIPE':
      return make('closed', `${where} closed the connection unexpectedly: is that port really ${product}?`);
  }
  if ((code && TLS_CODES.test(code)) || /\b(ssl|tls|certificate|wrong version number|handshake failure)\b/i.test(message)) {
    // A certificate refused is a server that speaks TLS: asking whether it does would mislead.
    const certificate = code !== undefined && CERTIFICATE_CODES.test(code);
    return make('tls', `The TLS connection to ${where} failed (${quoted(tlsReason(code, message), target)}): ${certificate ? certificateHint(code) : tlsHint(target)}`);
  }
  return undefined;
}

const CERTIFICATE_CODES = /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(VERIFY|GET)_|ERR_TLS_CERT_ALTNAME_INVALID$|HOSTNAME_MISMATCH$)/;

/** The words for a certificate the connection refused: the server speaks TLS, its certificate is not trusted for this host. */
function certificateHint(code: string): string {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'the server speaks TLS, but its certificate does not name the host in the URL: use the host name the certificate is for.';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'the server speaks TLS, but its certificate is not valid at this date.';
  return 'the server speaks TLS, but its certificate is not signed by a certificate authority trusted here: add that authority to the trusted ones (Node.js reads extra ones from the file named by NODE_EXTRA_CA_CERTS).';
}

/** The words to use when a TLS handshake never completes or fails. */
export function tlsHint(target: BrokerTarget): string {
  const plain = target.scheme === 'rediss' ? 'redis://' : 'amqp://';
  return `does the server speak TLS on port ${target.port}? For a plain connection use ${plain}.`;
}

function tlsReason(code: string | undefined, message: string): string {
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(message)) return 'the server did not answer with TLS';
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN') return 'its certificate is self-signed';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'its certificate is for another host name';
  if (code === 'CERT_HAS_EXPIRED') return 'its certificate has expired';
  if (code?.startsWith('UNABLE_TO_')) return 'its certificate cannot be verified';
  return code ?? 'handshake error';
}

/**
 * Redis's quotation of the arguments of a command it does not know: "ERR unknown command 'auth',
 * with args beginning with: 'user' 'passw" (Redis 6.2 and later; 6.0 quotes with backticks). It
 * holds their first 128 bytes only, so a long password, or one after a long user name, is quoted
 * cut short, where no search for the whole password finds it: the quotation is left out.
 */
const ECHOED_ARGUMENTS = /,? with args beginning with:[\s\S]*$/i;

/**
 * Text from a library or a server, made safe to quote in an error about `target`: its password
 * scrubbed, and a Redis user name too, which may be a password (BrokerTarget.username) and which
 * Redis 7.2 and later quote in a refusal ("NOPERM User <name> has no permissions …"); a server's
 * quotation of the arguments it was sent is left out (ECHOED_ARGUMENTS).
 */
export function quoted(text: string, target: BrokerTarget): string {
  const secrets = [target.password, target.kind === 'redis' ? target.username : undefined];
  // Scrubbed before it is cut (a password cut in two is no longer found), then bounded and put on
  // one line as a name is: a server's reason quotes the names it was given, and the server is
  // whatever answered on that port.
  return showOnOneLine(shortened(scrub(text.replace(ECHOED_ARGUMENTS, ''), secrets.filter((secret): secret is string => secret !== undefined && secret !== '')), MAX_REASON));
}

/**
 * For a plain (redis://, amqp://) connection that the server closed without answering
 * (`unanswered`): the same failure, or, when the server answers a TLS handshake on that port, an
 * error saying it expects TLS (a TLS-only port closes a plain connection). The probe sends
 * nothing over its connection. A server that answered in another protocol keeps its error.
 */
export async function tlsExpected(failure: BrokerError, unanswered: boolean, target: BrokerTarget, timeoutMs: number, address: string | undefined): Promise<BrokerError> {
  if (target.tls || !unanswered) return failure;
  if ((await tlsReach(target, Math.min(timeoutMs, 1000), address)) !== 'handshake') return failure;
  const secure = target.scheme === 'redis' ? 'rediss://' : 'amqps://';
  return new BrokerError('tls', `${target.display} expects TLS on port ${target.port} (it answered a TLS handshake, not a plain connection): use ${secure}.`, { target: target.display });
}

/**
 * How far a connection to a TLS target gets within `ms`, nothing sent over it: 'handshake' when
 * the TLS handshake completes (or ends on the server's certificate, which it also sent), so a
 * connection that then stalled met a server that speaks TLS and does not answer the protocol;
 * 'tcp' when the TCP connection opens but no TLS handshake completes (a server that does not
 * speak TLS on that port); 'none' when not even TCP connects. `address` is the one the failed
 * connection went to (broker/connect-address.ts): the probe goes there too, not wherever a second
 * lookup of the name would send it.
 */
export function tlsReach(target: BrokerTarget, ms: number, address: string | undefined): Promise<'handshake' | 'tcp' | 'none'> {
  return new Promise((resolve) => {
    const host = target.host.replace(/\.$/, '');
    let tcp = false;
    const socket = tlsConnect({ host: address ?? host, port: target.port, ...(isIP(host) ? {} : { servername: host }) });
    const done = (reach: 'handshake' | 'tcp' | 'none') => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reach);
    };
    const timer = setTimeout(() => done(tcp ? 'tcp' : 'none'), ms);
    socket.once('connect', () => {
      tcp = true;
    });
    socket.once('secureConnect', () => done('handshake'));
    socket.once('error', (error: unknown) => {
      const code = errorCode(error);
      done(code !== undefined && CERTIFICATE_CODES.test(code) ? 'handshake' : tcp ? 'tcp' : 'none');
    });
  });
}

