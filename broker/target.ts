/**
 * Broker URLs: parsed once into a plain target, described for people without secrets.
 *
 * The password lives on the target as a non-enumerable property, so logging or serialising a
 * target (`console.log`, `JSON.stringify`, the output channel) never prints it.
 */
import { BrokerError } from './errors';

/**
 * node:net's `isIP` (0, 4 or 6), with node:net loaded on the first call: `babelq` parses a broker
 * URL only for a broker command, and a lint whose output goes to a file loads no node:net at all.
 */
export function isIP(input: string): number {
  return (require('node:net') as typeof import('node:net')).isIP(input);
}

export type BrokerScheme = 'redis' | 'rediss' | 'amqp' | 'amqps';

/** A parsed broker URL. */
export interface BrokerTarget {
  readonly kind: 'redis' | 'amqp';
  readonly scheme: BrokerScheme;
  readonly tls: boolean;
  /** Host name or IP, IPv6 without brackets. */
  readonly host: string;
  readonly port: number;
  /**
   * For Redis, not enumerable and never shown: ioredis reads `redis://name@host` as the ACL user
   * `name` (with `redis://:password@host` for a password), but Lettuce, Predis and ioredis before
   * 5 read that lone part as the password, so it may be one (redact() masks it as such).
   */
  readonly username?: string;
  /** Not enumerable: present for the client library, invisible to logs and JSON. */
  readonly password?: string;
  /** Redis logical database (`/2`); 0 when the path is empty. */
  readonly db?: number;
  /** AMQP virtual host, decoded; `/` when the path is empty. */
  readonly vhost?: string;
  /** The target for people: scheme, host, port and db/vhost, never credentials. */
  readonly display: string;
}

const DEFAULT_PORT: Record<BrokerScheme, number> = { redis: 6379, rediss: 6379, amqp: 5672, amqps: 5671 };

