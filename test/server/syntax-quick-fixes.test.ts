/**
 * json-syntax findings with one sure repair get a quick fix over the protocol: the code action a
 * client shows (kind quickfix, preferred when it is the only one), its edit, and the text it
 * leaves (valid JSON, the finding gone). Where the message offers two readings, two quick fixes,
 * neither preferred. Fix all leaves a file with syntax errors as written.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { applyEdits } from '../../core/model/edits';
import { LineIndex } from '../../core/model/positions';
import { GOOD_ENVELOPE } from '../support/envelopes';
import { TestLspClient } from '../support/lsp-client';

interface LspEdit {
  readonly range: { readonly start: { line: number; character: number }; readonly end: { line: number; character: number } };
  readonly newText: string;
}
interface Action {
  readonly title: string;
  readonly kind: string;
  readonly isPreferred?: boolean;
  readonly diagnostics?: { code: string }[];
  readonly edit?: { changes: Record<string, LspEdit[]> };
}

function applyLspEdits(text: string, edits: readonly LspEdit[]): string {
  const lines = new LineIndex(text);
  return applyEdits(text, edits.map((edit) => ({ offset: lines.offsetAt(edit.range.start), end: lines.offsetAt(edit.range.end), newText: edit.newText })));
}

describe('quick fixes for json-syntax findings', () => {
  const client = new TestLspClient();
  const uri = 'file:///workspace/orders/syntax.babel.json';
  let version = 1;

  before(async () => {
    await client.initialize();
    await client.open(uri, GOOD_ENVELOPE, version);
  });
  after(() => client.kill());

  /** The json-syntax finding of `text` (there is one) and the code actions offered for it, as the plain menu asks. */
  async function actionsFor(text: string, only?: string[]): Promise<{ finding: { message: string }; actions: Action[] }> {
    await client.change(uri, text, ++version);
    const { items } = await client.pullDiagnostics(uri);
    const syntax = items.filter((item) => item.code === 'json-syntax');
    assert.equal(syntax.length, 1, JSON.stringify(items.map((item) => item.message)));
    const actions: Action[] = await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: syntax[0].range,
      context: { diagnostics: syntax, triggerKind: 1, ...(only ? { only } : {}) },
    });
    return { finding: syntax[0], actions };
  }

  test('a property name without quotes: "Write "queue"", preferred, and its edit leaves the envelope', async () => {
    const text = GOOD_ENVELOPE.replace('"queue": "orders"', 'queue: "orders"');
    const { finding, actions } = await actionsFor(text);
    assert.equal(finding.message, 'Property names must be double-quoted: write "queue".');
    const quickFixes = actions.filter((action) => action.kind === 'quickfix');
    assert.deepEqual(quickFixes.map((action) => [action.title, action.isPreferred]), [['Write "queue"', true]]);
    assert.deepEqual(quickFixes[0].diagnostics?.map((diagnostic) => diagnostic.code), ['json-syntax']);
    const edits = quickFixes[0].edit!.changes[uri];
    assert.deepEqual(edits, [{ range: { start: { line: 6, character: 4 }, end: { line: 6, character: 9 } }, newText: '"queue"' }]);
    const fixed = applyLspEdits(text, edits);
    assert.equal(fixed, GOOD_ENVELOPE);
    await client.change(uri, fixed, ++version);
    assert.deepEqual((await client.pullDiagnostics(uri)).items, []);
  });

  test('a trailing comma: "Remove the trailing \',\'"', async () => {
    const text = GOOD_ENVELOPE.replace('"attempts": 0', '"attempts": 0,');
    const { actions } = await actionsFor(text);
    const quickFixes = actions.filter((action) => action.kind === 'quickfix');
    assert.deepEqual(quickFixes.map((action) => [action.title, action.isPreferred]), [["Remove the trailing ','", true]]);
    assert.equal(applyLspEdits(text, quickFixes[0].edit!.changes[uri]), GOOD_ENVELOPE);
  });

  test('a missing comma between two keys on their lines: "Insert \',\'" after the first value', async () => {
    const text = GOOD_ENVELOPE.replace('"queue": "orders",', '"queue": "orders"');
    const { actions } = await actionsFor(text);
    const quickFixes = actions.filter((action) => action.kind === 'quickfix');
    assert.deepEqual(quickFixes.map((action) => action.title), ["Insert ','"]);
    assert.deepEqual(quickFixes[0].edit!.changes[uri], [{ range: { start: { line: 6, character: 21 }, end: { line: 6, character: 21 } }, newText: ',' }]);
    assert.equal(applyLspEdits(text, quickFixes[0].edit!.changes[uri]), GOOD_ENVELOPE);
  });

  test('a quote after a number, which the message reads two ways: two quick fixes, neither preferred', async () => {
    const text = GOOD_ENVELOPE.replace('"order_id": 1042', '"order_id": 1042"');
    const { actions } = await actionsFor(text);
    const quickFixes = actions.filter((action) => action.kind === 'quickfix');
    assert.deepEqual(quickFixes.map((action) => [action.title, action.isPreferred]), [
      ['Remove \'"\'', false],
      ['Write "1042"', false],
    ]);
    const [removed, quoted] = quickFixes.map((action) => JSON.parse(applyLspEdits(text, action.edit!.changes[uri])));
    assert.equal(removed.data.order_id, 1042);
    assert.equal(quoted.data.order_id, '1042');
  });

  test('a path pasted between quotes with its backslashes alone: one finding on the string, its fix writes them escaped', async () => {
    const text = GOOD_ENVELOPE.replace('"order_id": 1042', String.raw`"order_id": 1042, "path": "C:\orders\in"`);
    const { finding, actions } = await actionsFor(text);
    assert.match(finding.message, /^Invalid escapes '\\o' and '\\i' in this string: /);
    const quickFixes = actions.filter((action) => action.kind === 'quickfix');
    assert.deepEqual(quickFixes.map((action) => [action.title, action.isPreferred]), [[String.raw`Write "C:\\orders\\in"`, true]]);
    assert.equal(JSON.parse(applyLspEdits(text, quickFixes[0].edit!.changes[uri])).data.path, String.raw`C:\orders\in`);
  });

  test('fix all leaves a file with a syntax error as written', async () => {
    const text = GOOD_ENVELOPE.replace('"queue": "orders"', 'queue: "orders"');
    const { actions } = await actionsFor(text, ['source.fixAll.babelqueue']);
    assert.deepEqual(actions, []);
  });
});
