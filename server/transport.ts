/**
 * The transport the language server speaks over, read from its command line before any of it
 * starts: `--stdio` (the default), `--node-ipc`, `--socket=<port>` or `--pipe=<name>` (each also
 * as two arguments, as vscode-languageserver reads them), beside `--clientProcessId=<pid>`, which
 * VS Code's language client adds and the library reads to exit with its editor. Anything else is
 * refused with a sentence instead of the library's stack trace, so an editor's misspelt setting
 * says what is wrong.
 */

export type Transport =
  | { readonly kind: 'stdio' }
  | { readonly kind: 'node-ipc' }
  | { readonly kind: 'socket'; readonly port: number }
  | { readonly kind: 'pipe'; readonly name: string };

export type TransportChoice = { readonly transport: Transport } | { readonly problem: string };

const SPELLING = 'the server takes one of --stdio, --node-ipc, --socket=<port> or --pipe=<name>';

/** The transport `args` (the command line after the script) name, or why they name none. */
export function readTransport(args: readonly string[]): TransportChoice {
  const named: Transport[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    const equals = arg.indexOf('=');
    const option = equals < 0 ? arg : arg.slice(0, equals);
    // `--socket 5007` as well as `--socket=5007`: the value is the next argument when no `=` gives one.
    const value = (): string | undefined => (equals >= 0 ? arg.slice(equals + 1) : args[++at]);
    if (arg === '--stdio') named.push({ kind: 'stdio' });
    else if (arg === '--node-ipc') named.push({ kind: 'node-ipc' });
    else if (option === '--socket') {
      const port = value();
      if (port === undefined || !/^[0-9]{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
        return { problem: `--socket needs the port the editor listens on, a number from 1 to 65535, not ${port === undefined ? 'nothing' : `'${port}'`}` };
      }
      named.push({ kind: 'socket', port: Number(port) });
    } else if (option === '--pipe') {
      const name = value();
      if (name === undefined || name === '') return { problem: "--pipe needs the name of the editor's pipe" };
      named.push({ kind: 'pipe', name });
    } else if (option === '--clientProcessId') {
      const pid = value();
      if (pid === undefined || !/^[0-9]+$/.test(pid)) return { problem: `--clientProcessId needs the editor's process id, not ${pid === undefined ? 'nothing' : `'${pid}'`}` };
    } else {
      return { problem: `unknown option '${arg}': ${SPELLING}` };
    }
  }
  // The same transport twice is one (VS Code's language client adds --stdio to a server's own args that already name it).
  const distinct = new Set(named.map((transport) => JSON.stringify(transport)));
  if (distinct.size > 1) return { problem: `one transport at a time: ${SPELLING}` };
  return { transport: named[0] ?? { kind: 'stdio' } };
}
