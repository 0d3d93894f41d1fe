/**
 * `babelq lint` with a registry, end to end through the built CLI: the committed registry fixture
 * workspaces (test/fixtures/registries/<case>, each its own registry.json) and temporary
 * workspaces for discovery, `--registry`, `--config` and symbolic links. Codes, severities and
 * exact ranges are asserted; expected ranges are computed from the fixture text. Messages are only
 * checked where they must name something (the closest URN, the missing field).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FileReport, OutputDiagnostic, OutputPosition } from '../../cli/diagnostics';
import { assertCliBuilt, babelq, CLI_PATH, envelope, lintJson, makeTree, removeTree, REPO_ROOT, writeTree } from './helpers';

const CASES = join(REPO_ROOT, 'test', 'fixtures', 'registries');
/** FIFOs stand in for files that must never be read: opening one without a writer blocks forever. */
const CAN_MAKE_FIFOS = process.platform !== 'win32';

interface Range {
  readonly start: OutputPosition;
  readonly end: OutputPosition;
}

interface Expected {
  readonly code: string;
  readonly severity: string;
  readonly range: Range;
}

// ---------------------------------------------------------------------------------------------
// Ranges from the text

function positionAt(text: string, offset: number): OutputPosition {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/**
 * The range of `needle` inside `context`, where `context` occurs exactly once in `text` (so the
 * needle is found where the test means it, not at an earlier occurrence). Without a context, the
 * needle itself must be unique.
 */
function at(text: string, needle: string, context: string = needle): Range {
  const first = text.indexOf(context);
  assert.ok(first >= 0, `${JSON.stringify(context)} is not in the fixture`);
  assert.equal(text.indexOf(context, first + 1), -1, `${JSON.stringify(context)} occurs more than once in the fixture`);
  const inner = context.indexOf(needle);
  assert.ok(inner >= 0, `${JSON.stringify(needle)} is not inside ${JSON.stringify(context)}`);
  const offset = first + inner;
  return { start: positionAt(text, offset), end: positionAt(text, offset + needle.length) };
}

/** The `job` value, quotes included (where unknown-urn, deprecated-urn and registry-error go). */
function jobValue(text: string): Range {
  const job = /"job": ("[^"]*")/.exec(text);
  assert.ok(job, 'the fixture has no "job"');
  return at(text, job[1], job[0]);
}

/** The `data` key, quotes included (where a field missing from data itself is reported). */
function dataKey(text: string): Range {
  return at(text, '"data"', '"data": ');
}

// ---------------------------------------------------------------------------------------------
// Running the CLI

function caseDir(name: string): string {
  return join(CASES, name);
}

function caseText(name: string, file: string): string {
  return readFileSync(join(caseDir(name), file), 'utf8');
}

/**
 * Lints a copy of a case folder, made where no folder above holds .git, with the copy as the
 * current directory (and so as the folder registries stay inside: inside the checkout, the
 * repository would be that folder).
 */
function lintCaseAlone(name: string): { status: number | null; stderr: string; reports: FileReport[] } {
  const copy = makeTree({});
  roots.push(copy);
  cpSync(caseDir(name), copy, { recursive: true });
  const { result, reports } = lintJson([], copy);
  return { status: result.status, stderr: result.stderr, reports };
}

/** Lints a fixture workspace with the case folder as the current directory (inside the checkout, the repository bounds it). */
function lintCase(name: string, args: readonly string[] = []): { status: number | null; stderr: string; reports: FileReport[] } {
  const { result, reports } = lintJson(args, caseDir(name));
  return { status: result.status, stderr: result.stderr, reports };
}

function diagnosticsOf(reports: readonly FileReport[], file: string): readonly OutputDiagnostic[] {
  const report = reports.find((r) => r.file === file);
  assert.ok(report, `no report for ${file}; reported: ${reports.map((r) => r.file).join(', ')}`);
  return report.diagnostics;
}

function shape(diagnostics: readonly OutputDiagnostic[]): Expected[] {
  return diagnostics.map((d) => ({ code: d.code, severity: d.severity, range: d.range }));
}

function expected(code: string, severity: string, range: Range): Expected {
  return { code, severity, range };
}

/** `lint --format json` with a hard deadline: a CLI that opens a FIFO blocks, and that is the failure. */
function lintWithDeadline(args: readonly string[], cwd: string, timeout: number): { status: number | null; timedOut: boolean; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_PATH, 'lint', '--format', 'json', ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '' }, timeout });
  const timedOut = (result.error as { code?: string } | undefined)?.code === 'ETIMEDOUT';
  if (result.error && !timedOut) throw result.error;
  return { status: result.status, timedOut, stdout: result.stdout, stderr: result.stderr };
}

function makeFifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

// ---------------------------------------------------------------------------------------------
// Temporary workspaces

const ORDER_SCHEMA = JSON.stringify(
  {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    required: ['order_id'],
    properties: { order_id: { type: 'integer', minimum: 1 } },
    additionalProperties: false,
  },
  null,
  2,
);

/** A bqschema registry.json text: `[urn, schema path, status?]` per entry. */
function registryText(entries: readonly (readonly [string, string, string?])[]): string {
  return JSON.stringify({ schemas: entries.map(([urn, schema, status]) => ({ urn, schema, owner: 'shop', status: status ?? 'active' })) }, null, 2);
}

/** A valid envelope (helpers.envelope) for `urn` with `data`. */
function envelopeFor(urn: string, data = '{ "order_id": 1042 }'): string {
  return envelope({ data }).replace('"urn:babel:orders:created"', JSON.stringify(urn));
}

const PLACED = 'urn:babel:shop:order.placed';
const SHIPPED = 'urn:babel:shop:order.shipped';

const roots: string[] = [];
function workspace(files: Readonly<Record<string, string>>): string {
  const root = makeTree(files);
  roots.push(root);
  return root;
}

before(() => assertCliBuilt());
after(() => {
  for (const root of roots) removeTree(root);
});

// ---------------------------------------------------------------------------------------------
// The committed fixture workspaces

