/**
 * Broker failures in a user's words, and the scrubbing that keeps secrets out of them.
 *
 * Every message is built here from plain parts (a redacted target, a kind, a short detail) rather
 * than passed through from a client library, because library messages may echo command arguments
 * such as `AUTH <password>` or a full connection URL.
 */
import { replaceUrlUserinfo } from './url-userinfo';

/** What went wrong, coarse enough for a user to act on. */
export type BrokerErrorKind =
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'auth'
  | 'wrong-protocol'
  | 'missing-queue'
  | 'tls'
  | 'closed'
  | 'invalid-url'
  | 'rejected'
  /** A host taken for this machine by its name resolves elsewhere (broker/connect-address.ts). */
  | 'remote-host';

/** A broker failure whose message names the target (never its password) and says what to check. */
export class BrokerError extends Error {
  readonly kind: BrokerErrorKind;
  /** The target as people see it (redacted), or '' when the URL itself was unusable. */
  readonly target: string;
  /** The library's error code (`ECONNREFUSED`, `ERR_SSL_WRONG_VERSION_NUMBER`, 403, …) when one was seen. */
  readonly code?: string;
  /**
   * True when the broker refused the credentials themselves (kind `auth` on logging in), as opposed
   * to what a user it let in may do (also `auth`): only a refused password is worth forgetting.
   */
  readonly loginRefused?: true;

  /** `message` is redacted of URL credentials; text quoted from a library must go through scrub() first. */
  constructor(kind: BrokerErrorKind, message: string, options: { target?: string; code?: string; loginRefused?: true } = {}) {
    // Redacted before super() so that the stack, which V8 builds from the message, is clean too.
    super(redact(message));
    this.kind = kind;
    this.target = options.target === undefined ? '' : redact(options.target);
    if (options.code !== undefined) this.code = options.code;
    if (options.loginRefused) this.loginRefused = true;
  }
}

// On the prototype, not as a field, so the stack header V8 captures in Error() already says BrokerError.
BrokerError.prototype.name = 'BrokerError';

/**
 * A redrive that stopped part-way: how many messages were moved before the failure, and what
 * the failure was (its kind and words, with where the message in flight can be).
 */
export class RedriveInterrupted extends BrokerError {
  /** Messages moved before the failure; every message after them is still in the DLQ. */
  readonly moved: number;

  constructor(cause: BrokerError, moved: number, message: string) {
    super(cause.kind, message, { target: cause.target, ...(cause.code !== undefined ? { code: cause.code } : {}) });
    this.moved = moved;
  }
}

/** True when `value` is a RedriveInterrupted (also across duplicated module instances: the broker bundles have their own). */
export function isRedriveInterrupted(value: unknown): value is RedriveInterrupted {
  return isBrokerError(value) && typeof (value as { moved?: unknown }).moved === 'number';
}

/** True when `value` is a BrokerError (also across duplicated module instances). */
export function isBrokerError(value: unknown): value is BrokerError {
  return value instanceof BrokerError || (value instanceof Error && value.name === 'BrokerError' && typeof (value as { kind?: unknown }).kind === 'string');
}

const MASK = '***';

// Query parameters that carry credentials in broker URLs seen in the wild (AMQP `?password=`,
// cloud tokens, SAS signatures).
const SECRET_QUERY = /([?&;](?:password|passwd|pass|pwd|token|access_token|auth|auth_token|secret|api_key|apikey|key|sig|signature|sas)=)[^&#;\s'"]*/gi;

/**
 * The text with every URL password (and credential-like query value) replaced by `***`.
 * Works on a bare URL or on any text that contains URLs, so it is safe on log lines too.
 * A broker URL's userinfo ends at the LAST '@' before white space, as parseTarget reads it: a
 * password typed with a raw '/', '?' or '#' (which parseTarget refuses, as the URL parser would end
 * the password there) is masked whole when a text quotes the URL (a usage error naming what it was
 * given). Any other URL's authority ends at the first '/', '?', '#' or space, and its userinfo at the
 * LAST '@' inside it, so a password typed with a raw '@' is still masked completely.
 */
export function redact(text: string): string {
  return replaceUrlUserinfo(replaceUrlUserinfo(text, true, maskUserinfo), false, maskUserinfo).replace(SECRET_QUERY, `$1${MASK}`);
}

/** A URL's `scheme://userinfo@` with the password in the userinfo masked. */
function maskUserinfo(scheme: string, userinfo: string): string {
  const colon = userinfo.indexOf(':');
  if (colon >= 0) return `${scheme}${userinfo.slice(0, colon)}:${MASK}@`;
  // `redis://secret@host` is read as a password by several Redis clients (ioredis reads it as
  // the ACL user, and it is used so, shown nowhere: broker/target.ts), so a lone Redis
  // userinfo is masked whole; elsewhere it is a user name, as amqplib reads it, and stays.
  return /^rediss?:\/\//i.test(scheme) ? `${scheme}${MASK}@` : `${scheme}${userinfo}@`;
}

/**
 * The text with each secret (raw and URL-encoded) replaced by `***`; empty secrets are ignored.
 * For text quoted from a client library or a server, which could echo what it was sent.
 */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(MASK);
  }
  return out;
}
