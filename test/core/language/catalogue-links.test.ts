/**
 * Links to the diagnostic catalogue: GitHub's anchors for its headings (as github-slugger makes
 * them), each code's heading and line, and the repository the web links point into.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { catalogueHeadings, catalogueWebUrl, codeEntries, githubSlug, headingText, REPOSITORY_URL } from '../../../core/language/catalogue-links';
import { DEFINITIONS } from '../../../core/rules/catalogue';

const ROOT = resolve(__dirname, '../../..');
const CATALOGUE = readFileSync(join(ROOT, 'docs', 'diagnostics.md'), 'utf8');

test('GitHub slugs: lower case, punctuation dropped, spaces to hyphens, repeats numbered', () => {
  assert.equal(githubSlug('duplicate-key'), 'duplicate-key');
  assert.equal(githubSlug('Data rules (inside data)'), 'data-rules-inside-data');
  assert.equal(githubSlug('Project files (babelq.json, babelq-suppressions.json)'), 'project-files-babelqjson-babelq-suppressionsjson');
  assert.equal(githubSlug('Machine-readable output (babelq lint --format json)'), 'machine-readable-output-babelq-lint---format-json');
  assert.equal(githubSlug('Straße und Ümlaut_1'), 'straße-und-ümlaut_1');
  const seen = new Map<string, number>();
  assert.deepEqual(['Fixes', 'Fixes', 'fixes'].map((text) => githubSlug(text, seen)), ['fixes', 'fixes-1', 'fixes-2']);
  assert.equal(headingText('`forbidden-key` and [a link](x.md) in **bold**'), 'forbidden-key and a link in bold');
});

test('headings inside fenced code are not headings', () => {
  const headings = catalogueHeadings('# Top\n\n```md\n# not a heading\n```\n\n## `a-code`\n~~~\n### nor this\n~~~\n### `b-code` ##\n');
  assert.deepEqual(headings.map((h) => [h.text, h.line, h.anchor]), [['Top', 1, 'top'], ['a-code', 7, 'a-code'], ['b-code', 11, 'b-code']]);
});

test('every code has an entry in the catalogue: its heading line, and the anchor GitHub gives it is the code', () => {
  const entries = codeEntries(CATALOGUE);
  const lines = CATALOGUE.split('\n');
  for (const { code } of DEFINITIONS) {
    const entry = entries.get(code);
    assert.ok(entry, `no "### \`${code}\`" heading in docs/diagnostics.md`);
    assert.equal(lines[entry.line - 1], `### \`${code}\``);
    assert.equal(entry.anchor, githubSlug(code), `GitHub numbers ${code}'s anchor: another heading slugs the same`);
  }
});

test('the web links point into the repository package.json declares, at the release tag', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; repository: { url: string }; bugs: { url: string }; homepage: string };
  assert.equal(manifest.repository.url, `git+${REPOSITORY_URL}.git`);
  assert.equal(manifest.bugs.url, `${REPOSITORY_URL}/issues`);
  assert.equal(manifest.homepage, `${REPOSITORY_URL}#readme`);
  assert.equal(catalogueWebUrl(manifest.version), `${REPOSITORY_URL}/blob/v${manifest.version}/docs/diagnostics.md`);
});
