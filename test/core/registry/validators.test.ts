/**
 * The models of BabelQueue's payload validators against the measured tables (keyword × validator,
 * how minLength counts, integer recognition, enum/const equality, reporting, quirks), and the
 * payload verdicts: under the bqschema setting payload-schema is bqschema's verdict, and by default
 * a validator-divergence naming bqschema sits wherever draft-07's verdict differs from it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseJson } from '../../../core/parse/parser';
import type { ValueNode } from '../../../core/model/tree';
import { VALIDATORS, validatorModel, type ValidatorId } from '../../../core/registry/validators/models';
import { ownReport, runSubset } from '../../../core/registry/validators/subset-walk';
import { analyze } from '../../../core/rules/analyze';
import { fileDiagnostics } from '../../../core/rules/file-diagnostics';
import { DEFAULT_SETTINGS, type Settings } from '../../../core/rules/settings/settings';
import { loadRegistry } from '../../../workspace/registry-loader';

const IDS: readonly ValidatorId[] = ['bqschema', 'php', 'python', 'node', 'java'];

function tree(text: string): ValueNode {
  const doc = parseJson(text);
  assert.deepEqual(doc.syntaxProblems, [], `valid JSON: ${text}`);
  return doc.root!;
}

/** Each validator's verdict: true = accepts. */
function verdicts(schema: string, data: string): Record<ValidatorId, boolean> {
  const out = {} as Record<ValidatorId, boolean>;
  for (const model of VALIDATORS) out[model.id] = runSubset(model, tree(schema), tree(data)).violations.length === 0;
  return out;
}

const ALL = (accepted: boolean): Record<ValidatorId, boolean> => ({ bqschema: accepted, php: accepted, python: accepted, node: accepted, java: accepted });

