/** `babelq gdpr`: the marked fields per URN, the unmarked personal-data names, and --require failing exactly on those. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assertCliBuilt, babelq, makeTree, removeTree } from './helpers';

before(assertCliBuilt);

let root: string;
before(() => {
  root = makeTree({
    'registry.json': JSON.stringify({ schemas: [
      { urn: 'urn:babel:identity:user.registered', schema: 'schemas/user.json', owner: 'identity', status: 'active' },
      { urn: 'urn:babel:orders:created', schema: 'schemas/order.json', owner: 'orders', status: 'active' },
    ] }),
    'schemas/user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string', 'x-gdpr-sensitive': 'email' }, contacts: { type: 'array', items: { type: 'object', properties: { mobile_phone: { type: 'string' } } } } } }),
    'schemas/order.json': JSON.stringify({ type: 'object', properties: { order_id: { type: 'integer' } } }),
  });
});
after(() => removeTree(root));

test('lists the marked fields and the unmarked ones per URN; exit 0 without --require', () => {
  const result = babelq(['gdpr', '--format', 'json'], root);
  assert.equal(result.status, 0, result.stderr);
  const reports = JSON.parse(result.stdout) as { urn: string; sensitive: { path: string; category?: string }[]; unmarked: { path: string }[] }[];
  assert.deepEqual(reports.map((r) => [r.urn, r.sensitive, r.unmarked.map((u) => u.path)]), [
    ['urn:babel:identity:user.registered', [{ path: 'email', category: 'email' }], ['contacts[].mobile_phone']],
    ['urn:babel:orders:created', [], []],
  ]);
});

test('--require fails on an unmarked field, as bqschema gdpr --require does; a missing registry is exit 2', () => {
  const result = babelq(['gdpr', '--require'], root);
  assert.equal(result.status, 1);
  assert.match(result.stdout, /UNMARKED {3}contacts\[\]\.mobile_phone {2}schemas\/user\.json:1:\d+/);
  assert.match(result.stderr, /1 field named like personal data is not marked x-gdpr-sensitive/);
  assert.equal(babelq(['gdpr', '--registry', 'nope.json'], root).status, 2);
});

test('an empty --registry (a variable that held nothing) is exit 2, named as empty as lint names it, not read as the current folder', () => {
  const result = babelq(['gdpr', '--registry', ''], root);
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr, "babelq: --registry needs a file, not an empty value\nRun 'babelq gdpr --help' for usage.\n");
});

test('--help names each option and the registry read by default', () => {
  const result = babelq(['gdpr', '--help'], root);
  assert.equal(result.status, 0);
  for (const option of ['--registry <file>', '--require', '--format <name>', '-h, --help']) assert.ok(result.stdout.includes(option), option);
  assert.match(result.stdout, /default: the one babelq\.json\s+names, else the nearest registry\.json at or above\s+the current folder, up to the repository's top, as\s+babelq lint finds it/);
});

test('without --registry, the registry babelq.json names is read, as babelq lint reads it; --registry still wins', () => {
  const project = makeTree({
    'babelq.json': JSON.stringify({ root: true, registry: 'schemas/registry.json' }),
    'schemas/registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'user.json', owner: 'identity', status: 'active' }] }),
    'schemas/user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
    'registry.json': JSON.stringify({ schemas: [] }),
  });
  try {
    const named = babelq(['gdpr', '--format', 'json'], project);
    assert.equal(named.status, 0, named.stderr);
    assert.deepEqual((JSON.parse(named.stdout) as { urn: string; unmarked: { path: string }[] }[]).map((r) => [r.urn, r.unmarked.map((u) => u.path)]), [['urn:babel:identity:user.registered', ['email']]]);
    assert.equal(babelq(['gdpr', '--require'], project).status, 1);
    const given = babelq(['gdpr', '--format', 'json', '--registry', 'registry.json'], project);
    assert.equal(given.status, 0, given.stderr);
    assert.deepEqual(JSON.parse(given.stdout), []);
  } finally {
    removeTree(project);
  }
});

test('a registry babelq.json names outside the current folder (by its path or through a link) is not read, as babelq lint reads none there; --registry may name one', () => {
  const tree = makeTree({
    'project/babelq.json': JSON.stringify({ root: true, registry: '../elsewhere/registry.json' }),
    'linked/babelq.json': JSON.stringify({ root: true, registry: 'out/registry.json' }),
    'elsewhere/registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'user.json', owner: 'identity', status: 'active' }] }),
    'elsewhere/user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
  });
  try {
    symlinkSync(join(tree, 'elsewhere'), join(tree, 'linked/out'));
    for (const folder of ['project', 'linked']) {
      const result = babelq(['gdpr', '--format', 'json'], join(tree, folder));
      assert.equal(result.status, 2, `${folder}: ${result.stdout}`);
      assert.match(result.stderr, folder === 'project'
        ? /babelq\.json names the registry '.*elsewhere\/registry\.json', outside the current folder \(no folder at or above it holds \.git\); it was not read/
        // In the folder by its path: the message says it is the link that leads out, and where.
        : /babelq\.json names the registry 'out\/registry\.json', which a symbolic link leads to '.*elsewhere\/registry\.json', outside the current folder \(no folder at or above it holds \.git\); it was not read/);
      assert.doesNotMatch(result.stdout, /user\.registered/);
    }
    const given = babelq(['gdpr', '--format', 'json', '--registry', '../elsewhere/registry.json'], join(tree, 'project'));
    assert.equal(given.status, 0, given.stderr);
    assert.match(given.stdout, /user\.registered/);
  } finally {
    removeTree(tree);
  }
});

test('from a subfolder of a repository, the registry.json babelq lint finds is read: the nearest at or above the current folder, up to the repository\'s top', () => {
  const tree = makeTree({
    'repo/registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'user.json', owner: 'identity', status: 'active' }] }),
    'repo/user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
    'repo/fixtures/deep/.keep': '',
    'repo/other/registry.json': JSON.stringify({ notSchemas: true }),
    'registry.json': JSON.stringify({ schemas: [] }),
  });
  try {
    execFileSync('git', ['init', '-q', join(tree, 'repo')], { stdio: 'ignore' });
    for (const folder of ['repo/fixtures', 'repo/fixtures/deep']) {
      const result = babelq(['gdpr', '--format', 'json'], join(tree, folder));
      assert.equal(result.status, 0, `${folder}: ${result.stderr}`);
      assert.deepEqual((JSON.parse(result.stdout) as { urn: string; schema: string }[]).map((r) => r.urn), ['urn:babel:identity:user.registered'], folder);
      assert.equal(result.stderr, '', folder);
    }
    // A registry.json that is not one (no "schemas" key) is passed over as lint passes it over, and said so.
    const passed = babelq(['gdpr', '--format', 'json'], join(tree, 'repo/other'));
    assert.equal(passed.status, 0, passed.stderr);
    assert.match(passed.stdout, /user\.registered/);
    assert.equal(passed.stderr, 'babelq: note: registry.json was not read as a registry: it has no "schemas" key (a BabelQueue registry is {"schemas": [...]}), and was passed over for ../registry.json, the next one up; --registry registry.json reads it as one\n');
  } finally {
    removeTree(tree);
  }
});

test('from a subfolder, the registry a babelq.json at the repository\'s top names is read', () => {
  const tree = makeTree({
    'repo/babelq.json': JSON.stringify({ registry: 'schemas/main.json' }),
    'repo/schemas/main.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'user.json', owner: 'identity', status: 'active' }] }),
    'repo/schemas/user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
    'repo/fixtures/.keep': '',
  });
  try {
    execFileSync('git', ['init', '-q', join(tree, 'repo')], { stdio: 'ignore' });
    const result = babelq(['gdpr', '--format', 'json'], join(tree, 'repo/fixtures'));
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual((JSON.parse(result.stdout) as { schema: string }[]).map((r) => r.schema), ['../schemas/user.json']);
  } finally {
    removeTree(tree);
  }
});

test('with no registry.json in the current folder, where the search stops, exit 2 saying why none above it is looked for', () => {
  const tree = makeTree({ 'registry.json': JSON.stringify({ schemas: [] }), 'repo/.keep': '', 'loose/.keep': '' });
  try {
    execFileSync('git', ['init', '-q', join(tree, 'repo')], { stdio: 'ignore' });
    const top = babelq(['gdpr'], join(tree, 'repo'));
    assert.equal(top.status, 2, top.stdout);
    assert.equal(top.stderr, 'babelq: no registry.json in the current folder, and none is looked for above it (it holds .git: the top of the repository); name one with --registry, or with "registry" in babelq.json\n');
    const loose = babelq(['gdpr'], join(tree, 'loose'));
    assert.equal(loose.status, 2, loose.stdout);
    assert.equal(loose.stderr, 'babelq: no registry.json in the current folder, and none is looked for above it (no folder at or above it holds .git); name one with --registry, or with "registry" in babelq.json\n');
  } finally {
    removeTree(tree);
  }
});

test('with no registry at or above the current folder inside the repository, exit 2 saying where it looked and how to name one', () => {
  const tree = makeTree({ 'registry.json': JSON.stringify({ schemas: [] }), 'repo/fixtures/.keep': '' });
  try {
    execFileSync('git', ['init', '-q', join(tree, 'repo')], { stdio: 'ignore' });
    const result = babelq(['gdpr'], join(tree, 'repo/fixtures'));
    assert.equal(result.status, 2, result.stdout);
    assert.equal(result.stderr, 'babelq: no registry.json at or above the current folder, up to the repository .. (the folder holding .git above the current folder); name one with --registry, or with "registry" in babelq.json\n');
    // A registry.json there that is not one is named, with why it was not read.
    writeFileSync(join(tree, 'repo/registry.json'), JSON.stringify({ notSchemas: true }));
    const passed = babelq(['gdpr'], join(tree, 'repo/fixtures'));
    assert.equal(passed.status, 2, passed.stdout);
    assert.match(passed.stderr, /^babelq: registry '\.\.\/registry\.json' is refused as a whole/);
  } finally {
    removeTree(tree);
  }
});

/** A schema of about `bytes` characters, with one unmarked personal-data field. */
test('in a repository, a registry babelq.json names above the current folder is read, as babelq lint reads it; one outside the repository is not', () => {
  const tree = makeTree({
    'repo/registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'user.json', owner: 'identity', status: 'active' }] }),
    'repo/user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
    'repo/packages/a/babelq.json': JSON.stringify({ registry: '../../registry.json' }),
    'repo/packages/b/babelq.json': JSON.stringify({ registry: '../../../registry.json' }),
    'registry.json': JSON.stringify({ schemas: [] }),
  });
  try {
    execFileSync('git', ['init', '-q', join(tree, 'repo')], { stdio: 'ignore' });
    const inside = babelq(['gdpr', '--format', 'json'], join(tree, 'repo/packages/a'));
    assert.equal(inside.status, 0, inside.stderr);
    assert.match(inside.stdout, /user\.registered/);
    const outside = babelq(['gdpr', '--format', 'json'], join(tree, 'repo/packages/b'));
    assert.equal(outside.status, 2, outside.stdout);
    assert.match(outside.stderr, /babelq\.json names the registry '.*registry\.json', outside the repository \.\.\/\.\. \(the folder holding \.git above the current folder\); it was not read/);
  } finally {
    removeTree(tree);
  }
});