describe('registry fixture "good" (discovered from the current directory)', () => {
  let run: ReturnType<typeof lintCase>;
  before(() => {
    run = lintCase('good');
  });

  test('lints every envelope of the case and fails on the payload errors', () => {
    assert.equal(run.status, 1);
    assert.equal(run.stderr, '');
    assert.deepEqual(
      run.reports.map((r) => r.file),
      // After the fixtures, the schema file with keywords BabelQueue's validators do not enforce.
      ['deprecated.babel.json', 'payload-errors.babel.json', 'pii-masked.babel.json', 'pii-unmasked.babel.json', 'unknown.babel.json', 'valid.babel.json', join('schemas', 'order-placed.json')],
    );
  });

  test('the schema files the registry reads: unenforced-keyword on each keyword no BabelQueue validator enforces, pii-unmarked on an unmarked e-mail', () => {
    const text = caseText('good', join('schemas', 'order-placed.json'));
    const diagnostics = diagnosticsOf(run.reports, join('schemas', 'order-placed.json'));
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character)]),
      [
        ['pii-unmarked', 'warning', '"customer_email"'],
        ['unenforced-keyword', 'information', '"format"'],
        ['unenforced-keyword', 'information', '"pattern"'],
        ['unenforced-keyword', 'information', '"pattern"'],
        ['unenforced-keyword', 'information', '"minItems"'],
        ['unenforced-keyword', 'information', '"format"'],
      ],
    );
  });

  test('validator-divergence: where bqschema and the SDKs ignore what payload-schema reports (pattern, format)', () => {
    const text = caseText('good', 'payload-errors.babel.json');
    const divergences = diagnosticsOf(run.reports, 'payload-errors.babel.json').filter((d) => d.code === 'validator-divergence');
    assert.deepEqual(shape(divergences), [
      expected('validator-divergence', 'warning', at(text, '"buyer-at-example.com"')),
      expected('validator-divergence', 'warning', at(text, '"spring-24"')),
      expected('validator-divergence', 'warning', at(text, '"de"', '"country": "de"')),
    ]);
    assert.match(divergences[0].message, /^bqschema \(CI\) and the Go, PHP, Python, Node and Java SDKs accept it: they ignore "format"\./);
  });

  test('--validator bqschema: payload-schema follows bqschema, and draft-07 is the divergence', () => {
    const { result, reports } = lintJson(['--validator', 'bqschema'], caseDir('good'));
    assert.equal(result.status, 1);
    const text = caseText('good', 'payload-errors.babel.json');
    const diagnostics = diagnosticsOf(reports, 'payload-errors.babel.json');
    const payload = diagnostics.filter((d) => d.code === 'payload-schema');
    // The pattern and format failures are not bqschema's; they are now divergences naming draft-07.
    assert.ok(!payload.some((d) => d.range.start.line === at(text, '"spring-24"').start.line), JSON.stringify(payload));
    const coupon = diagnostics.find((d) => d.code === 'validator-divergence' && d.range.start.line === at(text, '"spring-24"').start.line);
    assert.match(coupon?.message ?? '', /^draft-07 \(ajv\) rejects it: it says "coupon" must match the pattern .*payload-schema follows bqschema \(CI\) and the Go SDK, which accept it\.$/);
    assert.ok(payload.some((d) => /bqschema's verdict/.test(d.message)));
  });

  test('--validator with an unknown verdict is a usage error', () => {
    const result = babelq(['lint', '--validator', 'json-schema'], caseDir('good'));
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--validator must be one of draft-07, bqschema/);
  });

  test('a payload that passes its schema and masked sensitive values give no diagnostics', () => {
    assert.deepEqual(diagnosticsOf(run.reports, 'valid.babel.json'), []);
    assert.deepEqual(diagnosticsOf(run.reports, 'pii-masked.babel.json'), []);
  });

  test('a deprecated URN: deprecated-urn (warning) on the job value, and nothing else', () => {
    const text = caseText('good', 'deprecated.babel.json');
    assert.deepEqual(shape(diagnosticsOf(run.reports, 'deprecated.babel.json')), [expected('deprecated-urn', 'warning', jobValue(text))]);
  });

  test('an unknown URN: unknown-urn (warning) on the job value, naming the closest registered URN first', () => {
    const text = caseText('good', 'unknown.babel.json');
    const diagnostics = diagnosticsOf(run.reports, 'unknown.babel.json');
    assert.deepEqual(shape(diagnostics), [expected('unknown-urn', 'warning', jobValue(text))]);
    const message = diagnostics[0].message;
    const closest = message.indexOf('"urn:babel:shop:order.placed"');
    assert.ok(closest >= 0, `the closest URN is not named: ${message}`);
    // One transposition away beats the other shop URN; the far-off accounts URN is no suggestion.
    const farther = message.indexOf('"urn:babel:shop:order.legacy"');
    assert.ok(farther === -1 || farther > closest, `order.placed must come first: ${message}`);
    assert.ok(!message.includes('urn:babel:accounts:user.signed-up'), message);
  });

  test('payload-schema: one error per failure, each on its value, key or object key, in text order', () => {
    const text = caseText('good', 'payload-errors.babel.json');
    // The validator-divergence findings beside them (what bqschema and the SDKs ignore) are checked in their own test.
    const diagnostics = diagnosticsOf(run.reports, 'payload-errors.babel.json').filter((d) => d.code === 'payload-schema');
    assert.deepEqual(shape(diagnostics), [
      // required: "placed_at" is missing from data itself → the "data" key.
      expected('payload-schema', 'error', dataKey(text)),
      // type: a string where an integer belongs → the value.
      expected('payload-schema', 'error', at(text, '"1042"', '"order_id": "1042"')),
      // format (email) → the value.
      expected('payload-schema', 'error', at(text, '"buyer-at-example.com"')),
      // enum → the value.
      expected('payload-schema', 'error', at(text, '"SEK"')),
      // minimum → the value.
      expected('payload-schema', 'error', at(text, '-5', '"total_cents": -5')),
      // pattern → the value.
      expected('payload-schema', 'error', at(text, '"spring-24"')),
      // additionalProperties → the extra key.
      expected('payload-schema', 'error', at(text, '"note"', '"note": "leave')),
      // nested object, required: "postal_code" is missing from shipping → the "shipping" key.
      expected('payload-schema', 'error', at(text, '"shipping"', '"shipping": {')),
      // nested object, pattern → the nested value.
      expected('payload-schema', 'error', at(text, '"de"', '"country": "de"')),
      // nested object, additionalProperties → the nested extra key.
      expected('payload-schema', 'error', at(text, '"zip"')),
      // array item, minimum → the value inside the item.
      expected('payload-schema', 'error', at(text, '0', '"quantity": 0 }')),
      // array item, required: "sku" is missing from an item (which has no key) → the item object.
      expected('payload-schema', 'error', at(text, '{ "quantity": 2 }')),
      // items, type: a string where an object belongs → the item.
      expected('payload-schema', 'error', at(text, '"MUG-350"', '"MUG-350"\n')),
    ]);
    // A missing field must be named, or the user cannot tell which one to add.
    assert.match(diagnostics[0].message, /"placed_at"/);
    assert.match(diagnostics[7].message, /"postal_code"/);
    assert.match(diagnostics[11].message, /"sku"/);
  });

  test('an unmasked x-gdpr-sensitive value: pii-in-fixture (information) on that value only', () => {
    const text = caseText('good', 'pii-unmasked.babel.json');
    // full_name is masked ("J***") in the same fixture and must not be reported.
    assert.deepEqual(shape(diagnosticsOf(run.reports, 'pii-unmasked.babel.json')), [expected('pii-in-fixture', 'information', at(text, '"jane.doe@example.com"'))]);
  });
});