/** Keyword × validator (facts §1.2), the PHP envelope column aside (it takes no custom schema). */
const KEYWORD_ROWS: readonly { name: string; schema: string; data: string; accepted: Record<ValidatorId, boolean> }[] = [
  { name: 'type string', schema: '{"type":"string"}', data: '1', accepted: ALL(false) },
  { name: 'type array is ignored', schema: '{"type":["string","null"]}', data: '1', accepted: ALL(true) },
  { name: 'an unknown type name is ignored', schema: '{"type":"int"}', data: '"x"', accepted: ALL(true) },
  { name: 'required without type object', schema: '{"required":["a"]}', data: '{}', accepted: ALL(true) },
  { name: 'properties without type object', schema: '{"properties":{"a":{"type":"string"}}}', data: '{"a":1}', accepted: ALL(true) },
  { name: 'required with type object', schema: '{"type":"object","required":["a"]}', data: '{}', accepted: ALL(false) },
  { name: 'additionalProperties false', schema: '{"type":"object","additionalProperties":false}', data: '{"z":1}', accepted: ALL(false) },
  { name: 'additionalProperties as a schema is open', schema: '{"type":"object","additionalProperties":{"type":"string"}}', data: '{"z":1}', accepted: ALL(true) },
  { name: 'patternProperties beside additionalProperties false', schema: '{"type":"object","additionalProperties":false,"patternProperties":{"^x-":{}}}', data: '{"x-a":1}', accepted: ALL(false) },
  { name: 'items with type array', schema: '{"type":"array","items":{"type":"string"}}', data: '[1]', accepted: ALL(false) },
  { name: 'items without type array', schema: '{"items":{"type":"string"}}', data: '[1]', accepted: ALL(true) },
  { name: 'items as a tuple', schema: '{"type":"array","items":[{"type":"string"}]}', data: '[1]', accepted: ALL(true) },
  { name: 'enum regardless of type', schema: '{"enum":["a"]}', data: '"b"', accepted: ALL(false) },
  { name: 'const regardless of type', schema: '{"const":"a"}', data: '"b"', accepted: ALL(false) },
  { name: 'minLength with type string', schema: '{"type":"string","minLength":3}', data: '"a"', accepted: ALL(false) },
  { name: 'minLength without type string', schema: '{"minLength":3}', data: '"a"', accepted: ALL(true) },
  { name: 'minLength as a string', schema: '{"type":"string","minLength":"3"}', data: '"a"', accepted: { ...ALL(true), php: false } },
  { name: 'minLength 1.5', schema: '{"type":"string","minLength":1.5}', data: '"a"', accepted: { ...ALL(true), node: false } },
  { name: 'minimum with type integer', schema: '{"type":"integer","minimum":5}', data: '3', accepted: ALL(false) },
  { name: 'minimum without a number type', schema: '{"minimum":5}', data: '3', accepted: ALL(true) },
  { name: 'minimum as a string', schema: '{"type":"integer","minimum":"5"}', data: '3', accepted: { ...ALL(true), php: false } },
  { name: 'format', schema: '{"type":"string","format":"email"}', data: '"x"', accepted: ALL(true) },
  ...(
    [
      ['pattern', '{"type":"string","pattern":"^a$"}', '"b"'],
      ['maxLength', '{"type":"string","maxLength":1}', '"bb"'],
      ['maximum', '{"type":"integer","maximum":1}', '2'],
      ['exclusiveMinimum', '{"type":"integer","exclusiveMinimum":5}', '5'],
      ['exclusiveMaximum', '{"type":"integer","exclusiveMaximum":5}', '5'],
      ['multipleOf', '{"type":"integer","multipleOf":2}', '3'],
      ['minItems', '{"type":"array","minItems":1}', '[]'],
      ['maxItems', '{"type":"array","maxItems":0}', '[1]'],
      ['uniqueItems', '{"type":"array","uniqueItems":true}', '[1,1]'],
      ['minProperties', '{"type":"object","minProperties":1}', '{}'],
      ['dependencies', '{"type":"object","dependencies":{"a":["b"]}}', '{"a":1}'],
      ['$ref', '{"type":"object","properties":{"a":{"$ref":"#/definitions/s"}},"definitions":{"s":{"type":"string"}}}', '{"a":1}'],
      ['oneOf', '{"oneOf":[{"type":"string"}]}', '1'],
      ['anyOf', '{"anyOf":[{"type":"string"}]}', '1'],
      ['allOf', '{"allOf":[{"type":"string"}]}', '1'],
      ['not', '{"not":{"type":"integer"}}', '1'],
      ['if-then', '{"if":{"type":"integer"},"then":{"minimum":5}}', '1'],
    ] as const
  ).map(([keyword, schema, data]) => ({ name: `${keyword} is ignored`, schema, data, accepted: ALL(true) })),
  { name: 'x-gdpr-sensitive is neutral', schema: '{"type":"string","x-gdpr-sensitive":true}', data: '"a"', accepted: ALL(true) },
];

describe('validator models: keyword × validator', () => {
  for (const row of KEYWORD_ROWS) {
    test(row.name, () => assert.deepEqual(verdicts(row.schema, row.data), row.accepted));
  }
});

describe('validator models: how minLength counts (the largest minLength that passes)', () => {
  const rows: readonly [string, Record<ValidatorId, number>][] = [
    ['"éé"', { bqschema: 4, php: 2, python: 2, node: 2, java: 2 }],
    ['"😀"', { bqschema: 4, php: 1, python: 1, node: 2, java: 2 }],
    ['"e\\u0301"', { bqschema: 3, php: 2, python: 2, node: 2, java: 2 }],
  ];
  for (const [value, expected] of rows) {
    test(value, () => {
      const largest = {} as Record<ValidatorId, number>;
      for (const model of VALIDATORS) {
        largest[model.id] = 0;
        for (let n = 1; n <= 5; n++) {
          if (runSubset(model, tree(`{"type":"string","minLength":${n}}`), tree(value)).violations.length === 0) largest[model.id] = n;
        }
      }
      assert.deepEqual(largest, expected);
    });
  }
});

