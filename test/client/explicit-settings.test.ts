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
