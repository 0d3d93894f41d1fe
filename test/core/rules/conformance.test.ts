/**
 * The external cross-SDK conformance corpus, linted as envelope files.
 *
 * CI points `BABELQ_CONFORMANCE_DIR` at the suite (layout: `manifest.json` with
 * `cases: [{ name, file, valid, expect?, reason? }]` and `fixtures/*.json`). The corpus is not
 * copied into this repository: it belongs to the SDKs and changes with them.
 *
 * - a `valid: true` case must lint without any error-severity diagnostic;
 * - a `valid: false` case must yield at least one error of the code the table below names for it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../../core/rules/analyze';
import type { Code } from '../../../core/rules/code-names';
import type { CoreDiagnostic } from '../../../core/rules/diagnostic';
import { parseJson } from '../../../core/parse/parser';
import { resolveUrn } from '../../../core/contract/urn';
import { asObject, getProperty } from '../../../core/model/tree';

const ENV_VAR = 'BABELQ_CONFORMANCE_DIR';

/**
 * Why each invalid case is invalid, as the code that must report it (an error). A new invalid case
 * in the corpus fails the run until someone decides here which code covers it.
 */
const INVALID_CASE_CODES: Readonly<Record<string, Code>> = {
  'invalid-unknown-schema-version': 'unsupported-schema-version',
  'invalid-missing-urn': 'missing-field',
};

/** Valid cases that must still carry a (non-error) diagnostic. */
const VALID_CASE_CODES: Readonly<Record<string, Code>> = {
  'urn-alias': 'urn-alias',
};

interface ConformanceCase {
  readonly name: string;
  readonly file: string;
  readonly valid: boolean;
  readonly expect?: { readonly urn?: string };
  readonly reason?: string;
}

function readManifest(dir: string): ConformanceCase[] {
  const path = join(dir, 'manifest.json');
  assert.ok(existsSync(path), `${ENV_VAR}=${dir} has no manifest.json`);
  const manifest: unknown = JSON.parse(readFileSync(path, 'utf8'));
  assert.ok(typeof manifest === 'object' && manifest !== null && Array.isArray((manifest as { cases?: unknown }).cases), 'manifest.json has no "cases" array');
  const cases = (manifest as { cases: unknown[] }).cases;
  assert.ok(cases.length > 0, 'manifest.json lists no cases');
  return cases.map((raw, index) => {
    const entry = raw as Partial<ConformanceCase>;
    assert.ok(typeof entry.name === 'string' && typeof entry.file === 'string' && typeof entry.valid === 'boolean', `case #${index} needs a string name, a string file and a boolean valid`);
    return entry as ConformanceCase;
  });
}

function summary(diagnostics: readonly CoreDiagnostic[]): string {
  return diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`).join('\n  ') || 'no diagnostics';
}

const configured = process.env[ENV_VAR];

if (!configured) {
  test('conformance corpus', (t) => {
    const message = `${ENV_VAR} is not set: conformance corpus not run`;
    console.log(`SKIPPED: ${message} (set it to the conformance suite folder to run it)`);
    t.skip(message);
  });
} else {
  const dir = isAbsolute(configured) ? configured : resolve(configured);
  const cases = readManifest(dir);

  test('every invalid case of the corpus has an expected code in the table', () => {
    const unknown = cases.filter((c) => !c.valid && !(c.name in INVALID_CASE_CODES)).map((c) => `${c.name} (${c.reason ?? 'no reason given'})`);
    assert.deepEqual(unknown, [], `new invalid conformance case(s): add them to INVALID_CASE_CODES with the code that must report them:\n${unknown.join('\n')}`);
    const stale = [...Object.keys(INVALID_CASE_CODES), ...Object.keys(VALID_CASE_CODES)].filter((name) => !cases.some((c) => c.name === name));
    if (stale.length > 0) console.log(`note: table entries with no case in the corpus: ${stale.join(', ')}`);
  });

  for (const entry of cases) {
    test(`${entry.valid ? 'valid' : 'invalid'}: ${entry.name}`, () => {
      const path = join(dir, entry.file);
      assert.ok(existsSync(path), `case ${entry.name}: ${entry.file} does not exist`);
      const doc = parseJson(readFileSync(path).toString('utf8'));
      const diagnostics = analyze(doc);
      const errors = diagnostics.filter((d) => d.severity === 'error');

      if (entry.valid) {
        assert.deepEqual(errors.map((d) => `${d.code}: ${d.message}`), [], `valid case ${entry.name} must lint without errors`);
        const expectedCode = VALID_CASE_CODES[entry.name];
        if (expectedCode) assert.ok(diagnostics.some((d) => d.code === expectedCode), `case ${entry.name} must report ${expectedCode}; got\n  ${summary(diagnostics)}`);
        if (entry.expect?.urn !== undefined) {
          // The linter must route on the same URN as the SDKs (job, else the urn alias).
          const root = asObject(doc.root);
          const resolved = resolveUrn(getProperty(root, 'job'), getProperty(root, 'urn'));
          assert.equal(resolved?.node.value, entry.expect.urn, `case ${entry.name}: the linter resolves a different URN`);
        }
        return;
      }

      const expectedCode = INVALID_CASE_CODES[entry.name];
      assert.ok(expectedCode, `invalid case ${entry.name} is not in INVALID_CASE_CODES`);
      assert.ok(errors.length > 0, `invalid case ${entry.name} (${entry.reason ?? ''}) must yield an error; got\n  ${summary(diagnostics)}`);
      assert.ok(errors.some((d) => d.code === expectedCode), `invalid case ${entry.name} must yield the error ${expectedCode}; got\n  ${summary(diagnostics)}`);
    });
  }
}
