/**
 * Wraps request handlers so that an exception in one request is logged with its context and
 * answered with an empty result, never a crash of the whole server. The same failure of the same
 * handler is logged once (with its stack), so a client that repeats a bad request cannot flood the log.
 */
import { uriForLog } from './log-uri';

export interface Logger {
  error(message: string): void;
}

/** Failures already logged, by handler and message; bounded so that distinct failures cannot grow it without end. */
const logged = new Set<string>();
const MAX_REMEMBERED = 1000;

/** A handler that answers `fallback` (and logs) instead of throwing or rejecting. */
export function guard<P, R>(logger: Logger, name: string, handler: (params: P, ...rest: any[]) => R | Promise<R>, fallback: R): (params: P, ...rest: any[]) => Promise<R> {
  return async (params: P, ...rest: any[]) => {
    try {
      return await handler(params, ...rest);
    } catch (error) {
      const key = `${name}\0${error instanceof Error ? error.message : String(error)}`;
      if (!logged.has(key)) {
        // Forgotten in bulk when full: a new failure is always said, an old one again at worst once per thousand.
        if (logged.size >= MAX_REMEMBERED) logged.clear();
        logged.add(key);
        const uri = (params as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        logger.error(`[${name}]${typeof uri === 'string' ? ` ${uriForLog(uri)}` : ''} failed: ${detail}`);
      }
      return fallback;
    }
  };
}