describe('validator models: integer recognition', () => {
  for (const value of ['1', '1.0', '1e2', '-0.0', '1e308', '9007199254740993', '18446744073709551616']) {
    test(`${value} is an integer everywhere`, () => assert.deepEqual(verdicts('{"type":"integer"}', value), ALL(true)));
  }
  for (const value of ['1.5', 'true', '"1"']) {
    test(`${value} is no integer anywhere`, () => assert.deepEqual(verdicts('{"type":"integer"}', value), ALL(false)));
  }
  test('1e400: bqschema cannot read the file, PHP counts it an integer, the others do not', () => {
    assert.deepEqual(verdicts('{"type":"integer"}', '1e400'), { bqschema: false, php: true, python: false, node: false, java: false });
    const bq = runSubset(validatorModel('bqschema'), tree('{"type":"integer"}'), tree('1e400'));
    assert.deepEqual(bq.violations.map((v) => v.keyword), ['unreadable-number']);
  });
  test('1e400 against type number: only bqschema refuses it', () => {
    assert.deepEqual(verdicts('{"type":"number"}', '1e400'), { ...ALL(true), bqschema: false });
  });
  test('minimum 9007199254740993 lets 9007199254740992 pass (float comparison)', () => {
    assert.deepEqual(verdicts('{"type":"integer","minimum":9007199254740993}', '9007199254740992'), ALL(true));
  });
});

describe('validator models: enum and const equality', () => {
  const rows: readonly [string, string, Record<ValidatorId, boolean>][] = [
    ['1', '1.0', { bqschema: true, php: false, python: false, node: true, java: false }],
    ['1.0', '1', { bqschema: true, php: false, python: false, node: true, java: false }],
    ['{"a":1,"b":2}', '{"b":2,"a":1}', { bqschema: true, php: false, python: true, node: false, java: true }],
    ['{"a":[1]}', '{"a":[1.0]}', { bqschema: true, php: false, python: true, node: true, java: false }],
    ['9007199254740993', '9007199254740992', { bqschema: true, php: false, python: false, node: true, java: false }],
    ['true', '1', ALL(false)],
    // Below the top level Python compares with untyped ==, where True == 1 (facts §1.5: the nested check is untyped).
    ['{"a":[true]}', '{"a":[1]}', { bqschema: false, php: false, python: true, node: false, java: false }],
    ['[false]', '[0.0]', { bqschema: false, php: false, python: true, node: false, java: false }],
    // JSON.stringify writes integer-like keys first, so Node sees these two orders as one text.
    ['{"b":1,"1":2}', '{"1":2,"b":1}', { bqschema: true, php: false, python: true, node: true, java: true }],
    // JSON.stringify writes Infinity as null (Go cannot read 1e400 at all).
    ['null', '1e400', { bqschema: false, php: false, python: false, node: true, java: false }],
  ];
  for (const [allowed, value, expected] of rows) {
    test(`const ${allowed} vs ${value}`, () => assert.deepEqual(verdicts(`{"const":${allowed}}`, value), expected));
    test(`enum [${allowed}] vs ${value}`, () => assert.deepEqual(verdicts(`{"enum":[${allowed}]}`, value), expected));
  }
});