/** Parses a `redis://`, `rediss://`, `amqp://` or `amqps://` URL; throws BrokerError('invalid-url'). */
export function parseTarget(url: string): BrokerTarget {
  const trimmed = url.trim();
  // The URL parser ends the user name and password at the first '/', '?' or '#', so a password
  // holding one of them is read as a host, port and path: `amqp://guest:12/ab@h` connects to the
  // host "guest" with the vhost "ab@h", and every message naming the target would show the rest
  // of the password. An '@' after the authority is taken for such a password, never guessed at.
  if (atAfterAuthority(trimmed)) {
    throw invalid(trimmed, 'an "@" follows the host: a user name or password holding "/", "?", "#" or "@" must be %-encoded (%2F, %3F, %23, %40)');
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw invalid(trimmed, 'it is not a URL (expected e.g. redis://127.0.0.1:6379 or amqp://guest@127.0.0.1:5672)');
  }
  const scheme = parsed.protocol.replace(/:$/, '').toLowerCase();
  if (scheme !== 'redis' && scheme !== 'rediss' && scheme !== 'amqp' && scheme !== 'amqps') {
    throw invalid(trimmed, `the scheme "${scheme}:" is not supported (use redis://, rediss://, amqp:// or amqps://)`);
  }
  // Non-special schemes keep IPv6 brackets in `hostname`; net.connect wants them off.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw invalid(trimmed, 'it has no host');
  let port = DEFAULT_PORT[scheme];
  if (parsed.port !== '') {
    port = Number(parsed.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw invalid(trimmed, `the port ${parsed.port} is out of range`);
  }
  const username = decode(parsed.username, trimmed, 'user name');
  const password = decode(parsed.password, trimmed, 'password');
  const path = parsed.pathname;
  const base = { scheme, tls: scheme === 'rediss' || scheme === 'amqps', host, port } as const;

  if (scheme === 'redis' || scheme === 'rediss') {
    const dbText = path.replace(/^\//, '');
    if (dbText !== '' && !/^\d{1,5}$/.test(dbText)) throw invalid(trimmed, `the path "${path}" is not a database number (e.g. /2)`);
    const db = dbText === '' ? 0 : Number(dbText);
    return makeTarget({ ...base, kind: 'redis', db, ...(username ? { username } : {}) }, password || undefined);
  }
  // AMQP: the whole path after the first '/' is the vhost, percent-decoded (`/%2F` is '/').
  const vhostText = path.replace(/^\//, '');
  const vhost = vhostText === '' ? '/' : decode(vhostText, trimmed, 'virtual host');
  return makeTarget({ ...base, kind: 'amqp', vhost, ...(username ? { username } : {}) }, password || undefined);
}

/** The same target with `password` supplied from outside (e.g. the editor's secret storage); '' removes it. */
export function withPassword(target: BrokerTarget, password: string): BrokerTarget {
  const { password: _old, display: _display, ...rest } = target;
  // A Redis user name is not enumerable, so the spread left it behind.
  return makeTarget({ ...rest, ...(target.username !== undefined ? { username: target.username } : {}) }, password === '' ? undefined : password);
}

/** True for hosts that stay on this machine: 127.0.0.0/8, ::1 (and its IPv4-mapped forms), localhost. */
export function isLoopback(host: string): boolean {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 6) {
    // A resolver may answer with a scoped address (`fe80::1%lo0`, which macOS hosts files list for
    // localhost), which the URL parser rejects: the scope names an interface, the address alone
    // says where it goes.
    const address = bare.replace(/%.*$/, '');
    // The http URL parser compresses and normalises IPv6 (`0:0::1` → `::1`, `::ffff:127.0.0.1` → `::ffff:7f00:1`).
    const normal = new URL(`http://[${address}]/`).hostname;
    return normal === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(normal);
  }
  // The http URL parser reads IPv4 the way getaddrinfo does (`127.1`, `0x7f.0.0.1`), so the answer
  // matches the address the socket will actually reach; anything else (names) is not loopback.
  let normal: string;
  try {
    normal = new URL(`http://${bare}/`).hostname;
  } catch {
    return false;
  }
  return isIP(normal) === 4 && normal.split('.')[0] === '127';
}

/** The target and queue for people: `redis://127.0.0.1:6379 list orders`, `amqp://127.0.0.1:5672 queue orders`. */
export function describeTarget(target: BrokerTarget, queue: string): string {
  return `${target.display} ${target.kind === 'redis' ? 'list' : 'queue'} ${queue}`;
}

function makeTarget(fields: Omit<BrokerTarget, 'password' | 'display'>, password: string | undefined): BrokerTarget {
  const target = { ...fields, display: '' } as { -readonly [K in keyof BrokerTarget]: BrokerTarget[K] };
  // The user name helps tell two targets apart; the password never appears, not even as a user
  // name that happens to equal it (guest:guest).
  const user = target.username !== undefined && target.username !== password ? `${encodeURIComponent(target.username)}@` : '';
  target.display = `${target.scheme}://${target.kind === 'amqp' ? user : ''}${hostPort(target)}${pathOf(target)}`;
  if (password !== undefined) Object.defineProperty(target, 'password', { value: password, enumerable: false, writable: false });
  if (target.kind === 'redis' && target.username !== undefined) Object.defineProperty(target, 'username', { value: target.username, enumerable: false, writable: false });
  return Object.freeze(target);
}

function hostPort(target: Pick<BrokerTarget, 'host' | 'port'>): string {
  return `${isIP(target.host) === 6 ? `[${target.host}]` : target.host}:${target.port}`;
}

function pathOf(target: Pick<BrokerTarget, 'kind' | 'db' | 'vhost'>): string {
  if (target.kind === 'redis') return target.db ? `/${target.db}` : '';
  return target.vhost === undefined || target.vhost === '/' ? '' : `/${encodeURIComponent(target.vhost)}`;
}

function decode(text: string, url: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalid(url, `its ${what} has a broken %-escape`);
  }
}

function invalid(url: string, why: string): BrokerError {
  // A URL too broken to parse may hide its password where redact() cannot find it, so only the
  // scheme and host are quoted.
  return new BrokerError('invalid-url', `The broker URL ${shortUrl(url)} cannot be used: ${why}.`);
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** True when the URL has an '@' after the end of its authority (its path, query or fragment). */
function atAfterAuthority(url: string): boolean {
  const scheme = SCHEME.exec(url)?.[0];
  if (scheme === undefined) return false;
  const rest = url.slice(scheme.length);
  const authorityEnd = rest.search(/[/?#]/);
  return authorityEnd >= 0 && rest.indexOf('@', authorityEnd) >= 0;
}

// A host, IPv6 literal or name, with an optional port: what may be quoted of a URL without an
// '@' (`redis://:secret`, the host forgotten, would otherwise show the password).
const HOST_PORT = /^(\[[0-9a-f:.]*\]|[^\s:/?#@[\]]*)(?::(\d*))?$/i;

/**
 * The host of a URL without an '@', as it may be quoted. Digits after a ':' are shown as a port
 * only after a host and only up to 65535: `redis://:123456` and `amqp://admin:12345678` are as
 * much a password whose host was forgotten as they are a port.
 */
function quotableHost(host: string): string | undefined {
  const parts = HOST_PORT.exec(host);
  if (!parts) return undefined;
  const [, name, port] = parts;
  if (port === undefined) return name;
  if (name === '') return undefined;
  return port === '' || Number(port) <= 65535 ? `${name}:${port}` : `${name}:…`;
}

/**
 * The scheme and host of an unusable URL, in quotes. Its user name and password are everything
 * between `://` and its LAST '@', whatever characters they hold (a password may hold '/', '?',
 * '#', ':', '%' or '@' typed raw), and are never quoted: `***` stands for them. Exported for the
 * places that name a URL parseTarget refused (a CodeLens title) without its error's sentence.
 */
export function shortUrl(url: string): string {
  const scheme = SCHEME.exec(url)?.[0];
  if (scheme === undefined) return '(not shown)';
  const rest = url.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  const host = /^[^\s/?#]*/.exec(rest.slice(at + 1))![0];
  if (at >= 0) return `"${scheme}***@${host}"`;
  const quotable = quotableHost(host);
  return quotable === undefined ? `"${scheme}…"` : `"${scheme}${quotable}"`;
}
