/**
 * Messages the protocol does not let through as they come, held to it before vscode-languageserver
 * sees them (the library passes each on to its handler, or only logs it):
 *
 * - Before `initialize`, a request is refused with ServerNotInitialized and a notification is
 *   dropped, `exit` excepted (LSP 3.17, "Initialize Request"). The library answered such a request
 *   as if initialized (a hover answered `null`) and kept a document opened then.
 * - A second `initialize` is refused with InvalidRequest: the request may be sent once, and the
 *   library ran the server's set-up again, replacing what the first had set.
 * - A message with a string or number id and a `method` that is no string is answered
 *   InvalidRequest under its id (JSON-RPC 2.0): the library only logged it, and the client waited
 *   for an answer that never came. A message without an id that can be answered is left to the
 *   library's log, as an answer under a `null` id matches no request of the client's.
 * - `params: null` is read as no params (JSON-RPC 2.0 allows only an object or a list): a handler
 *   that needs params answers InvalidParams, saying so, where the library's own wrappers failed
 *   with an internal error ("Cannot read properties of null"); `shutdown` and the others that take
 *   none are answered as usual.
 *
 * A refusal is passed on as a request of a method of its own, whose handler answers the error.
 */
import { ErrorCodes, Message, ResponseError, type Connection, type RequestMessage } from 'vscode-languageserver/node';

/** The method a refused request is passed on as; its params hold the error to answer. */
const REFUSED_METHOD = '$/babelq/refused';

interface Refusal {
  readonly code: number;
  readonly message: string;
}

export class MessageGate {
  private initialized = false;

  /** The message strategy's step: `message` as it may pass, a refusal in its place, or nothing (dropped). */
  handle(message: Message, next: (message: Message) => void): void {
    const candidate = message as unknown as Record<string, unknown> | null;
    if (candidate === null || typeof candidate !== 'object') return next(message);
    const passed = candidate.params === null ? withoutParams(candidate) : message;
    if (Message.isRequest(passed)) {
      if (passed.method === 'initialize') {
        if (this.initialized) return next(refusal(passed.id, { code: ErrorCodes.InvalidRequest, message: 'initialize: the server is already initialized; the request is sent once per server.' }));
        this.initialized = true;
        return next(passed);
      }
      if (!this.initialized) return next(refusal(passed.id, { code: ErrorCodes.ServerNotInitialized, message: `${passed.method}: the server has not been initialized; send initialize first.` }));
      return next(passed);
    }
    if (Message.isNotification(passed)) {
      if (!this.initialized && passed.method !== 'exit') return;
      return next(passed);
    }
    // An answer to one of the server's requests is one, whatever else it carries.
    if (Message.isResponse(passed)) return next(passed);
    const id = candidate.id;
    if ('method' in candidate && (typeof id === 'string' || typeof id === 'number')) {
      return next(refusal(id, { code: ErrorCodes.InvalidRequest, message: `The message with id ${JSON.stringify(id)} is no request: its method is not a string.` }));
    }
    next(passed);
  }
}

function withoutParams(message: Record<string, unknown>): Message {
  const { params: _null, ...rest } = message;
  return rest as unknown as Message;
}

function refusal(id: RequestMessage['id'], error: Refusal): RequestMessage {
  return { jsonrpc: '2.0', id, method: REFUSED_METHOD, params: error };
}

/** Registers the answer to refused requests (a server started without the strategy never receives one). */
export function answerRefusedRequests(connection: Connection): void {
  connection.onRequest(REFUSED_METHOD, (params: Partial<Refusal> | undefined) => {
    const code = typeof params?.code === 'number' ? params.code : ErrorCodes.InvalidRequest;
    const message = typeof params?.message === 'string' ? params.message : 'The request was refused.';
    return new ResponseError(code, message);
  });
}
