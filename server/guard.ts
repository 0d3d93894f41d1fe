/**
 * Wraps request handlers so that an exception in one request is logged with its context and
 * answered with an empty result, never a crash of the whole server.
 */

export interface Logger {
  error(message: string): void;
}

/** A handler that answers `fallback` (and logs) instead of throwing or rejecting. */
export function guard<P, R>(logger: Logger, name: string, handler: (params: P, ...rest: any[]) => R | Promise<R>, fallback: R): (params: P, ...rest: any[]) => Promise<R> {
  return async (params: P, ...rest: any[]) => {
    try {
      return await handler(params, ...rest);
    } catch (error) {
      const uri = (params as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      logger.error(`[${name}]${uri ? ` ${uri}` : ''} failed: ${detail}`);
      return fallback;
    }
  };
}
