/**
 * Virtual workspaces (folders on no file system, such as a repository opened remotely): the
 * language server reads registry.json, the payload schemas and babelq.json from disk, and the
 * `babelq` task runs the bundled CLI on the folder's files, so neither works there. The manifest
 * declares the support as limited and says what is missing, and the README of the extension says
 * the same.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const readme = readFileSync(join(ROOT, 'README.extension.md'), 'utf8');

describe('capabilities.virtualWorkspaces', () => {
  test('is declared limited, with a description of what does not work', () => {
    const declared = manifest.capabilities?.virtualWorkspaces;
    assert.ok(declared, 'package.json declares capabilities.virtualWorkspaces');
    assert.equal(declared.supported, 'limited');
    assert.equal(typeof declared.description, 'string');
    assert.match(declared.description, /registry/);
    assert.match(declared.description, /babelq\.json/);
    assert.match(declared.description, /task/);
  });

  test('README.extension.md states the same limits', () => {
    const paragraph = readme.split(/\n\n/).find((text) => /virtual workspace/i.test(text));
    assert.ok(paragraph, 'README.extension.md has a paragraph on virtual workspaces');
    assert.match(paragraph, /virtualWorkspaces: limited/);
    assert.match(paragraph, /registry/);
    assert.match(paragraph, /babelq\.json/);
    assert.match(paragraph, /`babelq` task/);
  });
});
