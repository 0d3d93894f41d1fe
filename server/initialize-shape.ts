/**
 * The `initialize` request made readable before vscode-languageserver sees it. The library reads
 * `params.capabilities.workspace` before any handler of ours runs, so a client that left out
 * `capabilities` got an internal error and no server; so did one whose `workspaceFolders` was not
 * a list of folders, in the server's own handler. Such params are repaired into what they most
 * nearly say (no capabilities: the plainest client; folders without a usable URI left out), and
 * the server says in its log what it assumed, once it can log. The capabilities' inner shapes
 * are read by the handler (server.ts) as they stand, each tested for the value it means.
 */
import { Message, type ConnectionOptions, type RequestMessage } from 'vscode-languageserver/node';
import { isRecord, isUri } from './request-shape';

/** Repairs `initialize` params in place of the client's; `repaired` lists what it assumed, in words. */
export function readableInitializeParams(params: unknown): { params: Record<string, unknown>; repaired: string[] } {
  const repaired: string[] = [];
  const result: Record<string, unknown> = isRecord(params) ? { ...params } : {};
  if (!isRecord(params)) repaired.push('the params were not an object: read as empty');
  if (!isRecord(result.capabilities)) {
    if (isRecord(params)) repaired.push('there were no capabilities: read as a client that supports nothing optional');
    result.capabilities = {};
  }
  if (result.processId !== undefined && result.processId !== null && !Number.isInteger(result.processId)) {
    repaired.push('processId was not an integer: ignored');
    result.processId = null;
  }
  for (const key of ['rootUri', 'rootPath'] as const) {
    if (result[key] !== undefined && result[key] !== null && typeof result[key] !== 'string') {
      repaired.push(`${key} was not a string: ignored`);
      result[key] = null;
    }
  }
  const folders = result.workspaceFolders;
  if (folders !== undefined && folders !== null) {
    const usable = Array.isArray(folders) ? folders.filter((folder) => isRecord(folder) && isUri(folder.uri)) : [];
    if (!Array.isArray(folders) || usable.length !== folders.length) {
      repaired.push(Array.isArray(folders) ? `${folders.length - usable.length} of the workspaceFolders had no usable uri: left out` : 'workspaceFolders was not a list: ignored');
      result.workspaceFolders = usable.length > 0 ? usable : null;
    }
  }
  return { params: result, repaired };
}

/**
 * Whether this process can see the process `processId` (signal 0 reaches it). The protocol library
 * checks the client's process every 3 s and ends the server when it cannot: a client in another
 * PID namespace (the server run in a container, in WSL for a Windows editor, through ssh) or run
 * as another user sends an id that fails that check from the start, and its server ended 3 s after
 * it started, without a word. Such an id is not passed on; the server still ends when its input
 * closes, or on exit.
 */
export function canSeeProcess(processId: number): boolean {
  if (!Number.isSafeInteger(processId) || processId <= 0) return false;
  try {
    process.kill(processId, 0);
    return true;
  } catch {
    return false;
  }
}

/** The message strategy of the connection: `initialize` params repaired, what was assumed kept for the log. */
export class InitializeRepair {
  /** What the last `initialize` had repaired, in words (empty when it was well formed). */
  repaired: string[] = [];
  /** The client's process id when this server cannot see that process, which is then not watched. */
  unseenProcessId: number | undefined;

  readonly strategy: NonNullable<ConnectionOptions['messageStrategy']> = {
    handleMessage: (message, next) => {
      // Whatever JSON arrived is passed here, `null` included: only a request (a string or number
      // id) named initialize is looked at; the library says what it makes of the rest.
      if (!Message.isRequest(message) || message.method !== 'initialize') return next(message);
      const { params, repaired } = readableInitializeParams(message.params);
      this.repaired = repaired;
      const processId = params.processId;
      this.unseenProcessId = typeof processId === 'number' && !canSeeProcess(processId) ? processId : undefined;
      if (this.unseenProcessId !== undefined) return next({ ...message, params: { ...params, processId: null } } as RequestMessage);
      return next(repaired.length > 0 ? ({ ...message, params } as RequestMessage) : message);
    },
  };
}
