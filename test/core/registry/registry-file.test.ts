/**
 * registry.json read as bqschema reads it: Go's encoding/json fills the entry's fields from keys
 * matched case-insensitively (`URN`, `Owner`, `ſchema`), the last key for a field wins, a null
 * leaves the field as it was, and a value of another type anywhere refuses the whole registry.
 * Each row was run through go1.19's encoding/json into bqschema's entry shape.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { looksLikeRegistry, readRegistryIndex } from '../../../core/registry/registry-file';

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