describe('registry fixtures that are broken or hostile', () => {
  test('a --registry outside the current folder that is refused as a whole is named on stderr as its report names it', () => {
    const tree = makeTree({ 'outside/registry.json': '{"schemas": [', 'project/a.babel.json': envelope() });
    try {
      const { result, reports } = lintJson(['--registry', '../outside/registry.json'], join(tree, 'project'));
      assert.equal(result.status, 2);
      const shown = reports.map((report) => report.file).find((file) => file.endsWith('registry.json'))!;
      assert.equal(shown, join(tree, 'outside', 'registry.json'));
      assert.ok(result.stderr.includes(`babelq: ${shown} is refused as a whole`), result.stderr);
    } finally {
      removeTree(tree);
    }
  });

  test('a registry.json, a schema file or a --config file that is not one JSON value is not called an envelope in the message', () => {
    const entry = '{"urn": "urn:babel:orders:created", "schema": "created.json", "owner": "orders", "status": "active"}';
    const tree = makeTree({
      'two/registry.json': `{"schemas": [${entry}]}\n{}\n`,
      'two/a.babel.json': envelope(),
      'empty/registry.json': `{"schemas": [${entry}]}`,
      'empty/created.json': '',
      'empty/a.babel.json': envelope(),
      'settings.json': '{ "babelqueue.diagnostics.severity": {} }\n{}\n',
    });
    try {
      const two = lintJson(['two'], tree);
      assert.equal(two.result.status, 2);
      const refused = diagnosticsOf(two.reports, join('two', 'registry.json'))[0].message;
      assert.match(refused, /^registry\.json is not valid JSON: Unexpected text after the end of the JSON value; a JSON file holds exactly one value\.$/);
      const empty = lintJson(['empty'], tree);
      assert.equal(empty.result.status, 1);
      const unusable = diagnosticsOf(empty.reports, join('empty', 'registry.json'))[0].message;
      assert.match(unusable, /created\.json is not valid JSON: The file is empty; expected a JSON object\.$/);
      const config = babelq(['lint', '--config', 'settings.json', 'two/a.babel.json'], tree);
      assert.equal(config.status, 2);
      assert.match(config.stderr, /config file 'settings\.json' is not valid JSON: 2:1: Unexpected text after the end of the JSON value; a JSON file holds exactly one value\.$/m);
      const compat = babelq(['compat', 'empty/created.json', 'empty/created.json'], tree);
      assert.equal(compat.status, 2);
      assert.match(compat.stderr, /is not valid JSON: 1:1: The file is empty; expected a JSON object\.$/m);
      for (const text of [refused, unusable, config.stderr, compat.stderr]) assert.doesNotMatch(text, /envelope/, text);
    } finally {
      removeTree(tree);
    }
  });

  test('a registry not named registry.json (--registry sub.json) is named as given in its own messages, not "registry.json"; a registry.json keeps its name', () => {
    const entry = '{"urn": "urn:babel:orders:created", "schema": "created.json", "owner": "orders", "status": "active"}';
    const tree = makeTree({
      'sub.json': `{"schemas": [${entry}`,
      'shape.json': '{"schemas": {}}',
      'conf/registry.json': '{"schemas": [',
      'a.babel.json': envelope(),
    });
    try {
      const broken = lintJson(['--registry', 'sub.json', 'a.babel.json'], tree);
      assert.equal(broken.result.status, 2);
      assert.match(diagnosticsOf(broken.reports, 'sub.json')[0].message, /^sub\.json is not valid JSON: /);
      assert.match(diagnosticsOf(broken.reports, 'a.babel.json').find((d) => d.code === 'registry-error')!.message, /^The registry sub\.json cannot be used: sub\.json is not valid JSON: /);
      const shape = lintJson(['--registry', 'shape.json', 'a.babel.json'], tree);
      assert.match(diagnosticsOf(shape.reports, 'shape.json')[0].message, /^shape\.json must be an object with a "schemas" array .* \(bqschema format\)\.$/);
      const gdpr = babelq(['gdpr', '--registry', 'sub.json'], tree);
      assert.equal(gdpr.status, 2);
      assert.match(gdpr.stderr, /sub\.json:1:\d+: sub\.json is not valid JSON: /);
      const named = lintJson(['--registry', 'conf/registry.json', 'a.babel.json'], tree);
      assert.match(diagnosticsOf(named.reports, join('conf', 'registry.json'))[0].message, /^registry\.json is not valid JSON: /);
      for (const text of [broken.result.stdout, shape.result.stdout, gdpr.stderr]) assert.doesNotMatch(text, /registry\.json/, text);
    } finally {
      removeTree(tree);
    }
  });

  test('an unusable schema file is named from the current folder in the findings, not by the absolute checkout path: the SARIF fingerprints of a repository are the same wherever it is checked out', () => {
    const entries = [
      '{"urn": "urn:babel:orders:created", "schema": "schemas/not-json.json"}',
      '{"urn": "urn:babel:orders:cancelled", "schema": "schemas/not-draft-07.json"}',
      '{"urn": "urn:babel:orders:placed", "schema": "schemas/array.json"}',
      '{"urn": "urn:babel:orders:shipped", "schema": "schemas/folder.json"}',
    ];
    const files = {
      'registry.json': `{"schemas": [${entries.join(', ')}]}`,
      'schemas/not-json.json': '{"type":',
      'schemas/not-draft-07.json': '{"type": "object", "required": "order_id"}',
      'schemas/array.json': '[]',
      'a.babel.json': envelope(),
    };
    const first = makeTree(files);
    const second = makeTree(files);
    // A schema path that is a folder: the reader's words name it too.
    for (const root of [first, second]) mkdirSync(join(root, 'schemas/folder.json'));
    try {
      const { result, reports } = lintJson(['.'], first);
      assert.equal(result.status, 1, result.stderr);
      const messages = reports.flatMap((report) => report.diagnostics.map((diagnostic) => diagnostic.message));
      for (const name of ['not-json', 'not-draft-07', 'array', 'folder']) assert.ok(messages.some((message) => message.includes(` schemas/${name}.json `)), `schemas/${name}.json named:\n${messages.join('\n')}`);
      for (const message of messages) assert.ok(!message.includes(first), message);
      const fingerprints = (dir: string) => JSON.stringify((JSON.parse(babelq(['lint', '--format', 'sarif', '.'], dir).stdout) as { runs: { results: { partialFingerprints: unknown }[] }[] }).runs[0].results.map((r) => r.partialFingerprints));
      assert.equal(fingerprints(second), fingerprints(first));
    } finally {
      removeTree(first);
      removeTree(second);
    }
  });

  test('broken-json: registry-error (error) on the job of every envelope, registered URN or not; exit 2, as bqschema check refuses the registry', () => {
    const run = lintCase('broken-json');
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^babelq: registry\.json is refused as a whole, as bqschema's registry load refuses it \(exit 2\)$/m);
    // The envelopes first, then the registry itself with its own problem, as the editor shows it there.
    assert.deepEqual(
      run.reports.map((r) => r.file),
      ['registered.babel.json', 'unregistered.babel.json', 'registry.json'],
    );
    assert.deepEqual(run.reports[2].diagnostics.map((d) => d.code), ['registry-error']);
    for (const report of run.reports.slice(0, 2)) {
      const text = caseText('broken-json', report.file);
      assert.deepEqual(shape(report.diagnostics), [expected('registry-error', 'error', jobValue(text))], report.file);
      // Named as every other path of the output is: relative to the current folder, never this runner's absolute path.
      assert.match(report.diagnostics[0].message, /^The registry registry\.json cannot be used: registry\.json is not valid JSON: /, report.file);
    }
    const fromRoot = lintJson(['test/fixtures/registries/broken-json/registered.babel.json'], REPO_ROOT);
    assert.match(diagnosticsOf(fromRoot.reports, 'test/fixtures/registries/broken-json/registered.babel.json')[0].message, /^The registry test\/fixtures\/registries\/broken-json\/registry\.json cannot be used: /);
  });

  test('duplicate-urns: the first entry of a URN is the one used, the envelopes get no registry-error; exit 2 (bqschema refuses the registry)', () => {
    const run = lintCase('duplicate-urns');
    assert.equal(run.status, 2);
    assert.deepEqual(diagnosticsOf(run.reports, 'first-entry.babel.json'), []);
    assert.deepEqual(diagnosticsOf(run.reports, 'refunded.babel.json'), []);
    // Valid against the second entry's schema only: checked against the first one.
    const text = caseText('duplicate-urns', 'second-entry.babel.json');
    const diagnostics = diagnosticsOf(run.reports, 'second-entry.babel.json');
    assert.deepEqual(shape(diagnostics), [expected('payload-schema', 'error', dataKey(text)), expected('payload-schema', 'error', at(text, '"order_ref"'))]);
    assert.match(diagnostics[0].message, /"order_id"/);
    // The duplicate itself is reported in registry.json, so CI sees it too.
    const inRegistry = diagnosticsOf(run.reports, 'registry.json');
    assert.deepEqual(inRegistry.map((d) => d.code), ['registry-error']);
    assert.match(inRegistry[0].message, /Duplicate URN/);
  });

  test('bqschema-refusals: an owner or status that is not a string is a registry-error where bqschema check refuses the registry, and lint exits 2 as it does', () => {
    const run = lintCase('bqschema-refusals');
    assert.equal(run.status, 2);
    assert.deepEqual(diagnosticsOf(run.reports, 'refunded.babel.json'), []);
    const text = caseText('bqschema-refusals', 'registry.json');
    const inRegistry = diagnosticsOf(run.reports, 'registry.json');
    assert.deepEqual(shape(inRegistry), [expected('registry-error', 'error', at(text, '42')), expected('registry-error', 'error', at(text, 'true'))]);
    assert.match(inRegistry[0].message, /"owner" must be a string .*bqschema .*refuses the whole registry/);
    assert.match(inRegistry[1].message, /"status" must be a string/);
  });

  test('unreadable-number: a number beyond float64 in a schema file is bqschema\'s refusal of that schema (exit 1, as bqschema check), with its cause', () => {
    const run = lintCase('unreadable-number');
    assert.equal(run.status, 1);
    const text = caseText('unreadable-number', 'placed.babel.json');
    assert.deepEqual(shape(diagnosticsOf(run.reports, 'placed.babel.json')), [expected('registry-error', 'error', jobValue(text))]);
    const inRegistry = diagnosticsOf(run.reports, 'registry.json');
    assert.deepEqual(inRegistry.map((d) => d.code), ['registry-error']);
    assert.match(inRegistry[0].message, /bqschema cannot read the number 1e400 at \/properties\/order_id\/maximum .*refuses this schema/);
  });

  test('missing-schema: registry-error on the job of the envelopes of that URN; the other URN still validates', () => {
    const run = lintCase('missing-schema');
    assert.equal(run.status, 1);
    assert.deepEqual(diagnosticsOf(run.reports, 'placed.babel.json'), []);
    const text = caseText('missing-schema', 'shipped.babel.json');
    assert.deepEqual(shape(diagnosticsOf(run.reports, 'shipped.babel.json')), [expected('registry-error', 'error', jobValue(text))]);
  });

  test('invalid-schema ("type": "integr"): registry-error on the job; the other URN still validates', () => {
    const run = lintCase('invalid-schema');
    assert.equal(run.status, 1);
    assert.deepEqual(diagnosticsOf(run.reports, 'placed.babel.json'), []);
    const text = caseText('invalid-schema', 'packed.babel.json');
    assert.deepEqual(shape(diagnosticsOf(run.reports, 'packed.babel.json')), [expected('registry-error', 'error', jobValue(text))]);
  });

  test('escaping, the case folder alone (no .git above it) bounds the registry: a schema path through .. is refused', () => {
    const run = lintCaseAlone('escaping');
    assert.equal(run.status, 1);
    assert.deepEqual(diagnosticsOf(run.reports, 'placed.babel.json'), []);
    for (const file of ['leaked.babel.json', 'borrowed.babel.json']) {
      const text = caseText('escaping', file);
      assert.deepEqual(shape(diagnosticsOf(run.reports, file)), [expected('registry-error', 'error', jobValue(text))], file);
    }
  });

  test('escaping, repository root as workspace (the parity setup): ../good stays inside and is used, /etc is refused', () => {
    const files = ['borrowed.babel.json', 'leaked.babel.json', 'placed.babel.json'].map((file) => `test/fixtures/registries/escaping/${file}`);
    const { result, reports } = lintJson(files, REPO_ROOT);
    assert.equal(result.status, 1);
    assert.deepEqual(diagnosticsOf(reports, files[0]), []);
    assert.deepEqual(shape(diagnosticsOf(reports, files[1])), [expected('registry-error', 'error', jobValue(caseText('escaping', 'leaked.babel.json')))]);
    assert.deepEqual(diagnosticsOf(reports, files[2]), []);
  });

  test('not-bqschema: a registry.json without "schemas" is not a registry; no registry diagnostics, exit 0, and a note on stderr says so', () => {
    const run = lintCaseAlone('not-bqschema');
    assert.equal(run.status, 0);
    // A misspelt key would otherwise turn every registry check off without a word.
    // It lies in the current folder, where the search stops without .git: nothing above it is looked at.
    assert.equal(run.stderr, 'babelq: note: registry.json was not read as a registry: it has no "schemas" key (a BabelQueue registry is {"schemas": [...]}), and no registry.json above it was used: the search stops at the current folder (no folder at or above it holds .git), so the files below it were linted without a registry; --registry registry.json checks it as one\n');
    assert.deepEqual(
      run.reports.map((r) => [r.file, r.diagnostics.length]),
      [
        ['order.babel.json', 0],
        ['unlisted.babel.json', 0],
      ],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Discovery without --registry

describe('discovery: the nearest registry.json at or above each file, inside the current directory', () => {
  let root: string;
  before(() => {
    root = workspace({
      'registry.json': registryText([[PLACED, 'schemas/order.json']]),
      'schemas/order.json': ORDER_SCHEMA,
      'top.babel.json': envelopeFor(PLACED),
      // sub/ has its own registry, which only knows SHIPPED, with a stricter schema of its own.
      'sub/registry.json': registryText([[SHIPPED, 'shipped.json']]),
      'sub/shipped.json': ORDER_SCHEMA.replace('"minimum": 1', '"minimum": 5000'),
      'sub/placed.babel.json': envelopeFor(PLACED),
      'sub/deep/shipped.babel.json': envelopeFor(SHIPPED, '{ "order_id": 7000 }'),
      'sub/deep/too-small.babel.json': envelopeFor(SHIPPED, '{ "order_id": 1042 }'),
      // other/ holds a registry.json that is not in bqschema format: skipped, the root one applies.
      'other/registry.json': '{ "name": "not a registry" }',
      'other/bad-payload.babel.json': envelopeFor(PLACED, '{ "order_id": 0 }'),
      // nested/ has no registry of its own.
      'nested/unlisted.babel.json': envelopeFor('urn:babel:shop:order.vanished'),
    });
  });

  test('each file uses its nearest registry; registries are not merged', () => {
    const { result, reports } = lintJson([], root);
    assert.equal(result.status, 1);
    assert.deepEqual(diagnosticsOf(reports, 'top.babel.json'), []);
    assert.deepEqual(diagnosticsOf(reports, 'sub/deep/shipped.babel.json'), []);
    const placed = envelopeFor(PLACED);
    const unknown = diagnosticsOf(reports, 'sub/placed.babel.json');
    assert.deepEqual(shape(unknown), [expected('unknown-urn', 'warning', jobValue(placed))]);
    assert.match(unknown[0].message, /urn:babel:shop:order\.shipped/);
  });

  test('schemas resolve relative to the registry that lists them', () => {
    const { reports } = lintJson(['sub/deep/too-small.babel.json'], root);
    const text = envelopeFor(SHIPPED, '{ "order_id": 1042 }');
    assert.deepEqual(shape(diagnosticsOf(reports, 'sub/deep/too-small.babel.json')), [expected('payload-schema', 'error', at(text, '1042', '"order_id": 1042'))]);
  });

  test('a registry.json not in bqschema format is skipped for the next one up, with a note naming it', () => {
    const { result, reports } = lintJson(['other/bad-payload.babel.json'], root);
    assert.match(result.stderr, /^babelq: note: other\/registry\.json was not read as a registry: it has no "schemas" key/);
    // The note names the registry used in its place.
    assert.match(result.stderr, /, and was passed over for registry\.json, the next one up; --registry other\/registry\.json checks it as one\n$/);
    const text = envelopeFor(PLACED, '{ "order_id": 0 }');
    assert.deepEqual(shape(diagnosticsOf(reports, 'other/bad-payload.babel.json')), [expected('payload-schema', 'error', at(text, '0', '"order_id": 0'))]);
  });

  test('from the folder of a registry.json passed over, with no .git, the one above is outside the current folder: the note says none was used', () => {
    const { result, reports } = lintJson(['.'], join(root, 'other'));
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(diagnosticsOf(reports, 'bad-payload.babel.json'), [], 'the registry above the current folder is not used');
    assert.match(result.stderr, /^babelq: note: registry\.json was not read as a registry: it has no "schemas" key/);
    assert.match(result.stderr, /no registry\.json above it was used: the search stops at the current folder \(no folder at or above it holds \.git\), so the files below it were linted without a registry/);
    assert.doesNotMatch(result.stderr, /was used instead|passed over for/);
  });

  test('a registry.json or a schema file named among the paths is checked as what it is, not as an envelope', () => {
    for (const args of [['registry.json', 'schemas/order.json'], ['registr*.json', 'schemas/*.json'], ['sub/registry.json', 'sub/shipped.json']]) {
      const { result, reports } = lintJson(args, root);
      assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
      const named = args.some((arg) => arg.startsWith('sub/')) ? ['sub/registry.json', 'sub/shipped.json'] : ['registry.json', 'schemas/order.json'];
      assert.deepEqual(reports.map((report) => report.file).sort(), named, args.join(' '));
      for (const report of reports) assert.ok(!report.diagnostics.some((d) => d.code === 'missing-field'), `${report.file} was linted as an envelope`);
    }
    // A registry.json named as such is its own findings: a duplicate URN is bqschema's refusal (exit 2).
    const broken = workspace({ 'registry.json': registryText([[PLACED, 'order.json'], [PLACED, 'order.json']]), 'order.json': ORDER_SCHEMA, 'stray.json': '{}' });
    try {
      const { result, reports } = lintJson(['registry.json'], broken);
      assert.equal(result.status, 2, result.stderr);
      assert.deepEqual(reports.map((report) => [report.file, report.diagnostics.map((d) => d.code)]), [['registry.json', ['registry-error']]]);
      // A .json that no registry reads is linted as the envelope it was named as.
      const stray = lintJson(['stray.json'], broken).reports.find((report) => report.file === 'stray.json');
      assert.ok(stray?.diagnostics.some((d) => d.code === 'missing-field'));
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  test('a fixture that is a link to a file outside uses the registry of where it is linked, as in the editor', () => {
    // The editor finds the registry from the document's path in the workspace; the CLI does the same.
    const outside = makeTree({ 'elsewhere.babel.json': envelopeFor('urn:babel:shop:order.vanished') });
    const link = join(root, 'nested', 'linked.babel.json');
    try {
      symlinkSync(join(outside, 'elsewhere.babel.json'), link);
      const { reports } = lintJson(['nested/linked.babel.json'], root);
      const text = envelopeFor('urn:babel:shop:order.vanished');
      assert.deepEqual(shape(diagnosticsOf(reports, 'nested/linked.babel.json')), [expected('unknown-urn', 'warning', jobValue(text))]);
    } finally {
      rmSync(link, { force: true });
      removeTree(outside);
    }
  });

  test('with no .git, a registry above the current directory is outside the current folder and not used', () => {
    const text = envelopeFor('urn:babel:shop:order.vanished');
    const fromRoot = lintJson(['nested/unlisted.babel.json'], root);
    assert.deepEqual(shape(diagnosticsOf(fromRoot.reports, 'nested/unlisted.babel.json')), [expected('unknown-urn', 'warning', jobValue(text))]);
    const fromNested = lintJson(['unlisted.babel.json'], join(root, 'nested'));
    assert.equal(fromNested.result.status, 0);
    assert.deepEqual(diagnosticsOf(fromNested.reports, 'unlisted.babel.json'), []);
  });
});

// ---------------------------------------------------------------------------------------------
// --registry

describe('--registry <file>', () => {
  let root: string;
  before(() => {
    root = workspace({
      'registry.json': registryText([[PLACED, 'schemas/order.json']]),
      'schemas/order.json': ORDER_SCHEMA,
      'alt/other-registry.json': registryText([[SHIPPED, 'order.json']]),
      'alt/order.json': ORDER_SCHEMA,
      'placed.babel.json': envelopeFor(PLACED),
      'shipped.babel.json': envelopeFor(SHIPPED),
      'legacy.babel.json': envelopeFor('urn:babel:shop:order.legacy', '{ "order_id": 7, "total_cents": 1200 }'),
    });
  });

  test('without it the nearest registry applies', () => {
    const { reports } = lintJson(['placed.babel.json', 'shipped.babel.json'], root);
    assert.deepEqual(diagnosticsOf(reports, 'placed.babel.json'), []);
    assert.deepEqual(shape(diagnosticsOf(reports, 'shipped.babel.json')), [expected('unknown-urn', 'warning', jobValue(envelopeFor(SHIPPED)))]);
  });

  test('an explicit registry wins over the nearest one', () => {
    const { result, reports } = lintJson(['--registry', 'alt/other-registry.json', 'placed.babel.json', 'shipped.babel.json'], root);
    assert.equal(result.status, 0);
    assert.deepEqual(diagnosticsOf(reports, 'shipped.babel.json'), []);
    const unknown = diagnosticsOf(reports, 'placed.babel.json');
    assert.deepEqual(shape(unknown), [expected('unknown-urn', 'warning', jobValue(envelopeFor(PLACED)))]);
    assert.match(unknown[0].message, /urn:babel:shop:order\.shipped/);
  });

  test('an explicit registry outside the current directory loads its own schemas', () => {
    const { result, reports } = lintJson(['--registry', join(caseDir('good'), 'registry.json'), 'legacy.babel.json'], root);
    assert.equal(result.status, 0);
    const text = envelopeFor('urn:babel:shop:order.legacy', '{ "order_id": 7, "total_cents": 1200 }');
    assert.deepEqual(shape(diagnosticsOf(reports, 'legacy.babel.json')), [expected('deprecated-urn', 'warning', jobValue(text))]);
  });

  test('named through a link that leads outside the current directory, as named by its own path: its own schemas, no refusal', () => {
    const outside = join(caseDir('good'), 'registry.json');
    const link = join(root, 'linked-registry.json');
    symlinkSync(outside, link);
    try {
      const text = envelopeFor('urn:babel:shop:order.legacy', '{ "order_id": 7, "total_cents": 1200 }');
      for (const named of ['linked-registry.json', outside]) {
        const { result, reports } = lintJson(['--registry', named, 'legacy.babel.json'], root);
        assert.equal(result.status, 0, `${named}: ${result.stderr}`);
        assert.deepEqual(shape(diagnosticsOf(reports, 'legacy.babel.json')), [expected('deprecated-urn', 'warning', jobValue(text))], named);
      }
    } finally {
      rmSync(link);
    }
  });

  test('a missing file: exit 2, the reason on stderr, nothing on stdout', () => {
    const { status, stdout, stderr } = lintWithDeadline(['--registry', 'nowhere/registry.json', 'placed.babel.json'], root, 30_000);
    assert.equal(status, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /nowhere\/registry\.json/);
    assert.match(stderr, /does not exist/);
  });

  test('a directory: exit 2, the reason on stderr', () => {
    const { status, stdout, stderr } = lintWithDeadline(['--registry', 'alt', 'placed.babel.json'], root, 30_000);
    assert.equal(status, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /'alt'/);
  });

  test('a broken registry: exit 2 (bqschema refuses it) and registry-error on the job of every envelope', () => {
    const { result, reports } = lintJson(['--registry', join(caseDir('broken-json'), 'registry.json'), 'placed.babel.json', 'shipped.babel.json'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /registry\.json is refused as a whole/);
    assert.deepEqual(shape(diagnosticsOf(reports, 'placed.babel.json')), [expected('registry-error', 'error', jobValue(envelopeFor(PLACED)))]);
    assert.deepEqual(shape(diagnosticsOf(reports, 'shipped.babel.json')), [expected('registry-error', 'error', jobValue(envelopeFor(SHIPPED)))]);
    // Outside the current folder, a relative path would climb out with ../..: it is named by its own path.
    assert.ok(diagnosticsOf(reports, 'placed.babel.json')[0].message.startsWith(`The registry ${join(caseDir('broken-json'), 'registry.json')} cannot be used: `));
  });
});


// ---------------------------------------------------------------------------------------------
// A registry of another name, named by babelq.json or --registry

describe('a registry not named registry.json, named by babelq.json or --registry', () => {
  // One schema is missing: the registry has a finding of its own (registry-error), a name in a
  // registry.json's place shows the same one, and an envelope read of it would add missing-field.
  const REGISTRY = registryText([[PLACED, 'order.json'], [SHIPPED, 'gone.json']]);
  let named: string;
  let plain: string;
  before(() => {
    const files = { 'config/order.json': ORDER_SCHEMA, 'config/other.json': '{ "schemas": [] }', 'placed.babel.json': envelopeFor(PLACED) };
    named = workspace({ ...files, 'config/sub.json': REGISTRY, 'babelq.json': JSON.stringify({ registry: 'config/sub.json' }) });
    plain = workspace({ ...files, 'config/registry.json': REGISTRY });
  });

  /** The findings of `file` in a run's reports, as code and range. */
  const findingsOf = (reports: readonly FileReport[], file: string) => shape(diagnosticsOf(reports, file));

  test('named among the paths, it is linted as the registry it is, as a registry.json is: its own findings, not an envelope missing every field', () => {
    const asRegistryJson = lintJson(['config/registry.json'], plain);
    assert.equal(asRegistryJson.result.status, 1, asRegistryJson.result.stderr);
    const expectedFindings = findingsOf(asRegistryJson.reports, 'config/registry.json');
    assert.deepEqual(expectedFindings.map((finding) => finding.code), ['registry-error']);
    for (const [cwd, args] of [
      [named, ['config/sub.json']],
      [named, ['--registry', 'config/sub.json', 'config/sub.json']],
      [plain, ['--registry', 'config/registry.json', 'config/registry.json']],
      // A glob that matches it names it too.
      [named, ['config/sub*.json']],
    ] as const) {
      const { result, reports } = lintJson(args, cwd);
      assert.equal(result.status, 1, `${args.join(' ')}: ${result.stderr}`);
      const file = args.at(-1)!.replace('*', '');
      assert.deepEqual(reports.map((report) => report.file), [file], args.join(' '));
      assert.deepEqual(findingsOf(reports, file), expectedFindings, args.join(' '));
    }
    // Without babelq.json, --registry alone makes it the registry.
    rmSync(join(named, 'babelq.json'));
    try {
      const { reports } = lintJson(['--registry', 'config/sub.json', 'config/sub.json'], named);
      assert.deepEqual(findingsOf(reports, 'config/sub.json'), expectedFindings);
    } finally {
      writeTree(named, { 'babelq.json': JSON.stringify({ registry: 'config/sub.json' }) });
    }
  });

  test('named beside the fixtures that use it, or found by a walk through them, it is reported once, as the registry', () => {
    for (const args of [['config/sub.json', 'placed.babel.json'], ['placed.babel.json', 'config/sub.json'], ['.'], ['--registry', 'config/sub.json', '.', 'config/sub.json']]) {
      const { result, reports } = lintJson(args, named);
      assert.equal(result.status, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.deepEqual(reports.map((report) => report.file).sort(), ['config/sub.json', 'placed.babel.json'], args.join(' '));
      assert.deepEqual(findingsOf(reports, 'config/sub.json').map((finding) => finding.code), ['registry-error'], args.join(' '));
    }
  });

  test('SARIF and the other formats carry its registry findings, not an envelope\'s', () => {
    const sarif = babelq(['lint', '--format', 'sarif', 'config/sub.json'], named);
    assert.equal(sarif.status, 1, sarif.stderr);
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] }).runs[0].results;
    assert.deepEqual(results.map((result) => [result.ruleId, result.locations[0].physicalLocation.artifactLocation.uri]), [['registry-error', 'config/sub.json']]);
    const compact = babelq(['lint', '--format', 'compact', 'config/sub.json'], named);
    assert.match(compact.stdout, /^config\/sub\.json:\d+:\d+-\d+:\d+: error registry-error: /);
    assert.doesNotMatch(compact.stdout, /missing-field|encoding-divergence/);
  });

  test('a .json its project does not name as the registry is linted as the envelope it was named as, as before', () => {
    const { reports } = lintJson(['config/other.json'], named);
    assert.ok(diagnosticsOf(reports, 'config/other.json').some((d) => d.code === 'missing-field'));
  });

  test('named through a linked folder (cfg -> config), it is still the registry babelq.json or --registry names, not an envelope', () => {
    symlinkSync('config', join(named, 'cfg'));
    try {
      for (const args of [['cfg/sub.json'], ['--registry', 'config/sub.json', 'cfg/sub.json'], ['--registry', 'cfg/sub.json', 'config/sub.json']]) {
        const { result, reports } = lintJson(args, named);
        assert.equal(result.status, 1, `${args.join(' ')}: ${result.stderr}`);
        const file = args.at(-1)!;
        assert.deepEqual(findingsOf(reports, file).map((finding) => finding.code), ['registry-error'], `${args.join(' ')}: ${JSON.stringify(reports)}`);
        assert.ok(!reports.some((report) => report.diagnostics.some((d) => d.code === 'missing-field')), args.join(' '));
      }
    } finally {
      rmSync(join(named, 'cfg'));
    }
  });

  test('named by a babelq.json in another folder (a monorepo\'s package naming ../../platform/main.json), it is the registry linted from the top, by its path or through a linked folder', () => {
    const mono = workspace({
      'packages/a/babelq.json': JSON.stringify({ registry: '../../platform/main.json' }),
      'packages/a/placed.babel.json': envelopeFor(PLACED),
      'platform/main.json': REGISTRY,
      'platform/order.json': ORDER_SCHEMA,
      // Registry-shaped, named by nothing: an envelope to lint, as before.
      'platform/other.json': REGISTRY,
    });
    symlinkSync('platform', join(mono, 'common'));
    for (const args of [['platform/main.json'], ['common/main.json'], ['packages/a', 'platform/main.json'], ['platform/main.json', 'packages/a']]) {
      const { result, reports } = lintJson(args, mono);
      const file = args.find((arg) => arg.endsWith('main.json'))!;
      assert.deepEqual(findingsOf(reports, file).map((finding) => finding.code), ['registry-error'], `${args.join(' ')}: ${JSON.stringify(reports)} ${result.stderr}`);
      assert.ok(!reports.some((report) => report.diagnostics.some((d) => d.code === 'missing-field')), `${args.join(' ')}: ${JSON.stringify(reports)}`);
    }
    const { reports } = lintJson(['platform/other.json'], mono);
    assert.ok(diagnosticsOf(reports, 'platform/other.json').some((d) => d.code === 'missing-field'), JSON.stringify(reports));
  });

  test('named by a babelq.json below the current folder that points outside it, it is no registry: linted as an envelope, as the editor keeps it plain', () => {
    const top = workspace({
      'repo/packages/b/babelq.json': JSON.stringify({ registry: '../../../outside/main.json' }),
      'outside/main.json': REGISTRY,
    });
    const { reports } = lintJson(['../outside/main.json'], join(top, 'repo'));
    assert.ok(diagnosticsOf(reports, '../outside/main.json').some((d) => d.code === 'missing-field'), JSON.stringify(reports));
  });

  test('named only by a babelq.json in a folder the walk leaves out (.gitignore, .git/info/exclude, an ignore glob), it is no registry, as in the editor; --no-ignore makes it one', () => {
    const mono = workspace({
      '.gitignore': 'tmp/\n',
      'babelq.json': JSON.stringify({ ignore: ['generated'] }),
      'platform/main.json': REGISTRY,
      'platform/order.json': ORDER_SCHEMA,
    });
    execFileSync('git', ['init', '-q', mono], { stdio: 'ignore' });
    writeTree(mono, { '.git/info/exclude': 'scratch/\n' });
    for (const folder of ['tmp', 'scratch', 'generated']) {
      writeTree(mono, { [`${folder}/babelq.json`]: JSON.stringify({ registry: '../platform/main.json' }) });
      const { reports } = lintJson(['platform/main.json'], mono);
      assert.ok(diagnosticsOf(reports, 'platform/main.json').some((d) => d.code === 'missing-field'), `${folder}: ${JSON.stringify(reports)}`);
      const everything = lintJson(['--no-ignore', 'platform/main.json'], mono);
      assert.deepEqual(findingsOf(everything.reports, 'platform/main.json').map((finding) => finding.code), ['registry-error'], `${folder}: ${JSON.stringify(everything.reports)}`);
      rmSync(join(mono, folder), { recursive: true });
    }
    // Named as well by a config the walk reads, it is the registry again.
    writeTree(mono, { 'tmp/babelq.json': JSON.stringify({ registry: '../platform/main.json' }), 'packages/a/babelq.json': JSON.stringify({ registry: '../../platform/main.json' }) });
    const { reports } = lintJson(['platform/main.json'], mono);
    assert.deepEqual(findingsOf(reports, 'platform/main.json').map((finding) => finding.code), ['registry-error'], JSON.stringify(reports));
  });

  test('standard input standing for it is not checked as an envelope', () => {
    const piped = babelq(['lint', '--stdin', '--stdin-filename', 'config/sub.json', '--format', 'json'], named, {}, '{ "schemas": [] }\n');
    assert.equal(piped.status, 0, piped.stderr);
    assert.deepEqual(JSON.parse(piped.stdout), []);
    assert.ok(piped.stderr.includes('babelq: standard input stands for config/sub.json, a registry'), piped.stderr);
  });
});
// ---------------------------------------------------------------------------------------------
// --config with babelqueue.registry.path

describe('--config {"babelqueue.registry.path": …}', () => {
  let root: string;
  before(() => {
    root = workspace({
      // The nearest registry.json knows only PLACED; the configured one only SHIPPED.
      'registry.json': registryText([[PLACED, 'schemas/order.json']]),
      'schemas/order.json': ORDER_SCHEMA,
      'config/bq-registry.json': registryText([[SHIPPED, 'shipped.json']]),
      'config/shipped.json': ORDER_SCHEMA,
      'settings.json': JSON.stringify({ 'babelqueue.registry.path': 'config/bq-registry.json' }),
      'settings-missing.json': JSON.stringify({ 'babelqueue.registry.path': 'config/nope.json' }),
      'fixtures/placed.babel.json': envelopeFor(PLACED),
      'fixtures/shipped.babel.json': envelopeFor(SHIPPED),
    });
  });

  test('the configured registry (relative to the current directory) replaces discovery', () => {
    const { result, reports } = lintJson(['--config', 'settings.json', 'fixtures'], root);
    assert.equal(result.status, 0);
    assert.deepEqual(diagnosticsOf(reports, 'fixtures/shipped.babel.json'), []);
    assert.deepEqual(shape(diagnosticsOf(reports, 'fixtures/placed.babel.json')), [expected('unknown-urn', 'warning', jobValue(envelopeFor(PLACED)))]);
  });

  test('a configured registry that does not exist: registry-error on every envelope, exit 1 (nothing was read to refuse)', () => {
    const { result, reports } = lintJson(['--config', 'settings-missing.json', 'fixtures'], root);
    assert.equal(result.status, 1);
    assert.deepEqual(shape(diagnosticsOf(reports, 'fixtures/placed.babel.json')), [expected('registry-error', 'error', jobValue(envelopeFor(PLACED)))]);
    assert.deepEqual(shape(diagnosticsOf(reports, 'fixtures/shipped.babel.json')), [expected('registry-error', 'error', jobValue(envelopeFor(SHIPPED)))]);
  });

  test('a configured path that leaves the workspace folder: registry-error, and the file is not read', { skip: !CAN_MAKE_FIFOS && 'needs mkfifo' }, () => {
    const outside = makeTree({});
    roots.push(outside);
    makeFifo(join(outside, 'registry.json'));
    // Both are temporary directories side by side: `../<outside>/registry.json` leaves the workspace.
    writeTree(root, { 'settings-escaping.json': JSON.stringify({ 'babelqueue.registry.path': `../${basename(outside)}/registry.json` }) });
    const run = lintWithDeadline(['--config', 'settings-escaping.json', 'fixtures'], root, 10_000);
    assert.equal(run.timedOut, false, 'babelq opened the registry outside the workspace folder');
    assert.equal(run.status, 1);
    const reports = JSON.parse(run.stdout) as FileReport[];
    assert.deepEqual(shape(diagnosticsOf(reports, 'fixtures/placed.babel.json')), [expected('registry-error', 'error', jobValue(envelopeFor(PLACED)))]);
    assert.deepEqual(shape(diagnosticsOf(reports, 'fixtures/shipped.babel.json')), [expected('registry-error', 'error', jobValue(envelopeFor(SHIPPED)))]);
  });
});

// ---------------------------------------------------------------------------------------------
// Paths that leave the workspace folder: refused unread

describe('schema paths that leave the workspace folder are refused unread', { skip: !CAN_MAKE_FIFOS && 'needs mkfifo and symbolic links' }, () => {
  let outside: string;
  before(() => {
    outside = makeTree({ 'order.json': ORDER_SCHEMA });
    roots.push(outside);
    makeFifo(join(outside, 'secret.json'));
  });

  /** A workspace whose registry lists PLACED with `schemaRef`, plus extra files; returns its root. */
  function hostile(schemaRef: string, files: Readonly<Record<string, string>> = {}): string {
    return workspace({
      'registry.json': registryText([
        [PLACED, schemaRef],
        [SHIPPED, 'schemas/shipped.json'],
      ]),
      'schemas/shipped.json': ORDER_SCHEMA,
      'placed.babel.json': envelopeFor(PLACED),
      'shipped.babel.json': envelopeFor(SHIPPED, '{ "order_id": 0 }'),
      ...files,
    });
  }

  function assertRefused(root: string): void {
    const run = lintWithDeadline([], root, 10_000);
    assert.equal(run.timedOut, false, 'babelq opened a schema outside the workspace folder');
    assert.equal(run.status, 1);
    const reports = JSON.parse(run.stdout) as FileReport[];
    assert.deepEqual(shape(diagnosticsOf(reports, 'placed.babel.json')), [expected('registry-error', 'error', jobValue(envelopeFor(PLACED)))]);
    // Everything else keeps working: the other URN's schema is still applied.
    const other = envelopeFor(SHIPPED, '{ "order_id": 0 }');
    assert.deepEqual(shape(diagnosticsOf(reports, 'shipped.babel.json')), [expected('payload-schema', 'error', at(other, '0', '"order_id": 0'))]);
  }

  test('a symbolic link inside the workspace pointing outside it', () => {
    const root = hostile('schemas/order.json');
    symlinkSync(join(outside, 'secret.json'), join(root, 'schemas', 'order.json'));
    assertRefused(root);
  });

  test('a symbolic link to a directory outside, with the schema below it', () => {
    const root = hostile('linked/secret.json');
    symlinkSync(outside, join(root, 'linked'), 'dir');
    assertRefused(root);
  });

  test('a relative path through ..', () => {
    const root = hostile('');
    // Rewrite the registry now that the workspace's location (and so the way out) is known.
    const relativeWayOut = `../${basename(outside)}/secret.json`;
    writeTree(root, { 'registry.json': registryText([[PLACED, relativeWayOut], [SHIPPED, 'schemas/shipped.json']]) });
    assertRefused(root);
  });

  test('an absolute path', () => {
    assertRefused(hostile(join(outside, 'secret.json')));
  });

  test('control: a symbolic link that stays inside the workspace is followed', () => {
    const root = hostile('schemas/order.json', { 'shared/order.json': ORDER_SCHEMA });
    symlinkSync(join(root, 'shared', 'order.json'), join(root, 'schemas', 'order.json'));
    const text = envelopeFor(PLACED, '{ "order_id": 0 }');
    writeTree(root, { 'placed.babel.json': text });
    const { reports } = lintJson(['placed.babel.json'], root);
    assert.deepEqual(shape(diagnosticsOf(reports, 'placed.babel.json')), [expected('payload-schema', 'error', at(text, '0', '"order_id": 0'))]);
  });


  test('a registry.json that is a symbolic link leaving the workspace is refused unread', () => {
    const root = workspace({ 'placed.babel.json': envelopeFor(PLACED) });
    symlinkSync(join(outside, 'secret.json'), join(root, 'registry.json'));
    const run = lintWithDeadline([], root, 3_000);
    assert.equal(run.timedOut, false, 'babelq opened registry.json outside the workspace folder');
  });

  test('a folder whose name starts with ".." is inside the workspace', () => {
    const root = workspace({
      'registry.json': registryText([[PLACED, '..schemas/order.json']]),
      '..schemas/order.json': ORDER_SCHEMA,
      'placed.babel.json': envelopeFor(PLACED, '{ "order_id": 0 }'),
    });
    const text = envelopeFor(PLACED, '{ "order_id": 0 }');
    const { reports } = lintJson(['placed.babel.json'], root);
    assert.deepEqual(shape(diagnosticsOf(reports, 'placed.babel.json')), [expected('payload-schema', 'error', at(text, '0', '"order_id": 0'))]);
  });
});

describe('a registry.json shared by the fixtures of many folders', () => {
  let root: string | undefined;
  after(() => removeTree(root));

  test('is read once for its search and once for its load, however many folders its fixtures are in', () => {
    assertCliBuilt();
    const files: Record<string, string> = {
      'registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', owner: 'orders', status: 'active' }] }),
      'schemas/orders.json': JSON.stringify({ type: 'object' }),
    };
    for (let folder = 0; folder < 30; folder++) files[`batch-${folder}/order.babel.json`] = envelope();
    root = makeTree(files);
    // Counts the opens of registry.json from inside the process (fs.openSync, which every bounded read goes through).
    const probe = join(root, 'count-opens.cjs');
    writeTree(root, {
      'count-opens.cjs': `const fs = require('node:fs'); let opens = 0; const open = fs.openSync;
fs.openSync = function (path, ...rest) { if (String(path).endsWith('/registry.json')) opens++; return open.call(this, path, ...rest); };
process.on('exit', () => process.stderr.write('registry.json opened ' + opens + '\\n'));`,
    });
    const run = spawnSync(process.execPath, ['--require', probe, CLI_PATH, 'lint', '.', '--format', 'json'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout) as FileReport[]).length, 30);
    assert.match(run.stderr, /registry\.json opened 2\n/);
  });

  test('each place above the fixtures is looked at once a run, however many folders below it search from there', () => {
    assertCliBuilt();
    const files: Record<string, string> = {
      'registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'schemas/orders.json', owner: 'orders', status: 'active' }] }),
      'schemas/orders.json': JSON.stringify({ type: 'object' }),
    };
    // 30 fixtures, each in a folder of its own, under 3 folders under one.
    for (let folder = 0; folder < 30; folder++) files[`all/group-${folder % 3}/fixture-${folder}/order.babel.json`] = envelope();
    const tree = makeTree(files);
    try {
      const probe = join(tree, 'count-looks.cjs');
      writeTree(tree, {
        'count-looks.cjs': `const fs = require('node:fs'); const looks = new Map(); const lstat = fs.lstatSync;
fs.lstatSync = function (path, ...rest) { if (String(path).endsWith('/registry.json')) looks.set(String(path), (looks.get(String(path)) ?? 0) + 1); return lstat.call(this, path, ...rest); };
process.on('exit', () => process.stderr.write('places ' + looks.size + ', looks ' + [...looks.values()].reduce((a, b) => a + b, 0) + '\\n'));`,
      });
      const run = spawnSync(process.execPath, ['--require', probe, CLI_PATH, 'lint', '.', '--format', 'json'], { cwd: tree, encoding: 'utf8', timeout: 30_000 });
      assert.equal(run.status, 0, run.stderr);
      assert.equal((JSON.parse(run.stdout) as FileReport[]).length, 30);
      // 30 fixture folders, 3 groups, all/ and the top: 35 places, each looked at once (120 looks, one per place per search, before).
      assert.match(run.stderr, /places 35, looks 35\n/);
    } finally {
      removeTree(tree);
    }
  });
});

test('--registry naming a folder: refused with the path as given and why, not the absolute path the reader was handed', () => {
  const root = makeTree({ 'a.babel.json': envelope() });
  try {
    mkdirSync(join(root, 'config/sub.json'), { recursive: true });
    const run = babelq(['lint', '--registry', 'config/sub.json', '.'], root);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /^babelq: cannot read registry 'config\/sub\.json': is a directory, not a regular file/m);
    assert.ok(!run.stderr.includes(root), run.stderr);
  } finally {
    removeTree(root);
  }
});