describe('validator models: reporting and quirks', () => {
  const multi = '{"type":"object","required":["r"],"additionalProperties":false,"properties":{"a":{"type":"integer"},"b":{"type":"string","minLength":3},"r":{}}}';
  test('multi-violation: bqschema lists every violation sorted, the SDKs stop at the first', () => {
    const data = tree('{"b":"x","a":"y","z":1}');
    const reports = Object.fromEntries(IDS.map((id) => [id, ownReport(validatorModel(id), runSubset(validatorModel(id), tree(multi), data))]));
    assert.deepEqual(reports, {
      bqschema: ['a: must be an integer', 'additional property "z" is not allowed', 'b: must be at least 3 characters', 'missing required property "r"'],
      php: ['r: missing_required'],
      python: ['r: missing_required'],
      node: ['r: missing_required'],
      java: ['r: missing_required'],
    });
  });
  test('the SDKs that stop early check a key\'s value through before the next key (facts §1.6: the data\'s keys in data order)', () => {
    const schema = tree('{"type":"object","additionalProperties":false,"properties":{"a":{"type":"integer"},"n":{"type":"object","properties":{"b":{"type":"integer"}}}}}');
    const firsts = (data: string) => Object.fromEntries(IDS.map((id) => [id, ownReport(validatorModel(id), runSubset(validatorModel(id), schema, tree(data)))[0]]));
    // A key that is not allowed after a wrong value: the value is reported first.
    assert.deepEqual(firsts('{"a":"x","z":1}'), { bqschema: 'a: must be an integer', php: 'a: not_an_integer', python: 'a: not_an_integer', node: 'a: not_an_integer', java: 'a: not_an_integer' });
    // ... and before it, the key is; a nested object's violation comes before a later key's.
    assert.deepEqual(firsts('{"z":1,"a":"x"}'), { bqschema: 'a: must be an integer', php: 'z: additional_not_allowed', python: 'z: additional_not_allowed', node: 'z: additional_not_allowed', java: 'z: additional_not_allowed' });
    assert.deepEqual(firsts('{"n":{"b":"x"},"a":"y"}').php, 'n.b: not_an_integer');
  });
  test('integer-like keys come first in Node', () => {
    const schema = tree('{"type":"object","properties":{"b":{"type":"integer"},"10":{"type":"integer"}}}');
    const data = tree('{"b":"x","10":"y"}');
    const first = Object.fromEntries(['php', 'python', 'node', 'java'].map((id) => [id, ownReport(validatorModel(id as ValidatorId), runSubset(validatorModel(id as ValidatorId), schema, data))[0]]));
    assert.deepEqual(first, { php: 'b: not_an_integer', python: 'b: not_an_integer', node: '10: not_an_integer', java: 'b: not_an_integer' });
  });
  test('Node finds prototype keys: required "toString" on {} and a "__proto__" key under additionalProperties false pass', () => {
    assert.deepEqual(verdicts('{"type":"object","required":["toString"]}', '{}'), { ...ALL(false), node: true });
    assert.deepEqual(verdicts('{"type":"object","additionalProperties":false}', '{"__proto__":1}'), { ...ALL(false), node: true });
  });
  test('PHP decodes an empty {} and [] alike', () => {
    assert.deepEqual(verdicts('{"type":"object"}', '[]'), { ...ALL(false), php: true });
    assert.deepEqual(verdicts('{"type":"array"}', '{}'), { ...ALL(false), php: true });
  });
  test('a duplicate key is validated on its last copy everywhere', () => {
    assert.deepEqual(verdicts('{"type":"object","properties":{"a":{"type":"integer"}}}', '{"a":"s","a":1}'), ALL(true));
  });
  test('bqschema prints a const the way Go formats it', () => {
    const bq = validatorModel('bqschema');
    assert.deepEqual(ownReport(bq, runSubset(bq, tree('{"type":"object","properties":{"m":{"const":{"b":1,"a":"x"}},"n":{"type":"integer","minimum":1000000}}}'), tree('{"m":1,"n":5}'))), [
      'm: must equal const map[a:x b:1]',
      'n: must be >= 1e+06',
    ]);
  });
});

/**
 * Envelopes built from the rows above (the facts' measured rows that apply to a payload), each
 * with bqschema's verdict written out by hand from the facts (`bq`: true = bqschema accepts):
 * under the bqschema setting payload-schema is exactly that verdict; by default a
 * validator-divergence names bqschema wherever draft-07 decides otherwise, and none names it
 * where they agree. The rows whose schema bqschema reads but draft-07 refuses (`"minLength": "3"`,
 * `1.5`, `"minimum": "5"`, `"type": "int"`, an unresolvable `$ref`) get bqschema's verdict under the
 * bqschema setting with no registry-error, and keep the registry-error by default, beside the
 * divergences of the SDKs that read them otherwise.
 */
