/** The language server's settings: core's defaults and the manifest agree, and normalisation defaults and reports problems. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CODE_NAMES } from '../../../core/rules/code-names';
import { describe, test } from 'node:test';
import { DEFAULT_MONEY_KEY_PATTERNS, DEFAULT_SETTINGS, normalizeSettings, SETTING_KEYS } from '../../../core/rules/settings/settings';
import { readProjectConfig } from '../../../core/rules/settings/project-config';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const properties = manifest.contributes.configuration.properties as Record<string, any>;

describe('settings', () => {


  test('manifest defaults equal the code defaults', () => {
    assert.equal(properties[SETTING_KEYS.validationEnable].default, DEFAULT_SETTINGS.validationEnabled);
    assert.deepEqual(properties[SETTING_KEYS.moneyKeyPatterns].default, [...DEFAULT_MONEY_KEY_PATTERNS]);
    assert.deepEqual(properties[SETTING_KEYS.diagnosticsSeverity].default, {});
  });





  test('the severity setting names every code, each with exactly the five levels, and no other key', () => {
    const severity = properties[SETTING_KEYS.diagnosticsSeverity];
    assert.deepEqual(Object.keys(severity.properties), [...CODE_NAMES]);
    for (const code of CODE_NAMES) assert.deepEqual(severity.properties[code].enum, ['error', 'warning', 'information', 'hint', 'off'], code);
    assert.equal(severity.additionalProperties, false);
  });

  test('registry.validator: draft-07 by default, bqschema when set, a problem otherwise', () => {
    assert.equal(DEFAULT_SETTINGS.registryValidator, 'draft-07');
    assert.equal(properties[SETTING_KEYS.registryValidator].default, DEFAULT_SETTINGS.registryValidator);
    assert.deepEqual(properties[SETTING_KEYS.registryValidator].enum, ['draft-07', 'bqschema']);
    assert.equal(normalizeSettings({ registry: { validator: 'bqschema' } }).settings.registryValidator, 'bqschema');
    const wrong = normalizeSettings({ registry: { validator: 'ajv' } });
    assert.equal(wrong.settings.registryValidator, 'draft-07');
    assert.deepEqual(wrong.problems.map((p) => p.setting), [SETTING_KEYS.registryValidator]);
  });

  test('nested (VS Code) and dotted (config file) shapes give the same settings', () => {
    const nested = normalizeSettings({ validation: { enable: false }, diagnostics: { severity: { 'urn-alias': 'error' } }, money: { keyPatterns: ['price'] } });
    const dotted = normalizeSettings({ 'babelqueue.validation.enable': false, 'babelqueue.diagnostics.severity': { 'urn-alias': 'error' }, 'babelqueue.money.keyPatterns': ['price'] });
    for (const { settings, problems } of [nested, dotted]) {
      assert.deepEqual(problems, []);
      assert.equal(settings.validationEnabled, false);
      assert.equal(settings.severityOverrides.get('urn-alias'), 'error');
      assert.deepEqual(settings.moneyKeyPatterns, ['price']);
    }
  });

  test('unknown codes and bad values are reported, the rest still applies', () => {
    const { settings, problems } = normalizeSettings({ diagnostics: { severity: { 'no-such-code': 'off', 'urn-alias': 'loud', 'invalid-uuid': 'off' } }, money: { keyPatterns: 'price' } });
    assert.equal(problems.length, 3);
    assert.match(problems[0].message, /no-such-code/);
    assert.equal(settings.severityOverrides.get('invalid-uuid'), 'off');
    assert.equal(settings.severityOverrides.has('urn-alias'), false);
    assert.deepEqual(settings.moneyKeyPatterns, DEFAULT_MONEY_KEY_PATTERNS);
  });

  test('a registry path longer than any a system opens is a problem, not a path to look for', () => {
    const long = `${'a/'.repeat(3000)}registry.json`;
    const { settings, problems } = normalizeSettings({ registry: { path: long } });
    assert.equal(settings.registryPath, undefined);
    assert.deepEqual(problems.map((problem) => problem.message), ['must be a path relative to the workspace folder, e.g. "schemas/registry.json", of at most 4,096 characters (this one has 6,013)']);
    const config = readProjectConfig(JSON.stringify({ registry: long }));
    assert.equal(config.layer.registryPath, undefined);
    assert.deepEqual(config.problems.map((problem) => problem.message), ['"registry" must be the path of a registry.json, relative to this file, of at most 4,096 characters (this one has 6,013)']);
  });

  test('a misspelt code or level names the one it is closest to; one close to none says where the codes are listed', () => {
    const { problems } = normalizeSettings({ diagnostics: { severity: { 'extention-key': 'off', 'float-currency': 'Warning', 'urn-alias': 'warn', 'no-such-code': 'off', 'invalid-uuid': 'loud' } } });
    assert.deepEqual(problems.map((problem) => problem.message), [
      'unknown diagnostic code "extention-key" (did you mean "extension-key"?)',
      '"float-currency" must be one of error, warning, information, hint, off (did you mean "warning"?)',
      '"urn-alias" must be one of error, warning, information, hint, off (did you mean "warning"?)',
      'unknown diagnostic code "no-such-code"; the codes are listed in docs/diagnostics.md',
      '"invalid-uuid" must be one of error, warning, information, hint, off',
    ]);
  });

});