const bigSchema = (bytes: number) => JSON.stringify({ type: 'object', description: 'x'.repeat(bytes), properties: { phone: { type: 'string' } } });

test('a schema file named by many entries is read once: 40 entries naming one 4.5 MB schema are all reported (40 reads would pass the 16 MB the schema files may hold together)', () => {
  const schemas = Array.from({ length: 40 }, (_, i) => ({ urn: `urn:babel:orders:event${i}`, schema: 'schemas/big.json', owner: 'orders', status: 'active' }));
  const tree = makeTree({ 'registry.json': JSON.stringify({ schemas }), 'schemas/big.json': bigSchema(4.5 * 1024 * 1024) });
  try {
    const result = babelq(['gdpr', '--format', 'json'], tree);
    assert.equal(result.status, 0, result.stderr);
    const reports = JSON.parse(result.stdout) as { urn: string; unmarked: { path: string }[] }[];
    assert.equal(reports.length, 40);
    assert.ok(reports.every((report) => report.unmarked.length === 1 && report.unmarked[0]!.path === 'phone'));
  } finally {
    removeTree(tree);
  }
});

test('distinct schema files above 16 MB together are refused, as every registry read refuses them: exit 2, the one that passes the bound named', () => {
  const schemas = Array.from({ length: 5 }, (_, i) => ({ urn: `urn:babel:orders:event${i}`, schema: `schemas/big${i}.json`, owner: 'orders', status: 'active' }));
  const files: Record<string, string> = { 'registry.json': JSON.stringify({ schemas }) };
  for (let i = 0; i < 5; i++) files[`schemas/big${i}.json`] = bigSchema(4.5 * 1024 * 1024);
  const tree = makeTree(files);
  try {
    const result = babelq(['gdpr'], tree);
    assert.equal(result.status, 2, result.stdout);
    assert.match(result.stderr, /the schema of urn:babel:orders:event3 \('schemas\/big3\.json'\) would bring the registry's schema files above 16\.0 MiB together, more than this tool reads for one registry; it was not read/);
    assert.equal(result.stdout, '');
  } finally {
    removeTree(tree);
  }
});

test('a registry bqschema refuses as a whole (a duplicate URN, a field of another type, not JSON) is exit 2 naming the file and the place, never a list of what parsed', () => {
  const user = { urn: 'urn:babel:identity:user.registered', schema: 'user.json', owner: 'identity', status: 'active' };
  const cases: [string, RegExp][] = [
    [JSON.stringify({ schemas: [user, user] }), /registry 'registry\.json' is refused as a whole.*: registry\.json:1:\d+: Duplicate URN "urn:babel:identity:user\.registered"/],
    [`{"schemas": [\n  {"urn": 5, "schema": "user.json"}\n]}`, /registry 'registry\.json' is refused as a whole.*: registry\.json:2:11: "urn" must be a string/],
    [JSON.stringify({ schemas: [{ ...user, owner: 3 }] }), /registry\.json:1:\d+: "owner" must be a string/],
    [`{"schemas": [\n${JSON.stringify(user)},\n]}`, /registry\.json:2:\d+: .*Trailing comma/],
  ];
  for (const [registry, message] of cases) {
    const tree = makeTree({ 'registry.json': registry, 'user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }) });
    try {
      const result = babelq(['gdpr', '--require'], tree);
      assert.equal(result.status, 2, `${registry}\n${result.stdout}`);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    } finally {
      removeTree(tree);
    }
  }
});

test('a schema that is not JSON is named with the line and column of its first syntax problem (exit 2)', () => {
  const tree = makeTree({
    'registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:created', schema: 'order.json', owner: 'orders', status: 'active' }] }),
    'order.json': '{\n  "type": "object",\n}\n',
  });
  try {
    const result = babelq(['gdpr'], tree);
    assert.equal(result.status, 2, result.stdout);
    assert.match(result.stderr, /the schema of urn:babel:orders:created \('order\.json'\) is not valid JSON: 2:19: Trailing comma/);
  } finally {
    removeTree(tree);
  }
});