describe('payload verdicts: draft-07 and bqschema over the table', () => {
  interface Case {
    readonly schema: string;
    readonly data: string;
    /** bqschema's verdict, from the facts (not from the model). */
    readonly bq: boolean;
    /** False where draft-07 refuses the schema itself. */
    readonly draft07?: boolean;
    /** Where bqschema and draft-07 aside the SDKs decide otherwise: which of them, by hand from the facts. */
    readonly sdks?: string;
  }
  const objectRows = KEYWORD_ROWS.filter((row) => row.schema.startsWith('{"type":"object"') || row.schema.startsWith('{"required"') || row.schema.startsWith('{"properties"'));
  const wrapped = KEYWORD_ROWS.filter((row) => !/"minLength":("3"|1\.5)|"minimum":"5"|"int"|"\$ref"/.test(row.schema));
  const wrap = (schema: string, data: string) => ({ schema: `{"type":"object","properties":{"v":${schema}}}`, data: `{"v":${data}}` });
  const cases: Case[] = [
    // KEYWORD_ROWS' `accepted.bqschema` is the facts' bqschema column, written by hand above.
    ...objectRows.map((row) => ({ schema: row.schema, data: row.data, bq: row.accepted.bqschema })),
    ...wrapped.map((row) => ({ ...wrap(row.schema, row.data), bq: row.accepted.bqschema })),
    // §1.3: bqschema counts UTF-8 bytes (4, 4, 3), so minLength 2 passes all three.
    ...['"éé"', '"😀"', '"e\\u0301"'].map((value) => ({ ...wrap('{"type":"string","minLength":2}', value), bq: true })),
    // §1.4: 1.0 is an integer; 1e400 cannot be read at all; 1.5 is no integer.
    { ...wrap('{"type":"integer"}', '1.0'), bq: true },
    { ...wrap('{"type":"integer"}', '1e400'), bq: false },
    { ...wrap('{"type":"integer"}', '1.5'), bq: false },
    // §1.5: reflect.DeepEqual on float64 and maps: 1.0 equals 1, key order does not matter.
    { ...wrap('{"enum":[1,{"a":1,"b":2}]}', '1.0'), bq: true },
    { ...wrap('{"enum":[1,{"a":1,"b":2}]}', '{"b":2,"a":1}'), bq: true },
    // §1.2, the rows draft-07 refuses: bqschema ignores "3", "5" and "int", truncates 1.5 to 1 ("a" is 1 byte); PHP honours "3" and "5", Node compares 1.5.
    { ...wrap('{"type":"string","minLength":"3"}', '"a"'), bq: true, draft07: false, sdks: 'PHP' },
    { ...wrap('{"type":"string","minLength":1.5}', '"a"'), bq: true, draft07: false, sdks: 'Node' },
    { ...wrap('{"type":"integer","minimum":"5"}', '3'), bq: true, draft07: false, sdks: 'PHP' },
    { ...wrap('{"type":"int"}', '"x"'), bq: true, draft07: false },
    // $ref ignored (no dereferencing), here one draft-07 cannot resolve.
    { ...wrap('{"type":"object","properties":{"a":{"$ref":"#/definitions/s"}},"definitions":{"s":{"type":"string"}}}', '{"a":1}'), bq: true, draft07: false },
  ].filter((c) => c.data.startsWith('{'));
  const root = mkdtempSync(join(tmpdir(), 'babelq-verdicts-'));
  const envelopes = cases.map((c, i) => {
    mkdirSync(join(root, 'schemas'), { recursive: true });
    writeFileSync(join(root, 'schemas', `s${i}.json`), c.schema);
    return { ...c, urn: `urn:babel:verdicts:case-${i}` };
  });
  writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: envelopes.map((e, i) => ({ urn: e.urn, schema: `schemas/s${i}.json` })) }));
  const state = loadRegistry(join(root, 'registry.json'), root).state;
  rmSync(root, { recursive: true, force: true });
  const bqschemaSettings: Settings = { ...DEFAULT_SETTINGS, registryValidator: 'bqschema' };

  test('all 57 envelopes are built and the registry loads', () => {
    assert.equal(state.kind, 'loaded');
    assert.equal(envelopes.length, 57);
    assert.equal(envelopes.filter((e) => e.draft07 === false).length, 5);
  });
  for (const envelope of envelopes) {
    test(`${envelope.schema} with ${envelope.data}`, () => {
      const text = `{"job":"${envelope.urn}","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":${envelope.data},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"q","lang":"go","schema_version":1,"created_at":1749132727000},"attempts":0}`;
      const underBqschema = analyze(parseJson(text), bqschemaSettings, state);
      assert.equal(!underBqschema.some((d) => d.code === 'payload-schema'), envelope.bq, "payload-schema under bqschema is bqschema's verdict");
      assert.ok(!underBqschema.some((d) => d.code === 'registry-error'), 'bqschema reads the schema: no registry-error under its verdict');
      assert.ok(!underBqschema.some((d) => d.code === 'validator-divergence' && /bqschema \(CI\)[^.]* (accept|reject)s? it[:;.]/.test(d.message.split('. payload-schema')[0])), 'bqschema is never the divergence from its own verdict');
      const byDefault = analyze(parseJson(text), DEFAULT_SETTINGS, state);
      const divergences = byDefault.filter((d) => d.code === 'validator-divergence');
      const namesBqschema = divergences.some((d) => d.message.split('. payload-schema')[0].includes('bqschema (CI)'));
      if (envelope.draft07 === false) {
        // draft-07 refuses the schema: the registry-error stays, and the SDKs that read it otherwise than bqschema are named.
        assert.ok(byDefault.some((d) => d.code === 'registry-error'), 'the draft-07 problem stays an error');
        assert.ok(!byDefault.some((d) => d.code === 'payload-schema'));
        const named = divergences.map((d) => d.message.split('. payload-schema')[0]).join(' | ');
        if (envelope.sdks) assert.match(named, new RegExp(`the ${envelope.sdks} SDK rejects it`), JSON.stringify(divergences.map((d) => d.message)));
        else assert.deepEqual(divergences, []);
        for (const divergence of divergences) assert.match(divergence.message, /payload-schema cannot judge it by draft-07 \(the schema is not valid draft-07\); bqschema \(CI\) and the Go SDK accept it\./);
        return;
      }
      assert.ok(!byDefault.some((d) => d.code === 'registry-error'));
      const draftAccepts = !byDefault.some((d) => d.code === 'payload-schema');
      if (draftAccepts !== envelope.bq) assert.ok(namesBqschema, `a validator-divergence names bqschema: ${JSON.stringify(divergences.map((d) => d.message))}`);
      else assert.ok(!namesBqschema, `no divergence names bqschema where it agrees with draft-07: ${JSON.stringify(divergences.map((d) => d.message))}`);
    });
  }
});

