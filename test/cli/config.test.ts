/**
 * `babelq lint --config`: the VS Code settings shapes, normalised by core, and every settings
 * problem as a usage error (exit 2) rather than a silently ignored setting.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertCliBuilt, babelq, envelope, FORBIDDEN_TIMESTAMP, lintJson, makeTree, removeTree, writeTree } from './helpers';

let root: string;

const config = (name: string, value: unknown): string => {
  writeTree(root, { [name]: JSON.stringify(value) });
  return name;
};

before(() => {
  assertCliBuilt();
  root = makeTree({
    'forbidden.babel.json': FORBIDDEN_TIMESTAMP,
    'money.babel.json': envelope({ data: '{ "weird_money": 1.5 }' }),
  });
});

after(() => removeTree(root));

describe('severity overrides', () => {
  test('without a config, forbidden-key is an error', () => {
    const { result, reports } = lintJson(['forbidden.babel.json'], root);
    assert.equal(result.status, 1);
    assert.deepEqual(
      reports[0].diagnostics.map((d) => [d.code, d.severity]),
      [['forbidden-key', 'error']],
    );
  });

  test('"off" removes the diagnostic and the failure', () => {
    const file = config('off.json', { 'babelqueue.diagnostics.severity': { 'forbidden-key': 'off' } });
    const { result, reports } = lintJson(['--config', file, 'forbidden.babel.json'], root);
    assert.equal(result.status, 0);
    assert.deepEqual(reports[0].diagnostics, []);
  });

  // The same override in each accepted shape: flat dotted keys, a nested section, the section itself.
  for (const [shape, value] of [
    ['flat dotted keys', { 'babelqueue.diagnostics.severity': { 'forbidden-key': 'warning' } }],
    ['a nested "babelqueue" object', { babelqueue: { diagnostics: { severity: { 'forbidden-key': 'warning' } } } }],
    ['the section itself', { diagnostics: { severity: { 'forbidden-key': 'warning' } } }],
    ['a VS Code settings.json with other extensions', { 'editor.tabSize': 2, 'babelqueue.diagnostics.severity': { 'forbidden-key': 'warning' } }],
  ] as const) {
    test(`"warning" changes the severity (${shape})`, () => {
      const file = config(`warning-${shape.replace(/\W+/g, '-')}.json`, value);
      const { result, reports } = lintJson(['--config', file, 'forbidden.babel.json'], root);
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(
        reports[0].diagnostics.map((d) => [d.code, d.severity]),
        [['forbidden-key', 'warning']],
      );
      assert.equal(babelq(['lint', '--config', file, '--max-warnings', '0', 'forbidden.babel.json'], root).status, 1);
    });
  }

  test('a code lowered below the one it carried: the carried finding is shown at its own severity, and counted', () => {
    // A malformed URN is invalid-urn (error), carrying unknown-urn (warning) where a registry is found.
    const tree = makeTree({
      'registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/created.json', owner: 'orders', status: 'active' }] }),
      'schemas/created.json': JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }),
      'malformed.babel.json': envelope().replace('"urn:babel:orders:created"', '"URN:babel:orders:created"'),
    });
    try {
      writeTree(tree, { 'lowered.json': JSON.stringify({ 'babelqueue.diagnostics.severity': { 'invalid-urn': 'hint' } }) });
      const file = 'lowered.json';
      const { result, reports } = lintJson(['--config', file, 'malformed.babel.json'], tree);
      assert.equal(result.status, 0, result.stderr);
      const onJob = reports[0].diagnostics.filter((d) => d.code === 'unknown-urn' || d.code === 'invalid-urn');
      assert.deepEqual(onJob.map((d) => [d.code, d.severity]), [['unknown-urn', 'warning']]);
      assert.deepEqual(onJob[0].related?.map((r) => r.code), ['invalid-urn']);
      // The warning counts: it is not hidden inside the hint the settings made of invalid-urn.
      assert.equal(babelq(['lint', '--config', file, '--max-warnings', '0', 'malformed.babel.json'], tree).status, 1);
    } finally {
      removeTree(tree);
    }
  });

  test('validation.enable false reports nothing', () => {
    const file = config('disabled.json', { 'babelqueue.validation.enable': false });
    const { result, reports } = lintJson(['--config', file, 'forbidden.babel.json'], root);
    assert.equal(result.status, 0);
    assert.deepEqual(reports[0].diagnostics, []);
  });

  test('money.keyPatterns replaces the built-in money keys', () => {
    assert.deepEqual(lintJson(['money.babel.json'], root).reports[0].diagnostics, []);
    const file = config('money.json', { 'babelqueue.money.keyPatterns': ['weird_money'] });
    const { reports } = lintJson(['--config', file, 'money.babel.json'], root);
    assert.deepEqual(
      reports[0].diagnostics.map((d) => d.code),
      ['float-currency'],
    );
  });
});

describe('bad configs are exit 2 with the reason', () => {
  for (const [problem, value, reason] of [
    ['an unknown code', { 'babelqueue.diagnostics.severity': { 'no-such-code': 'off' } }, /unknown diagnostic code "no-such-code"/],
    ['a bad severity', { 'babelqueue.diagnostics.severity': { 'forbidden-key': 'fatal' } }, /"forbidden-key" must be one of/],
    ['a misspelt setting', { 'babelqueue.diagnostic.severity': { 'forbidden-key': 'off' } }, /unknown setting "babelqueue\.diagnostic\.severity" \(did you mean "babelqueue\.diagnostics\.severity"\?\)/],
    // Named otherwise, lint reads no such file on its own: the message says what name it takes.
    ['babelq.json keys in a file of another name given as --config', { root: true, severity: { 'forbidden-key': 'off' }, ignore: ['x/**'] }, /unknown setting "root"[\s\S]*this holds babelq\.json's keys \(root, severity, ignore\): named babelq\.json, lint reads it on its own, from each fixture's folder upward; --config takes the editor's babelqueue\.\* settings, such as \{ "babelqueue\.diagnostics\.severity": \{ "extension-key": "off" \} \}/],
    ['a setting given twice', { 'babelqueue.validation.enable': true, babelqueue: { validation: { enable: false } } }, /babelqueue\.validation\.enable is set twice/],
    ['a wrong type', { 'babelqueue.validation.enable': 'yes' }, /babelqueue\.validation\.enable: must be true or false/],
    ['not an object', ['babelqueue.validation.enable'], /must hold a JSON object/],
  ] as const) {
    test(problem, () => {
      const file = config(`bad-${problem.replace(/\W+/g, '-')}.json`, value);
      const result = babelq(['lint', '--format', 'json', '--config', file, 'forbidden.babel.json'], root);
      assert.equal(result.status, 2);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, reason);
    });
  }

  test('a babelq.json given as --config is said to be one, which lint reads on its own', () => {
    const file = config('given/babelq.json', { root: true, ignore: ['x/**'] });
    const result = babelq(['lint', '--format', 'json', '--config', file, 'forbidden.babel.json'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /this is a babelq\.json \(its keys root, ignore\): lint reads it on its own, from each fixture's folder upward; --config takes/);
  });

  test('the registry validator: "validator", its dotted name, and --validator over both', () => {
    writeTree(root, {
      'verdicts/registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/order.json' }] }),
      'verdicts/schemas/order.json': JSON.stringify({ type: 'object', properties: { order_id: { type: 'integer', maximum: 10 } } }),
      'verdicts/order.babel.json': envelope(),
    });
    const codes = (args: string[]) => lintJson([...args, 'verdicts/order.babel.json'], root).reports[0].diagnostics.map((d) => d.code);
    // draft-07 (the default): maximum fails, bqschema ignores it.
    assert.deepEqual(codes([]), ['payload-schema', 'validator-divergence']);
    for (const file of [config('short.json', { validator: 'bqschema' }), config('dotted.json', { 'babelqueue.registry.validator': 'bqschema' })]) {
      assert.deepEqual(codes(['--config', file]), ['validator-divergence'], file);
    }
    assert.deepEqual(codes(['--config', 'short.json', '--validator', 'draft-07']), ['payload-schema', 'validator-divergence']);
    const bad = babelq(['lint', '--config', config('bad-validator.json', { validator: 'ajv' }), 'verdicts/order.babel.json'], root);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /babelqueue\.registry\.validator: must be one of "draft-07", "bqschema"/);
  });

  test('the Redis layout: laravel through --config or babelq.json adds what a Laravel retry changes; the default adds nothing', () => {
    writeTree(root, {
      'retry/order.babel.json': envelope({ data: '{ "order_id": 1042, "ref": 123456789012345, "tags": [] }' }),
      'retry-project/babelq.json': JSON.stringify({ redisLayout: 'laravel' }),
      'retry-project/order.babel.json': envelope({ data: '{ "order_id": 1042, "ref": 123456789012345, "tags": [] }' }),
    });
    const retries = (args: string[], file: string) =>
      lintJson([...args, file], root)
        .reports[0].diagnostics.filter((d) => d.code === 'encoding-divergence' && /Laravel retry/.test(d.message))
        .map((d) => [d.severity, d.message.slice(0, d.message.indexOf(':'))]);
    const expected = [
      ['warning', '123456789012345'],
      ['information', '[]'],
    ];
    assert.deepEqual(retries([], 'retry/order.babel.json'), []);
    assert.deepEqual(retries(['--config', config('laravel.json', { 'babelqueue.redis.layout': 'laravel' })], 'retry/order.babel.json'), expected);
    assert.deepEqual(retries(['--config', config('laravel-nested.json', { redis: { layout: 'laravel' } })], 'retry/order.babel.json'), expected);
    assert.deepEqual(retries([], 'retry-project/order.babel.json'), expected);
    // --config is applied over babelq.json, as the editor's settings are.
    assert.deepEqual(retries(['--config', config('default-layout.json', { 'babelqueue.redis.layout': 'babelqueue' })], 'retry-project/order.babel.json'), []);
    const bad = babelq(['lint', '--config', config('bad-layout.json', { 'babelqueue.redis.layout': 'bull' }), 'retry/order.babel.json'], root);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /babelqueue\.redis\.layout: must be one of "babelqueue", "laravel"/);
  });

  test('invalid JSON, with line and column', () => {
    writeTree(root, { 'broken.json': '{\n  "babelqueue.validation.enable" true\n}\n' });
    const result = babelq(['lint', '--config', 'broken.json', 'forbidden.babel.json'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /broken\.json' is not valid JSON: 2:3: Expected ':' after the property name/);
  });

  test('a VS Code settings.json as VS Code writes it, with comments and trailing commas, applies; positions stay those of the file', () => {
    writeTree(root, {
      'vscode-settings.json': [
        '// User settings',
        '{',
        '  /* severity of the contract\'s',
        '     forbidden keys */',
        '  "babelqueue.diagnostics.severity": { "forbidden-key": "off", }, // "off": legacy fixtures',
        '  "editor.rulers": [100, 120,],',
        '  "files.exclude": { "**/*.tmp": true, "//not-a-comment": true },',
        '}',
      ].join('\n'),
    });
    const { result, reports } = lintJson(['--config', 'vscode-settings.json', 'forbidden.babel.json'], root);
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(reports[0].diagnostics, []);
    // A problem after a comment of two lines is named at its line and column in the file as written.
    writeTree(root, { 'later.json': '{\n  /* one\n     two */ "babelqueue.diagnostics.severity": { "forbidden-key": "of" },\n}\n' });
    const later = babelq(['lint', '--config', 'later.json', 'forbidden.babel.json'], root);
    assert.equal(later.status, 2);
    assert.match(later.stderr, /later\.json': babelqueue\.diagnostics\.severity/);
    writeTree(root, { 'twice-after-comment.json': '{\n  // a\n  "babelqueue.diagnostics.severity": {},\n  /* b */ "babelqueue.diagnostics.severity": {},\n}\n' });
    const twice = babelq(['lint', '--config', 'twice-after-comment.json', 'forbidden.babel.json'], root);
    assert.equal(twice.status, 2);
    assert.match(twice.stderr, /twice-after-comment\.json': 4:11: "babelqueue\.diagnostics\.severity" is set twice/);
  });

  test('a settings.json that is empty or holds only comments sets nothing, as VS Code reads it; a config with only whitespace too', () => {
    writeTree(root, {
      'commented-out.json': '// Place your settings in this file\n/* "babelqueue.diagnostics.severity": { "forbidden-key": "off" } */\n',
      'empty-settings.json': '',
      'blank-settings.json': '\ufeff \r\n',
    });
    for (const file of ['commented-out.json', 'empty-settings.json', 'blank-settings.json']) {
      const { result, reports } = lintJson(['--config', file, 'forbidden.babel.json'], root);
      assert.equal(result.status, 1, `${file}: ${result.stderr}`);
      assert.equal(result.stderr, '', file);
      assert.deepEqual(reports[0].diagnostics.map((d) => [d.code, d.severity]), [['forbidden-key', 'error']], file);
    }
  });

  test('an unclosed block comment is an error where it starts, not a setting read past it', () => {
    writeTree(root, { 'unclosed.json': '{\n  "babelqueue.diagnostics.severity": { "forbidden-key": "off" } /* no end\n}\n' });
    const result = babelq(['lint', '--config', 'unclosed.json', 'forbidden.babel.json'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unclosed\.json' is not valid JSON: 2:65: this \/\* comment is never closed/);
  });

  test('a setting written twice is refused with its line and column, never dropped in silence; another extension\'s duplicate is not looked at', () => {
    writeTree(root, { 'twice.json': '{\n  "babelqueue.diagnostics.severity": { "forbidden-key": "off" },\n  "babelqueue.diagnostics.severity": {}\n}\n' });
    const result = babelq(['lint', '--config', 'twice.json', 'forbidden.babel.json'], root);
    assert.equal(result.status, 2, result.stdout);
    assert.match(result.stderr, /config file 'twice\.json': 3:3: "babelqueue\.diagnostics\.severity" is set twice/);
    writeTree(root, { 'nested.json': '{ "diagnostics": { "severity": { "forbidden-key": "off", "forbidden-key": "error" } } }' });
    const nested = babelq(['lint', '--config', 'nested.json', 'forbidden.babel.json'], root);
    assert.equal(nested.status, 2, nested.stdout);
    assert.match(nested.stderr, /config file 'nested\.json': 1:58: "forbidden-key" is set twice/);
    writeTree(root, { 'others.json': '{ "editor.tabSize": 2, "editor.tabSize": 4, "babelqueue.diagnostics.severity": { "forbidden-key": "off" } }' });
    const others = babelq(['lint', '--config', 'others.json', 'forbidden.babel.json'], root);
    assert.equal(others.status, 0, others.stderr);
  });

  test('a config file that does not exist', () => {
    const result = babelq(['lint', '--config', 'nowhere.json', 'forbidden.babel.json'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /cannot read config file 'nowhere\.json': no such file or directory/);
  });

  test('--config without a file name', () => {
    const result = babelq(['lint', 'forbidden.babel.json', '--config'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /'--config' needs a value/);
  });
});