test('a registry with no entries says so in stylish (not an empty line), and is [] in json', () => {
  const tree = makeTree({ 'registry.json': '{ "schemas": [] }\n' });
  try {
    const result = babelq(['gdpr', '--require'], tree);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'no URNs registered: no personal data to list\n');
    assert.deepEqual(JSON.parse(babelq(['gdpr', '--format', 'json'], tree).stdout), []);
  } finally {
    removeTree(tree);
  }
});

test('a schema path with a control character is shown escaped on every line of the stylish list, never raw to the terminal', { skip: process.platform === 'win32' && 'file names with control characters' }, () => {
  const name = 'schemas/\u001b[2Juser.json';
  const tree = makeTree({
    'registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: name, owner: 'identity', status: 'active' }] }),
    [name]: JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
  });
  try {
    const result = babelq(['gdpr'], tree);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /UNMARKED {3}email {2}schemas\/\\u001b\[2Juser\.json:1:\d+/);
    assert.ok(!result.stdout.includes('\u001b'), JSON.stringify(result.stdout));
  } finally {
    removeTree(tree);
  }
});

test('--require passes where bqschema gdpr --require passes: a field only under definitions, a blank category as the mark; it fails on a nested unmarked field named in another case', () => {
  const tree = makeTree({
    'registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'user.json' }] }),
    'user.json': JSON.stringify({ type: 'object', definitions: { contact: { type: 'object', properties: { email: { type: 'string' } } } }, properties: { contact: { $ref: '#/definitions/contact' }, Phone_Number: { type: 'string', 'x-gdpr-sensitive': ' ' } } }),
    'nested/registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: 'user.json' }] }),
    'nested/user.json': JSON.stringify({ type: 'object', properties: { profile: { type: 'object', properties: { Home_ADDRESS: { type: 'string' } } } } }),
  });
  try {
    const passing = babelq(['gdpr', '--require', '--format', 'json'], tree);
    assert.equal(passing.status, 0, passing.stdout + passing.stderr);
    assert.deepEqual((JSON.parse(passing.stdout) as { sensitive: unknown[]; unmarked: unknown[] }[]).map((report) => [report.sensitive, report.unmarked]), [[[{ path: 'Phone_Number', category: ' ' }], []]]);
    const failing = babelq(['gdpr', '--require', '--registry', 'nested/registry.json'], tree);
    assert.equal(failing.status, 1, failing.stdout);
    assert.match(failing.stdout, /UNMARKED {3}profile\.Home_ADDRESS /);
  } finally {
    removeTree(tree);
  }
});

