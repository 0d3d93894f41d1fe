/**
 * The log lines of the workspace's report name the checkout's files as git lets them be named:
 * a fixture whose name holds a line break (left to its editor, as it is above the report's
 * bound) is named on one line, so its name cannot begin a line of the BabelQueue output of its own.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { TestLspClient } from '../support/lsp-client';

test('a fixture named with a line break and an override, skipped by the report, is logged on one line', { skip: process.platform === 'win32' && 'file names cannot hold a line break' }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-log-names-'));
  const name = 'a\n[Error] forged\u202e.babel.json';
  // Above the report's bound for a fixture not opened (1 MiB): left to its editor, and said in the log.
  writeFileSync(join(root, name), `{"job":"urn:babel:orders:created","pad":"${'x'.repeat(1_100_000)}"}`);
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(root).href] });
  try {
    await client.initialize();
    await client.request('workspace/diagnostic', { previousResultIds: [] });
    await client.waitForQuiet(200);
    const lines = client.logs.filter((line) => line.includes('forged'));
    assert.equal(lines.length, 1, JSON.stringify(client.logs));
    assert.doesNotMatch(lines[0]!, /[\n\u202e]/);
    assert.match(lines[0]!, /a\\n\[Error\] forged\\u202e\.babel\.json is checked when it is opened/);
  } finally {
    client.kill();
    rmSync(root, { recursive: true, force: true });
  }
});
