/**
 * registry.json read as bqschema reads it: Go's encoding/json fills the entry's fields from keys
 * matched case-insensitively (`URN`, `Owner`, `ſchema`), the last key for a field wins, a null
 * leaves the field as it was, and a value of another type anywhere refuses the whole registry.
 * Each row was run through go1.19's encoding/json into bqschema's entry shape.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { looksLikeRegistry, MAX_REGISTRY_PROBLEMS, readRegistryIndex } from '../../../core/registry/registry-file';

function read(text: string) {
  const index = readRegistryIndex(text);
  assert.ok(index.ok, `${text} is read`);
  return {
    entries: index.entries.map((entry) => ({ urn: entry.urn, schema: entry.schemaRef, ...(entry.owner !== undefined ? { owner: entry.owner } : {}), ...(entry.status !== undefined ? { status: entry.status } : {}) })),
    problems: index.problems.map((problem) => ({ at: text.slice(problem.offset, problem.end), message: problem.message })),
  };
}

const U = 'urn:babel:orders:created';

describe('registry.json keys as encoding/json matches them', () => {
  test('upper- and mixed-case field names fill the fields (Go accepts {"URN","Schema"})', () => {
    assert.deepEqual(read(`{"schemas":[{"URN":"${U}","Schema":"s.json"}]}`), { entries: [{ urn: U, schema: 's.json' }], problems: [] });
    assert.deepEqual(read(`{"Schemas":[{"uRn":"${U}","SCHEMA":"s.json","STATUS":"active","OWNER":"team"}]}`).entries, [{ urn: U, schema: 's.json', owner: 'team', status: 'active' }]);
    assert.deepEqual(read(`{"SCHEMAS":[{"urn":"${U}","schema":"s.json"}]}`).entries, [{ urn: U, schema: 's.json' }]);
  });

  test('U+017F folds to s, as in Go ("ſchema" fills schema)', () => {
    assert.deepEqual(read(`{"schemas":[{"urn":"${U}","\u017fchema":"s.json"}]}`).entries, [{ urn: U, schema: 's.json' }]);
  });

  test('a mistyped value under a case variant refuses the registry: {"Owner":5} and {"Status":true}', () => {
    const owner = read(`{"schemas":[{"urn":"${U}","schema":"s.json","Owner":5}]}`);
    assert.deepEqual(owner.problems.map((p) => p.at), ['5']);
    assert.match(owner.problems[0].message, /"owner" must be a string .*bqschema cannot decode a number .*refuses the whole registry/);
    assert.deepEqual(read(`{"schemas":[{"urn":"${U}","schema":"s.json","Status":true}]}`).problems.map((p) => p.at), ['true']);
  });

  test('the last key for a field wins, across spellings', () => {
    assert.deepEqual(read(`{"schemas":[{"urn":"${U}","schema":"s.json","owner":"o","OWNER":"p"}]}`).entries, [{ urn: U, schema: 's.json', owner: 'p' }]);
    assert.deepEqual(read(`{"schemas":[{"URN":"urn:babel:a:b","urn":"${U}","schema":"s.json"}]}`).entries, [{ urn: U, schema: 's.json' }]);
    // A later "SCHEMAS" array replaces the earlier one.
    assert.deepEqual(read(`{"schemas":[{"urn":"urn:babel:a:b","schema":"a.json"}],"SCHEMAS":[{"urn":"${U}","schema":"s.json"}]}`).entries, [{ urn: U, schema: 's.json' }]);
  });

  test('a null leaves the field as it was', () => {
    assert.deepEqual(read(`{"schemas":[{"urn":"${U}","schema":"s.json","owner":"o","Owner":null}]}`), { entries: [{ urn: U, schema: 's.json', owner: 'o' }], problems: [] });
  });

  test('a mistyped value refuses the registry even when a later string replaces it', () => {
    const result = read(`{"schemas":[{"urn":5,"schema":"s.json","urn":"${U}"}]}`);
    assert.deepEqual(result.entries, [{ urn: U, schema: 's.json' }]);
    assert.deepEqual(result.problems.map((p) => p.at), ['5']);
    assert.match(result.problems[0].message, /"urn" must be a string: bqschema cannot decode a number/);
  });

  test('a urn that is only null or missing still needs a non-empty string, said where it is', () => {
    const result = read(`{"schemas":[{"urn":null,"schema":"s.json"}]}`);
    assert.deepEqual(result.problems.map((p) => p.at), ['null']);
    assert.match(result.problems[0].message, /needs a non-empty "urn" string/);
  });

  test('a registry.json is recognised by its schemas key in any case', () => {
    assert.ok(looksLikeRegistry('{"Schemas": []}'));
    assert.ok(!looksLikeRegistry('{"other": []}'));
  });
});

describe('a registry.json with more problems than are listed', () => {
  const entries = (count: number, entry: (i: number) => string) => `{"schemas":[${Array.from({ length: count }, (_, i) => entry(i)).join(',')}]}`;

  test(`URNs that break the naming rules: the first ${MAX_REGISTRY_PROBLEMS} listed, the rest counted in one problem at the first of them`, () => {
    const count = MAX_REGISTRY_PROBLEMS + 4000;
    const text = entries(count, (i) => `{"urn":"x${i}","schema":"s.json"}`);
    const index = readRegistryIndex(text);
    assert.ok(index.ok);
    assert.equal(index.entries.length, count, 'every entry is still read');
    assert.equal(index.problems.length, MAX_REGISTRY_PROBLEMS + 1);
    assert.match(index.problems[MAX_REGISTRY_PROBLEMS - 1].message, new RegExp(`The URN "x${MAX_REGISTRY_PROBLEMS - 1}" breaks the naming rules`));
    const summary = index.problems[MAX_REGISTRY_PROBLEMS];
    assert.equal(summary.message, 'registry.json has 4,000 more problems than the 1,000 listed, the first of them here; the rest are not listed (fix the ones listed, or check this is the registry you meant).');
    assert.equal(text.slice(summary.offset, summary.end), `"x${MAX_REGISTRY_PROBLEMS}"`);
    assert.equal(summary.refusesRegistry, undefined, 'naming problems do not refuse the registry');
  });

  test('an unlisted problem that refuses the registry (a duplicate URN) makes the summary refuse it', () => {
    const text = entries(MAX_REGISTRY_PROBLEMS + 2, (i) => (i <= MAX_REGISTRY_PROBLEMS ? `{"urn":"x${i}","schema":"s.json"}` : '{"urn":"urn:babel:a:b","schema":"s.json"},{"urn":"urn:babel:a:b","schema":"s.json"}'));
    const index = readRegistryIndex(text);
    assert.ok(index.ok);
    assert.equal(index.problems.length, MAX_REGISTRY_PROBLEMS + 1);
    assert.match(index.problems[MAX_REGISTRY_PROBLEMS].message, /^registry\.json has 2 more problems than the 1,000 listed/);
    assert.equal(index.problems[MAX_REGISTRY_PROBLEMS].refusesRegistry, true);
  });

  test('a registry file of another name is named by that name in the messages about it: not JSON, not the shape, the summary, an entry without a schema', () => {
    assert.match(readRegistryIndex('{"schemas": [', 'sub.json').problems[0].message, /^sub\.json is not valid JSON: /);
    const shape = readRegistryIndex('{"schemas": {}}', 'sub.json');
    assert.ok(!shape.ok);
    assert.match(shape.error, /^sub\.json must be an object with a "schemas" array/);
    const many = readRegistryIndex(entries(MAX_REGISTRY_PROBLEMS + 2, (i) => `{"urn":"x${i}","schema":"s.json"}`), 'sub.json');
    assert.match(many.problems[MAX_REGISTRY_PROBLEMS].message, /^sub\.json has 2 more problems than the 1,000 listed/);
    assert.match(readRegistryIndex('{"schemas": [{"urn": "urn:babel:a:b"}]}', 'sub.json').problems[0].message, /relative to sub\.json\)/);
    // Without a name, the format's.
    assert.match(readRegistryIndex('{"schemas": [').problems[0].message, /^registry\.json is not valid JSON: /);
  });

  test(`exactly ${MAX_REGISTRY_PROBLEMS} problems: all listed, no summary`, () => {
    const index = readRegistryIndex(entries(MAX_REGISTRY_PROBLEMS, (i) => `{"urn":"x${i}","schema":"s.json"}`));
    assert.ok(index.ok);
    assert.equal(index.problems.length, MAX_REGISTRY_PROBLEMS);
    assert.ok(index.problems.every((problem) => problem.message.includes('breaks the naming rules')));
  });
});