test('a registry whose schemas lie beside its folder inside the repository is read, as babelq lint reads it; a schema outside the repository is not, named in lint\'s words', () => {
  const tree = makeTree({
    'repo/babelq.json': JSON.stringify({ root: true, registry: 'reg/main.json' }),
    'repo/reg/main.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: '../schemas/user.json', owner: 'identity', status: 'active' }] }),
    'repo/schemas/user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
    'repo/fixtures/user.json': JSON.stringify({ job: 'urn:babel:identity:user.registered', data: { email: 'a@b.c' } }),
    'repo/out/main.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:identity:user.registered', schema: '../../user.json', owner: 'identity', status: 'active' }] }),
    'user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
  });
  try {
    const repo = join(tree, 'repo');
    execFileSync('git', ['init', '-q', repo], { stdio: 'ignore' });
    const lint = babelq(['lint', '--format', 'json', 'fixtures/user.json'], repo);
    assert.doesNotMatch(lint.stdout, /resolves outside/, lint.stdout);
    assert.match(lint.stdout, /schemas\/user\.json/, 'lint read the schema beside the registry\'s folder');
    const read = babelq(['gdpr', '--format', 'json'], repo);
    assert.equal(read.status, 0, read.stderr);
    assert.deepEqual((JSON.parse(read.stdout) as { urn: string; schema: string; unmarked: { path: string }[] }[]).map((r) => [r.urn, r.schema, r.unmarked.map((u) => u.path)]), [['urn:babel:identity:user.registered', 'schemas/user.json', ['email']]]);
    // From a subfolder, the same bound: the repository, not the current folder.
    assert.equal(babelq(['gdpr', '--format', 'json', '--registry', '../reg/main.json'], join(repo, 'fixtures')).status, 0);
    const outside = babelq(['gdpr', '--registry', 'out/main.json'], repo);
    assert.equal(outside.status, 2, outside.stdout);
    assert.equal(outside.stderr, "babelq: the schema of urn:babel:identity:user.registered ('../../user.json') resolves outside the repository, the current folder (it holds .git); it was not read\n");
  } finally {
    removeTree(tree);
  }
});

test('a registry --registry names outside the repository keeps its schemas inside its own folder, as babelq lint keeps them', () => {
  const tree = makeTree({
    'repo/.keep': '',
    'elsewhere/reg/main.json': JSON.stringify({ schemas: [
      { urn: 'urn:babel:identity:user.registered', schema: 'user.json', owner: 'identity', status: 'active' },
      { urn: 'urn:babel:orders:created', schema: '../order.json', owner: 'orders', status: 'active' },
    ] }),
    'elsewhere/reg/user.json': JSON.stringify({ type: 'object', properties: { email: { type: 'string' } } }),
    'elsewhere/order.json': JSON.stringify({ type: 'object', properties: { phone: { type: 'string' } } }),
  });
  try {
    const repo = join(tree, 'repo');
    execFileSync('git', ['init', '-q', repo], { stdio: 'ignore' });
    const result = babelq(['gdpr', '--registry', '../elsewhere/reg/main.json'], repo);
    assert.equal(result.status, 2, result.stdout);
    assert.equal(result.stderr, "babelq: the schema of urn:babel:orders:created ('../order.json') resolves outside its own folder ../elsewhere/reg (a file outside the repository is held to its own folder); it was not read\n");
  } finally {
    removeTree(tree);
  }
});
