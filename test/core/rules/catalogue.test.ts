/**
 * The catalogue is made from the rule modules: the generated files (code names, the module list,
 * docs/diagnostics.md, the settings' code list) hold what `npm run generate` would write, and every
 * definition is complete enough to be documented and linked.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFINITIONS } from '../../../core/rules/catalogue';
import { CODE_NAMES } from '../../../core/rules/code-names';
import { FAMILIES } from '../../../core/rules/definition';
import { RULE_MODULES } from '../../../core/rules/modules';
import { findRuleModules, staleFiles } from '../../../scripts/generate-catalogue';

test('the generated files are what npm run generate writes', async () => {
  const stale = await staleFiles();
  assert.deepEqual(
    stale.map((file) => file.path),
    [],
    'stale generated files: run npm run generate and commit the result',
  );
});

test('every rule module under core/rules/<family>/ is in the catalogue, and every code in a module', async () => {
  const found = await findRuleModules();
  assert.equal(found.length, RULE_MODULES.length);
  const families = readdirSync(join(__dirname, '../../../core/rules'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  // Beside the families, settings/ holds what every check reads: the settings and the project files that set them.
  assert.deepEqual(families.sort(), [...FAMILIES.map((entry) => entry.family), 'settings'].sort(), 'core/rules/ holds one folder per family, settings/, and nothing else');
  assert.deepEqual(DEFINITIONS.map((definition) => definition.code), [...CODE_NAMES]);
});

test('every definition says what fires it, what to write instead, and shows it, and documents the fixes it has', () => {
  for (const definition of DEFINITIONS) {
    const { docs } = definition;
    assert.ok(docs.fires.length > 20 && docs.instead.length > 10, `${definition.code}: its docs say too little`);
    assert.ok(docs.example.fires.trim() !== '' && docs.example.clean.trim() !== '' && docs.example.fires !== docs.example.clean, `${definition.code}: its example must show a firing and a clean fragment`);
    assert.equal(definition.fixes !== undefined, docs.fixes !== undefined, `${definition.code}: fixes and their documentation come together`);
    assert.ok(!/\.$/.test(definition.summary) || definition.summary.length < 160, `${definition.code}: the summary is one short line`);
  }
});
