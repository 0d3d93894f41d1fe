/**
 * cli/lint-file.ts reads every file of a run into one reused buffer: a large file grows it, a
 * small file after a large one sees only its own bytes, and an unreadable path is a CliError that
 * names the file as the user gave it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CliError } from '../../cli/errors';
import { lintContext, lintFile } from '../../cli/lint-file';

const dir = mkdtempSync(join(tmpdir(), 'babelq-lint-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const envelope = (data: string) =>
  `{"job": "urn:babel:orders:created", "trace_id": "7f8e1c2a-9b3d-4e5f-8a6b-1c2d3e4f5a6b", "data": ${data}, "meta": {"id": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "schema_version": 1, "created_at": 1750000000000, "queue": "orders", "lang": "node"}, "attempts": 0}\n`;

test('a file larger than the read buffer, then a smaller one: each is linted from its own bytes', () => {
  const context = lintContext({ cwd: dir, config: undefined, registry: undefined });
  const items = Array.from({ length: 20_000 }, (_, i) => `{"sku": "SKU-${i}", "price": 1.5}`).join(', ');
  const big = join(dir, 'big.babel.json');
  const small = join(dir, 'small.babel.json');
  writeFileSync(big, envelope(`{"items": [${items}]}`));
  writeFileSync(small, envelope('{"amount": 1}').replace('"attempts": 0', '"attempts": "0"'));
  const bigReport = lintFile({ path: 'big.babel.json', absolute: big }, context);
  // 20,000 float prices: float-currency on each (the first 10,000 listed, the cap's note counts all), so the whole file was read and analysed.
  assert.equal(bigReport.diagnostics.filter((d) => d.code === 'float-currency').length, 10_000);
  assert.match(bigReport.diagnostics.find((d) => d.code === 'too-many-findings')!.message, /^20,000 findings/);
  const smallReport = lintFile({ path: 'small.babel.json', absolute: small }, context);
  assert.deepEqual(
    smallReport.diagnostics.map((d) => d.code),
    ['wrong-type'],
  );
  assert.equal(lintFile({ path: 'big.babel.json', absolute: big }, context).diagnostics.length, bigReport.diagnostics.length);
});

test('an unreadable path is a CliError with the path as given', () => {
  const context = lintContext({ cwd: dir, config: undefined, registry: undefined });
  assert.throws(() => lintFile({ path: 'gone.babel.json', absolute: join(dir, 'gone.babel.json') }, context), (error: unknown) => error instanceof CliError && /cannot read 'gone\.babel\.json': no such file or directory/.test(error.message));
  assert.throws(() => lintFile({ path: 'a-directory', absolute: dir }, context), (error: unknown) => error instanceof CliError && /cannot read 'a-directory'/.test(error.message));
});
