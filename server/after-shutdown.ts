/**
 * Requests that come after `shutdown`. The protocol says a server that has been asked to shut down
 * answers any further request with InvalidRequest; vscode-languageserver passes them on to their
 * handlers, so a pull of diagnostics after shutdown analysed the document again. The connection's
 * message strategy passes such a request on under a method of its own, whose handler refuses it,
 * naming the method that was asked for.
 */
import { ErrorCodes, Message, ResponseError, type Connection, type RequestMessage } from 'vscode-languageserver/node';

/** The method a request after shutdown is passed on as; its params name the method asked for. */
const AFTER_SHUTDOWN_METHOD = '$/babelq/afterShutdown';

/** Watches the messages for `shutdown`, then passes every request on to be refused. */
export class AfterShutdown {
  private shutDown = false;

  /** The message strategy's step: `message` as it is, or a request after shutdown as AFTER_SHUTDOWN_METHOD. */
  handle(message: Message, next: (message: Message) => void): void {
    if (!Message.isRequest(message)) return next(message);
    if (this.shutDown) return next({ ...message, method: AFTER_SHUTDOWN_METHOD, params: { method: message.method } } as RequestMessage);
    if (message.method === 'shutdown') this.shutDown = true;
    next(message);
  }
}

/** Registers the refusal of requests after shutdown (a server started without the strategy never receives one). */
export function refuseRequestsAfterShutdown(connection: Connection): void {
  connection.onRequest(AFTER_SHUTDOWN_METHOD, (params: { method?: unknown } | undefined) => {
    const method = typeof params?.method === 'string' ? params.method : 'this request';
    return new ResponseError(ErrorCodes.InvalidRequest, `${method}: the server has been asked to shut down and takes no more requests (send exit).`);
  });
}
