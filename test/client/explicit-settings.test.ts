/** client/explicit-settings.ts: only what the user set reaches the server, levels merged as VS Code merges them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explicitSettings } from '../../client/explicit-settings';

test('defaults are left out; later levels win; objects merge per key', () => {
  const levels: Record<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }> = {
    'diagnostics.severity': { globalValue: { 'unknown-urn': 'off', 'float-currency': 'hint' }, workspaceFolderValue: { 'float-currency': 'error' } },
    'registry.validator': { workspaceValue: 'bqschema' },
    'money.keyPatterns': {},
  };
  assert.deepEqual(explicitSettings((key) => levels[key]), {
    diagnostics: { severity: { 'unknown-urn': 'off', 'float-currency': 'error' } },
    registry: { validator: 'bqschema' },
  });
  assert.deepEqual(explicitSettings(() => undefined), {});
});

test('the section the server gets, asked for or pushed on a change, carries its settings, falsy values included, and never the broker URL or its password', () => {
  const values: Record<string, unknown> = {
    'validation.enable': false,
    'diagnostics.severity': { 'urn-alias': 'off' },
    'diagnostics.scope': 'openFiles',
    'compat.base': '',
    'broker.url': 'amqp://guest:s3cret@127.0.0.1:5672',
    'broker.timeoutMs': 5000,
    'redis.prefix': 'app_',
    'redis.layout': 'laravel',
    'preview.sdk': 'go',
  };
  const section = explicitSettings((key) => (key in values ? { globalValue: values[key] } : undefined));
  assert.deepEqual(section, { validation: { enable: false }, diagnostics: { severity: { 'urn-alias': 'off' }, scope: 'openFiles' }, compat: { base: '' }, redis: { layout: 'laravel' } });
  assert.ok(!JSON.stringify(section).includes('s3cret'));
});
