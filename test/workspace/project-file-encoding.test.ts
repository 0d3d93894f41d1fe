/**
 * babelq.json and babelq-suppressions.json saved in another encoding than UTF-8 (UTF-16, as some
 * Windows editors save) are said to be so, where the first invalid byte is, in the words a
 * fixture's such bytes get, as `babelq lint` and the editor's workspace report both read them
 * through ProjectConfigs; not called an "invalid symbol" of JSON.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ProjectConfigs } from '../../workspace/project-config';
import { DEFAULT_SETTINGS } from '../../core/rules/settings/settings';
import { projectFileDiagnostics } from '../../server/project-files';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'babelq-project-encoding-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

const folder = (name: string, files: Record<string, string | Buffer>) => {
  const directory = join(root, name);
  mkdirSync(join(directory, '.git'), { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(directory, file), content);
  return directory;
};

test('a UTF-16 babelq.json is one problem at 1:1 saying it is not UTF-8, and no settings are taken from it', () => {
  const directory = folder('utf16', { 'babelq.json': Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]) });
  const loaded = new ProjectConfigs().configIn(directory);
  assert.deepEqual(loaded?.config.problems, [{ offset: 0, end: 0, message: 'The file is not valid UTF-8 (it starts with a UTF-16 byte-order mark); babelq.json is read as UTF-8. Save it as UTF-8.' }]);
});

test('a babelq.json with an invalid byte after valid text: the problem is where that byte is', () => {
  const directory = folder('latin1', { 'babelq.json': Buffer.concat([Buffer.from('{ "ignore": ["caf'), Buffer.from([0xe9]), Buffer.from('/**"] }')]) });
  const problems = new ProjectConfigs().configIn(directory)?.config.problems ?? [];
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.offset, '{ "ignore": ["caf'.length);
  assert.equal(problems[0]!.message, 'The file is not valid UTF-8 (an invalid sequence starts with byte 0xE9 at byte offset 17, line 1); babelq.json is read as UTF-8. Save it as UTF-8.');
});

test('a UTF-16 babelq-suppressions.json is one problem saying so, with no entries', () => {
  const directory = folder('suppressions', { 'babelq.json': '{}', 'babelq-suppressions.json': Buffer.from([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]) });
  const suppressions = new ProjectConfigs().configIn(directory)?.suppressions;
  assert.deepEqual(suppressions?.file, { entries: [], problems: [{ offset: 0, end: 0, message: 'The file is not valid UTF-8 (it starts with a UTF-16 byte-order mark); babelq-suppressions.json is read as UTF-8. Save it as UTF-8.' }] });
});

test('after a UTF-8 byte-order mark, which a config may keep, an invalid byte is still said to be one', () => {
  const directory = folder('bom', { 'babelq.json': Buffer.concat([Buffer.from('\uFEFF{ "ignore": ["caf'), Buffer.from([0xe9]), Buffer.from('/**"] }')]) });
  const problems = new ProjectConfigs().configIn(directory)?.config.problems ?? [];
  assert.deepEqual(problems.map((problem) => problem.offset), ['\uFEFF{ "ignore": ["caf'.length]);
  assert.match(problems[0]!.message, /^The file is not valid UTF-8 /);
});

test('a U+FFFD written in valid UTF-8 is no encoding problem', () => {
  const directory = folder('replacement', { 'babelq.json': '{ "ignore": ["\uFFFD/**"] }' });
  assert.deepEqual(new ProjectConfigs().configIn(directory)?.config.problems, []);
});

test('opened in an editor that decoded it as UTF-8, a UTF-16 project file gets the same finding (server/project-files.ts)', () => {
  const directory = folder('opened', { 'babelq.json': Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), 'babelq-suppressions.json': Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]) });
  // What an editor reading the bytes as UTF-8 holds: a replacement character for each invalid byte.
  const asOpened = Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]).toString('utf8');
  for (const [kind, name] of [['config', 'babelq.json'], ['suppressions', 'babelq-suppressions.json']] as const) {
    const diagnostics = projectFileDiagnostics(kind, asOpened, DEFAULT_SETTINGS, { stale: [] }, join(directory, name));
    assert.deepEqual(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.offset, diagnostic.message]), [['config-error', 0, `The file is not valid UTF-8 (it starts with a UTF-16 byte-order mark); ${name} is read as UTF-8. Save it as UTF-8.`]]);
  }
  // Decoded as UTF-16, as VS Code decodes it, the text is the object it holds: no finding.
  assert.deepEqual(projectFileDiagnostics('config', '{}', DEFAULT_SETTINGS, { stale: [] }, join(directory, 'babelq.json')), []);
});