describe('a schema only draft-07 refuses, under the bqschema setting: said once, where it is', () => {
  const root = mkdtempSync(join(tmpdir(), 'babelq-draft07-only-'));
  mkdirSync(join(root, 'schemas'));
  const schemaText = '{\n  "type": "object",\n  "required": ["v"],\n  "properties": { "v": { "type": "string", "minLength": "3" }, "n": { "$ref": "#/definitions/none" } }\n}\n';
  writeFileSync(join(root, 'schemas', 'p.json'), schemaText);
  writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: [{ urn: 'urn:babel:t:p', schema: 'schemas/p.json' }] }));
  const state = loadRegistry(join(root, 'registry.json'), root).state;
  rmSync(root, { recursive: true, force: true });
  const bqschemaSettings: Settings = { ...DEFAULT_SETTINGS, registryValidator: 'bqschema' };
  const schemaDoc = parseJson(schemaText);

  test('registry.json: a registry-error by default, nothing under bqschema (bqschema check accepts the registry)', () => {
    assert.deepEqual(fileDiagnostics('registryFile', state, DEFAULT_SETTINGS).map((d) => d.code), ['registry-error']);
    assert.deepEqual(fileDiagnostics('registryFile', state, bqschemaSettings), []);
  });

  test('the schema file: the draft-07 problem on the keyword under bqschema, beside the misread "3" (both modes)', () => {
    const byDefault = fileDiagnostics('schemaFile', schemaDoc, DEFAULT_SETTINGS).filter((d) => d.code === 'misread-keyword');
    const underBqschema = fileDiagnostics('schemaFile', schemaDoc, bqschemaSettings).filter((d) => d.code === 'misread-keyword');
    const at = (d: { offset: number; end: number }) => schemaText.slice(d.offset, d.end);
    assert.deepEqual(byDefault.map(at), ['"3"']);
    // The meta-schema names "minLength" first, which the "3" finding already explains; the $ref draft-07 cannot resolve is the one said.
    assert.deepEqual(underBqschema.map(at), ['"3"']);
    assert.equal(underBqschema.length, 1);
    const refOnly = parseJson('{"type":"object","properties":{"n":{"$ref":"#/definitions/none"}}}');
    const ref = fileDiagnostics('schemaFile', refOnly, bqschemaSettings).filter((d) => d.code === 'misread-keyword');
    assert.deepEqual(ref.map((d) => refOnly.text.slice(d.offset, d.end)), ['"$ref"']);
    assert.match(ref[0].message, /not valid draft-07 \("\$ref" "#\/definitions\/none" .*cannot be resolved.*bqschema \(CI\) and the SDKs' payload checks read it all the same/);
    assert.deepEqual(fileDiagnostics('schemaFile', refOnly, DEFAULT_SETTINGS).filter((d) => d.code === 'misread-keyword'), []);
  });

  test('a fixture: bqschema\'s verdict under bqschema, the registry-error by default', () => {
    const text = '{"job":"urn:babel:t:p","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"v":"a","x":1},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"q","lang":"go","schema_version":1,"created_at":1749132727000},"attempts":0}';
    assert.deepEqual(analyze(parseJson(text), bqschemaSettings, state).map((d) => d.code), ['validator-divergence']);
    assert.deepEqual(analyze(parseJson(text), DEFAULT_SETTINGS, state).map((d) => d.code).sort(), ['registry-error', 'validator-divergence']);
    const missing = text.replace('"v":"a",', '');
    assert.deepEqual(analyze(parseJson(missing), bqschemaSettings, state).map((d) => d.code), ['payload-schema']);
  });
});

