/**
 * The judging of an open suppressions file, as the suppressions tests drive it over real JSON-RPC:
 * a fixture opened and its diagnostics pulled (so the server is warm), then the suppressions file
 * opened and its diagnostics pulled while a hover on that fixture is asked 20 ms later. Whether the
 * hover is answered while the judging runs is what the server's responsiveness is judged by.
 */
import assert from 'node:assert/strict';
import { GOOD_ENVELOPE } from './envelopes';
import type { TestLspClient } from './lsp-client';

export interface JudgingWithHover {
  /** The suppressions file's diagnostics. */
  readonly items: any[];
  /** From the pull's request to the hover's answer. */
  readonly hoverMs: number;
  /** From the pull's request to its answer. */
  readonly pullMs: number;
}

/** Opens `fixture` (GOOD_ENVELOPE, a hover on its `job` key asked) and `suppressions`, and pulls the latter's diagnostics. */
export async function judgeWithHover(client: TestLspClient, fixture: string, suppressionsUri: string, suppressions: string): Promise<JudgingWithHover> {
  await client.open(fixture, GOOD_ENVELOPE);
  await client.pullDiagnostics(fixture);
  await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: suppressionsUri, languageId: 'json', version: 1, text: suppressions } });
  const started = Date.now();
  const pulled = client.pullDiagnostics(suppressionsUri).then((report) => ({ items: report.items, pullMs: Date.now() - started }));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const hover = await client.request('textDocument/hover', { textDocument: { uri: fixture }, position: { line: 1, character: 4 } });
  const hoverMs = Date.now() - started;
  assert.match(hover?.contents?.value ?? '', /`job`/);
  return { ...(await pulled), hoverMs };
}
