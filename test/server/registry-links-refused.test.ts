/**
 * Links in registry.json over real JSON-RPC against dist/server.js: a schema path the registry
 * refused unread (it leaves the workspace folder through `..`, an absolute path or a symbolic link,
 * or it is a named pipe or a device) gets no link, so following one never has the editor read a
 * file outside the workspace, block on a pipe or read a device without end; a schema file that is
 * there keeps its link, and so does one that is missing (the link names where it belongs); a
 * fixture's hover on the URN links the same files.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';
import { scratchFolder } from '../support/scratch-folder';

describe('registry.json links to its schema files', () => {
  test('no link on a schema path refused unread; the others keep theirs', async () => {
    const outside = scratchFolder('babelq-links-outside-');
    outside.write('secret.json', { type: 'object' });
    const { uriOf, write, at } = scratchFolder('babelq-links-refused-');
    write('.git/HEAD', 'ref: refs/heads/main\n');
    write('schemas/good.json', { type: 'object' });
    symlinkSync(outside.at('secret.json'), at('schemas/linked-out.json'));
    symlinkSync('/dev/zero', at('schemas/device.json'));
    execFileSync('mkfifo', [at('schemas/pipe.json')]);
    const names = ['good', 'dotdot', 'absolute', 'linked-out', 'device', 'pipe', 'missing'];
    const paths: Record<string, string> = {
      good: 'schemas/good.json',
      dotdot: `../${outside.at('secret.json').split('/').slice(-2).join('/')}`,
      absolute: outside.at('secret.json'),
      'linked-out': 'schemas/linked-out.json',
      device: 'schemas/device.json',
      pipe: 'schemas/pipe.json',
      missing: 'schemas/missing.json',
    };
    const registry = JSON.stringify({ schemas: names.map((name) => ({ urn: `urn:babel:links:${name}`, schema: paths[name], owner: 'links', status: 'active' })) }, null, 2);
    writeFileSync(at('registry.json'), registry);
    const client = new TestLspClient({ workspaceFolders: [uriOf('')] });
    try {
      await client.initialize();
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf('registry.json'), languageId: 'json', version: 1, text: registry } });
      // Each refused path is still said, on registry.json.
      const problems = (await client.pullDiagnostics(uriOf('registry.json'))).items.map((item) => item.message);
      assert.equal(problems.length, 6, problems.join('\n'));
      const links: { target: string; range: { start: { line: number } } }[] = await client.request('textDocument/documentLink', { textDocument: { uri: uriOf('registry.json') } });
      assert.deepEqual(links.map((link) => link.target), [uriOf('schemas/good.json'), uriOf('schemas/missing.json')]);
      // Nor does a fixture's hover on the URN link the refused file: it names the path as written.
      for (const name of names) {
        const fixture = uriOf(`${name}.babel.json`);
        await client.open(fixture, JSON.stringify({ job: `urn:babel:links:${name}` }, null, 2));
        const hover = await client.request('textDocument/hover', { textDocument: { uri: fixture }, position: { line: 1, character: 14 } });
        const linked = /\]\(file:/.test(hover.contents.value);
        assert.equal(linked, name === 'good' || name === 'missing', `${name}: ${hover.contents.value}`);
        await client.close(fixture);
      }
    } finally {
      client.kill();
    }
  });
});
