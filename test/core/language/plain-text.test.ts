/** The Markdown core writes for hovers and completion documentation, as the plain text it shows (core/language/plain-text.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownAsPlainText } from '../../../core/language/plain-text';
import { codeSpan, escapeMarkdown, tableCode } from '../../../core/language/markdown';

test('emphasis, code spans and link targets are reduced to their text', () => {
  assert.equal(markdownAsPlainText('**`meta.id`** · string (UUID)\n\n`1749132727000` ms = **2025-06-05T14:12:07.000Z** (UTC)'), 'meta.id · string (UUID)\n\n1749132727000 ms = 2025-06-05T14:12:07.000Z (UTC)');
  assert.equal(markdownAsPlainText('schema: [schemas/a\\_b.json](file:///w/schemas/a_b.json)'), 'schema: schemas/a_b.json');
  assert.equal(markdownAsPlainText('_The schema declares no fields._'), 'The schema declares no fields.');
});

test("a word's own underscores and the registry's escaped text stay as written", () => {
  assert.equal(markdownAsPlainText('Producer-set metadata (schema_version, created_at).'), 'Producer-set metadata (schema_version, created_at).');
  const hostile = 'a *b* [c](d) <e> & `f` | _g_ \\h';
  assert.equal(markdownAsPlainText(escapeMarkdown(hostile)), hostile);
  assert.equal(markdownAsPlainText(codeSpan('x`y')), 'x`y');
  assert.equal(markdownAsPlainText(codeSpan('`edge`')), '`edge`');
});

test('a table is aligned in columns, without its alignment row', () => {
  const table = ['| field | type |', '| --- | --- |', `| ${tableCode('a|b')} | integer ≥ 1 |`, `| ${tableCode('order_id')} | ${escapeMarkdown('x | y')} |`].join('\n');
  assert.equal(markdownAsPlainText(table), ['field     type', 'a|b       integer ≥ 1', 'order_id  x | y'].join('\n'));
});
