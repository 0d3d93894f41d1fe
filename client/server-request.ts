/**
 * A custom request to the language server that gives up after a time: a server that does not
 * answer in time is stuck or gone, and the user is waiting on a preview or a list. The request is
 * cancelled then, so the server stops working on it too.
 */
import { CancellationTokenSource, type CancellationToken } from 'vscode-languageserver-protocol';

/** What is asked of the language client (vscode-languageclient's, or a test's connection). */
export interface LanguageServer {
  isRunning(): boolean;
  /** vscode-languageclient's name for "running, or starting". */
  needsStop(): boolean;
  sendRequest<R>(method: string, params: unknown, token: CancellationToken): Promise<R>;
}

/**
 * Whether a request made now will be answered: the server runs, or it is starting, and then the
 * client holds the request until the start is done. A command run in the moment after the editor
 * opens asks rather than doing without the server.
 */
export function acceptsRequests(server: LanguageServer | undefined): server is LanguageServer {
  return server?.needsStop() === true;
}

/** The server's answer; rejects with `no answer within … ms` when it is late, or with the server's error. */
export async function requestWithin<R>(server: LanguageServer, method: string, params: unknown, timeoutMs: number): Promise<R> {
  const cancel = new CancellationTokenSource();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cancel.cancel();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([server.sendRequest<R>(method, params, cancel.token), late]);
  } finally {
    clearTimeout(timer);
    cancel.dispose();
  }
}
