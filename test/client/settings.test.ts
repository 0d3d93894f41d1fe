/**
 * The extension's settings in its manifest: every key the code reads (core's and the client's) is
 * declared with an explicit scope, the client's defaults agree with the manifest, and what an
 * untrusted workspace may not set is restricted.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { DEFAULT_SEND_SETTINGS, readSendSettings, SEND_SETTING_KEYS } from '../../client/send-settings';
import { classifyKey } from '../../core/contract/keys';
import { normalizeSettings, SETTING_KEYS } from '../../core/rules/settings/settings';
import { analyzeText } from '../../core/rules/analyze';
import { GOOD_ENVELOPE } from '../support/envelopes';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const properties = manifest.contributes.configuration.properties as Record<string, any>;

describe('the manifest\'s settings', () => {
  test('the money key patterns\' description says which minor-unit keys count as the classifier does: _minor only after a money-like name', () => {
    const description = properties['babelqueue.money.keyPatterns'].markdownDescription as string;
    const classes = classifyKey(properties['babelqueue.money.keyPatterns'].default);
    // `_cents` and `_pence` count on their own; `_minor` only after a name the patterns match.
    assert.equal(classes.isMinorUnits('order_cents'), true);
    assert.equal(classes.isMinorUnits('price_minor'), true);
    assert.equal(classes.isMinorUnits('version_minor'), false);
    assert.doesNotMatch(description, /`_cents`, `_minor` or `_pence` hold integer minor units/, 'says every key ending in _minor holds minor units');
    assert.match(description, /`_minor`[^.]*after a name these patterns match[^.]*`version_minor`/);
  });

  test('the Redis layout\'s description gives a Laravel retry\'s findings the severities the engine gives them: a number a warning, an empty list information', () => {
    const text = GOOD_ENVELOPE.replace('{ "order_id": 1042 }', '{ "order_id": 1042, "total": 123456789012345, "tags": [] }');
    const laravel = normalizeSettings({ redis: { layout: 'laravel' } }).settings;
    const severityOn = (token: string) => analyzeText(text, laravel).find((d) => d.code === 'encoding-divergence' && text.slice(d.offset, d.end) === token)?.severity;
    assert.equal(severityOn('123456789012345'), 'warning');
    assert.equal(severityOn('[]'), 'information');
    const description = properties['babelqueue.redis.layout'].description as string;
    assert.doesNotMatch(description, /empty lists[^.;]*warnings/, description);
    assert.match(description, /number[^.;]*warning/, description);
    assert.match(description, /empty list[^.;]*information/, description);
  });

  test('every minor-unit suffix the classifier knows is named where the setting is described, _minor_units with _minor after a money-like name', () => {
    const classes = classifyKey(properties['babelqueue.money.keyPatterns'].default);
    assert.equal(classes.isMinorUnits('amount_minor_units'), true);
    assert.equal(classes.isMinorUnits('amountMinorUnits'), true);
    assert.equal(classes.isMinorUnits('version_minor_units'), false);
    assert.equal(classes.isMoney('amount_minor_units'), false, 'a key in minor units is not a money key whose float is reported as money');
    const description = properties['babelqueue.money.keyPatterns'].markdownDescription as string;
    assert.match(description, /`_minor` or `_minor_units` after a name these patterns match/);
    const readme = readFileSync('README.extension.md', 'utf8').split('\n').find((line) => line.startsWith('| `babelqueue.money.keyPatterns`'))!;
    assert.match(readme, /`_minor_units`/);
    assert.match(readFileSync('docs/diagnostics.md', 'utf8'), /`\*_minor` and `\*_minor_units` after a money-like name/);
  });

  test('every setting key in code is declared in package.json with an explicit scope, and vice versa', () => {
    // Language-server settings live in core, broker and preview settings in the client.
    const inCode = [...Object.values(SETTING_KEYS), ...Object.values(SEND_SETTING_KEYS)].sort();
    const inManifest = Object.keys(properties).filter((key) => inCode.includes(key as any) || key.startsWith('babelqueue.')).sort();
    assert.deepEqual(inManifest.filter((key) => !inCode.includes(key as any)), [], 'declared in package.json but unknown to the code');
    for (const key of inCode) {
      assert.ok(properties[key], `${key} missing from package.json`);
      assert.ok(['resource', 'window', 'application', 'machine', 'machine-overridable', 'language-overridable'].includes(properties[key].scope), `${key} scope`);
    }
  });  test('broker and preview settings: manifest defaults equal the code defaults; bad values fall back', () => {
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
  });  test('the broker and registry settings cannot be set by an untrusted workspace', () => {
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations as string[];
    for (const key of [SETTING_KEYS.registryPath, SEND_SETTING_KEYS.brokerUrl, SEND_SETTING_KEYS.redisLayout]) assert.ok(restricted.includes(key), key);
  });});
