/** The language server's command line: the transports an editor names, and the ones refused with a sentence. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTransport } from '../../server/transport';

test('stdio when nothing is named, and each transport as one argument or two', () => {
  assert.deepEqual(readTransport([]), { transport: { kind: 'stdio' } });
  assert.deepEqual(readTransport(['--stdio']), { transport: { kind: 'stdio' } });
  assert.deepEqual(readTransport(['--node-ipc', '--clientProcessId=4242']), { transport: { kind: 'node-ipc' } });
  assert.deepEqual(readTransport(['--socket=5007']), { transport: { kind: 'socket', port: 5007 } });
  assert.deepEqual(readTransport(['--socket', '5007', '--clientProcessId', '17']), { transport: { kind: 'socket', port: 5007 } });
  assert.deepEqual(readTransport(['--pipe=/tmp/editor.sock']), { transport: { kind: 'pipe', name: '/tmp/editor.sock' } });
  assert.deepEqual(readTransport(['--pipe', '\\\\.\\pipe\\editor']), { transport: { kind: 'pipe', name: '\\\\.\\pipe\\editor' } });
  // VS Code's language client adds its process id after the transport, and --stdio to args that may name it already.
  assert.deepEqual(readTransport(['--stdio', '--clientProcessId=99']), { transport: { kind: 'stdio' } });
  assert.deepEqual(readTransport(['--stdio', '--stdio']), { transport: { kind: 'stdio' } });
  assert.deepEqual(readTransport(['--socket=5007', '--socket', '5007']), { transport: { kind: 'socket', port: 5007 } });
});

test('a port that is no port, an empty pipe, an unknown option or two transports are refused with a sentence', () => {
  const problem = (args: string[]) => {
    const choice = readTransport(args);
    assert.ok('problem' in choice, `${args.join(' ')} was taken as ${JSON.stringify(choice)}`);
    return choice.problem;
  };
  assert.equal(problem(['--socket=abc']), "--socket needs the port the editor listens on, a number from 1 to 65535, not 'abc'");
  assert.equal(problem(['--socket=']), "--socket needs the port the editor listens on, a number from 1 to 65535, not ''");
  assert.equal(problem(['--socket']), '--socket needs the port the editor listens on, a number from 1 to 65535, not nothing');
  assert.match(problem(['--socket=0']), /not '0'/);
  assert.match(problem(['--socket=65536']), /not '65536'/);
  assert.match(problem(['--socket=12e3']), /not '12e3'/);
  assert.equal(problem(['--pipe=']), "--pipe needs the name of the editor's pipe");
  assert.equal(problem(['--pipe']), "--pipe needs the name of the editor's pipe");
  assert.equal(problem(['--bogus']), "unknown option '--bogus': the server takes one of --stdio, --node-ipc, --socket=<port> or --pipe=<name>");
  assert.match(problem(['--stdio=yes']), /unknown option '--stdio=yes'/);
  assert.match(problem(['--clientProcessId=me']), /--clientProcessId needs the editor's process id, not 'me'/);
  assert.match(problem(['--stdio', '--socket=5007']), /^one transport at a time/);
  assert.match(problem(['--socket=5007', '--socket=5008']), /^one transport at a time/);
});
