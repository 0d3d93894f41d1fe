/**
 * The text `babelq` prints for an error nobody expected: its stack, for a report, without a
 * password the run was given. A client library's error can quote what it was sent (a connection
 * URL, an AUTH command), and the text is meant to be pasted into an issue.
 */
import { redact, scrub } from '../broker/errors';
import type { CliEnvironment } from './command';

/**
 * `error`'s stack (or message) with every URL's password masked, and each password the run was
 * given (in a URL among the arguments `argv` or in BABELQ_BROKER_URL, or BABELQ_BROKER_PASSWORD)
 * wherever it appears, raw or URL-encoded; a Redis URL's lone user name counts as one (several
 * Redis clients read it so).
 */
export function internalErrorText(error: unknown, argv: readonly string[], env: CliEnvironment['env']): string {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const secrets: string[] = [];
  if (env.BABELQ_BROKER_PASSWORD) secrets.push(env.BABELQ_BROKER_PASSWORD);
  for (const word of [...argv, env.BABELQ_BROKER_URL ?? '']) {
    // A URL given as --broker=<url> too.
    const candidate = /^--[a-z-]+=/.test(word) ? word.slice(word.indexOf('=') + 1) : word;
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(candidate)) continue;
    try {
      const url = new URL(candidate);
      if (url.password) secrets.push(decodeURIComponent(url.password), url.password);
      else if (url.username && /^rediss?:$/i.test(url.protocol)) secrets.push(decodeURIComponent(url.username), url.username);
    } catch {
      // Not a URL after all (or a malformed escape in it): nothing in it is known to be a password.
    }
  }
  return scrub(redact(text), secrets);
}