describe('under the bqschema setting, a key only patternProperties allows', () => {
  test('is not listed as allowed by a pattern: the finding says bqschema ignores patternProperties', () => {
    const root = mkdtempSync(join(tmpdir(), 'babelq-pattern-'));
    mkdirSync(join(root, 'schemas'));
    writeFileSync(join(root, 'schemas', 'p.json'), '{"type":"object","additionalProperties":false,"properties":{"sku":{"type":"string"}},"patternProperties":{"^x-":{}}}');
    writeFileSync(join(root, 'registry.json'), JSON.stringify({ schemas: [{ urn: 'urn:babel:t:p', schema: 'schemas/p.json' }] }));
    const state = loadRegistry(join(root, 'registry.json'), root).state;
    rmSync(root, { recursive: true, force: true });
    const text = '{"job":"urn:babel:t:p","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"sku":"a","x-a":1},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"q","lang":"go","schema_version":1,"created_at":1749132727000},"attempts":0}';
    const [finding] = analyze(parseJson(text), { ...DEFAULT_SETTINGS, registryValidator: 'bqschema' }, state).filter((d) => d.code === 'payload-schema');
    assert.equal(finding.message, `"x-a" is not a field of "data"; allowed: "sku"; bqschema ignores "patternProperties", so a name matching ^x- is an additional property too (bqschema's verdict on the schema of urn:babel:t:p)`);
  });
});
