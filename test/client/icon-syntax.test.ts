/**
 * `shownLiterally` (client/quoted-text.ts): VS Code draws `$(name)` in a quick pick item's label,
 * description and detail and in a language status item's text and detail as that icon, and
 * `\$(name)` as the text `$(name)`. Text from a broker, a registry or a checkout put there is
 * written so that it shows as written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { labelName, labelText, shownLiterally } from '../../client/quoted-text';

test('every icon reference is preceded by a backslash, with or without a modifier', () => {
  assert.equal(shownLiterally('$(check) orders'), '\\$(check) orders');
  assert.equal(shownLiterally('a$(sync~spin)b$(git-branch)'), 'a\\$(sync~spin)b\\$(git-branch)');
});

test('text that VS Code would not read as an icon is left as it is', () => {
  for (const text of ['orders', '$ (check)', '$(not an icon)', '$()', '$(check', 'price $5 (net)', '(check)']) assert.equal(shownLiterally(text), text);
});

test('a backslash already before an icon reference is kept, shown with the reference after it', () => {
  // VS Code reads `\$(check)` as the text `$(check)`: the backslash written would be lost, so one more is put before the reference.
  assert.equal(shownLiterally('\\$(check)'), '\\\\$(check)');
});

test('a name or sentence for a label is cut, on one line and shown literally', () => {
  assert.equal(labelName('$(check)\norders'), '\\$(check)\\norders');
  assert.equal(labelText('failed: $(error)\r\n'), 'failed: \\$(error)\\r\\n');
  const long = labelName(`$(check)${'q'.repeat(300)}$(x)`);
  assert.ok(long.startsWith('\\$(check)q') && long.endsWith('q\\$(x)'), long);
});
