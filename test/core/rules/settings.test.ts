/** Settings: code and manifest agree, and normalisation defaults and reports problems. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CODE_NAMES } from '../../core/rules/code-names';
import { describe, test } from 'node:test';
import { DEFAULT_MONEY_KEY_PATTERNS, DEFAULT_SETTINGS, normalizeSettings, SETTING_KEYS } from '../../core/rules/settings';
import { DEFAULT_SEND_SETTINGS, readSendSettings, SEND_SETTING_KEYS } from '../../client/send-settings';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const properties = manifest.contributes.configuration.properties as Record<string, any>;

describe('settings', () => {
  test('every setting key in code is declared in package.json with an explicit scope, and vice versa', () => {
    // Language-server settings live in core, broker and preview settings in the client.
    const inCode = [...Object.values(SETTING_KEYS), ...Object.values(SEND_SETTING_KEYS)].sort();
    const inManifest = Object.keys(properties).filter((key) => inCode.includes(key as any) || key.startsWith('babelqueue.')).sort();
    assert.deepEqual(inManifest.filter((key) => !inCode.includes(key as any)), [], 'declared in package.json but unknown to the code');
    for (const key of inCode) {
      assert.ok(properties[key], `${key} missing from package.json`);
      assert.ok(['resource', 'window', 'application', 'machine', 'machine-overridable', 'language-overridable'].includes(properties[key].scope), `${key} scope`);
    }
  });

  test('manifest defaults equal the code defaults', () => {
    assert.equal(properties[SETTING_KEYS.validationEnable].default, DEFAULT_SETTINGS.validationEnabled);
    assert.deepEqual(properties[SETTING_KEYS.moneyKeyPatterns].default, [...DEFAULT_MONEY_KEY_PATTERNS]);
    assert.deepEqual(properties[SETTING_KEYS.diagnosticsSeverity].default, {});
  });

  test('broker and preview settings: manifest defaults equal the code defaults; bad values fall back', () => {
    assert.equal(properties[SEND_SETTING_KEYS.brokerUrl].default, DEFAULT_SEND_SETTINGS.brokerUrl);
    assert.equal(properties[SEND_SETTING_KEYS.timeoutMs].default, DEFAULT_SEND_SETTINGS.timeoutMs);
    assert.equal(properties[SEND_SETTING_KEYS.redisLayout].default, DEFAULT_SEND_SETTINGS.redisLayout);
    assert.equal(properties[SEND_SETTING_KEYS.encoder].default, DEFAULT_SEND_SETTINGS.encoder);
    assert.equal(properties[SEND_SETTING_KEYS.freshIds].default, DEFAULT_SEND_SETTINGS.freshIds);
    const odd = readSendSettings((key) => ({ [SEND_SETTING_KEYS.timeoutMs]: -5, [SEND_SETTING_KEYS.redisLayout]: 'bull', [SEND_SETTING_KEYS.encoder]: 'rust', [SEND_SETTING_KEYS.brokerUrl]: '  ' })[key]);
    assert.deepEqual(odd, DEFAULT_SEND_SETTINGS);
    const chosen = readSendSettings((key) => ({ [SEND_SETTING_KEYS.redisLayout]: 'laravel', [SEND_SETTING_KEYS.encoder]: 'go' })[key]);
    assert.equal(chosen.redisLayout, 'laravel');
    assert.equal(chosen.encoder, 'go');
  });

  test('the broker and registry settings cannot be set by an untrusted workspace', () => {
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations as string[];
    for (const key of [SETTING_KEYS.registryPath, SEND_SETTING_KEYS.brokerUrl, SEND_SETTING_KEYS.redisLayout]) assert.ok(restricted.includes(key), key);
  });

  test('the severity setting names every code, each with exactly the five levels, and no other key', () => {
    const severity = properties[SETTING_KEYS.diagnosticsSeverity];
    assert.deepEqual(Object.keys(severity.properties), [...CODE_NAMES]);
    for (const code of CODE_NAMES) assert.deepEqual(severity.properties[code].enum, ['error', 'warning', 'information', 'hint', 'off'], code);
    assert.equal(severity.additionalProperties, false);
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

});
