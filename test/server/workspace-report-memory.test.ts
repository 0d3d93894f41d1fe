/**
 * What the workspace's report keeps of a fixture once it is analysed: its findings, its URN and
 * where that is written, never its text. The URN was a view into the text (V8 slices a string
 * of 13 or more characters out of the string it was cut from), so every fixture's whole text
 * stayed in the server's memory: 36 MB of the 52 MB heap after reporting the 10,000 fixtures of
 * the bench workspace, 3.5 MB once the URN was copied.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { envelopeText } from '../../bench/generate';
import { SERVER_PATH, TestLspClient } from '../support/lsp-client';

const FIXTURES = 400;

test("the workspace's report keeps no fixture's text: fixtures adding up to more than the server's heap are reported", async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'babelq-report-memory-'));
  // 400 fixtures of 200 KB (two bytes a character in V8, as the payload holds non-Latin-1 text):
  // 160 MB of texts, against an old space of 48 MB.
  for (let i = 0; i < FIXTURES; i++) {
    const folder = join(workspace, `batch-${Math.floor(i / 100)}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `message-${i}.babel.json`), envelopeText(200_000, i + 1));
  }
  const client = new TestLspClient({ workspaceFolders: [pathToFileURL(workspace).href], command: ['--max-old-space-size=48', SERVER_PATH, '--stdio'] });
  try {
    await client.initialize();
    const report = await client.request<{ items: { uri: string; items: unknown[] }[] }>('workspace/diagnostic', { previousResultIds: [] });
    assert.equal(report.items.length, FIXTURES);
    // Still there, and answering, once every fixture is analysed.
    const again = await client.request<{ items: unknown[] }>('workspace/diagnostic', { previousResultIds: [] });
    assert.equal(again.items.length, FIXTURES);
  } finally {
    await client.shutdown().catch(() => undefined);
    rmSync(workspace, { recursive: true, force: true });
  }
});
