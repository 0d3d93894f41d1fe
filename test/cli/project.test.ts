/**
 * A real repository as `babelq lint` meets it (issue: one project config, ignores, suppressions,
 * --fix, standard input): babelq.json found upward with `root`, overrides by glob, `.gitignore`
 * and `ignore` on directory walks, a file named as such always linted, suppressions with reasons,
 * expiry, staleness, a baseline and pruning, and the safe fixes written atomically.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertCliBuilt, babelq, CLI_PATH, envelope, FORBIDDEN_TIMESTAMP, lintJson, makeTree, removeTree, REPO_ROOT } from './helpers';

before(assertCliBuilt);

const MONEY = envelope({ data: '{ "amount": 49.9 }' });
const codesOf = (reports: readonly { readonly file: string; readonly diagnostics: readonly { readonly code: string }[] }[], file: string): string[] => (reports.find((report) => report.file === file)?.diagnostics ?? []).map((d) => d.code);

describe('babelq.json, found upward from each fixture', () => {
  let root: string;
  before(() => {
    root = makeTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'babelq.json': '// the project\n{ "root": true, "severity": { "float-currency": "error" }, "ignore": ["fixtures/negative/**"], "overrides": [{ "files": ["legacy/**"], "severity": { "float-currency": "off" } },], }\n',
      '.gitignore': 'generated/\n',
      'fixtures/money.babel.json': MONEY,
      'fixtures/negative/broken.babel.json': FORBIDDEN_TIMESTAMP,
      'generated/out.babel.json': FORBIDDEN_TIMESTAMP,
      'legacy/old.babel.json': MONEY,
      'team/babelq.json': '{ "severity": { "float-currency": "hint" } }',
      'team/money.babel.json': MONEY,
    });
  });
  after(() => removeTree(root));

  test('a directory walk leaves out what .gitignore and "ignore" say; the config and its overrides set each file\'s severities', () => {
    const { result, reports } = lintJson(['.'], root);
    assert.equal(result.status, 1, result.stderr);
    assert.deepEqual(reports.map((report) => report.file).sort(), ['fixtures/money.babel.json', 'legacy/old.babel.json', 'team/money.babel.json']);
    assert.deepEqual(reports.find((r) => r.file === 'fixtures/money.babel.json')!.diagnostics.map((d) => `${d.code}:${d.severity}`), ['float-currency:error']);
    assert.deepEqual(codesOf(reports, 'legacy/old.babel.json'), [], 'the override turns float-currency off under legacy/');
    // The nearer config wins per code; the root one still applies for the rest.
    assert.deepEqual(reports.find((r) => r.file === 'team/money.babel.json')!.diagnostics.map((d) => `${d.code}:${d.severity}`), ['float-currency:hint']);
  });

  test('an "ignore" entry that names a folder leaves out everything below it, and the walk does not enter it', () => {
    const folder = makeTree({
      'babelq.json': '{ "root": true, "ignore": ["fixtures/bad", "fixtures/old/"] }',
      'fixtures/good.babel.json': MONEY,
      'fixtures/bad/a.babel.json': FORBIDDEN_TIMESTAMP,
      'fixtures/bad/deeper/b.babel.json': FORBIDDEN_TIMESTAMP,
      'fixtures/old/c.babel.json': FORBIDDEN_TIMESTAMP,
      'fixtures/badly/d.babel.json': MONEY,
    });
    try {
      const { result, reports } = lintJson(['.'], folder);
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(reports.map((report) => report.file).sort(), ['fixtures/badly/d.babel.json', 'fixtures/good.babel.json']);
      // A walk that finds nothing says the folders it left out.
      const empty = makeTree({ 'babelq.json': '{ "root": true, "ignore": ["only/bad"] }', 'only/bad/a.babel.json': FORBIDDEN_TIMESTAMP });
      try {
        const nothing = babelq(['lint', 'only'], empty);
        assert.equal(nothing.status, 2);
        assert.match(nothing.stderr, /no \*\.babel\.json files in directory 'only' \(1 folder left out by \.gitignore, \.git\/info\/exclude or babelq\.json "ignore"; --no-ignore lints them\)/);
      } finally {
        removeTree(empty);
      }
    } finally {
      removeTree(folder);
    }
  });

  test('--no-ignore lints everything; a file named as such is always linted', () => {
    const all = lintJson(['.', '--no-ignore'], root);
    assert.ok(all.reports.some((r) => r.file === 'generated/out.babel.json'));
    assert.ok(all.reports.some((r) => r.file === 'fixtures/negative/broken.babel.json'));
    const named = lintJson(['generated/out.babel.json', 'fixtures/negative/broken.babel.json'], root);
    assert.deepEqual(named.reports.map((r) => codesOf(named.reports, r.file).includes('forbidden-key')), [true, true]);
  });

  test('--force-exclude leaves out named files and folders a walk would leave out (a hook names every staged file); nothing left is no error', () => {
    // What pre-commit runs: every staged fixture named, the ignored ones among them.
    const staged = lintJson(['--force-exclude', 'fixtures/money.babel.json', 'fixtures/negative/broken.babel.json', 'generated/out.babel.json'], root);
    assert.equal(staged.result.status, 1, staged.result.stderr);
    assert.deepEqual(staged.reports.map((r) => r.file), ['fixtures/money.babel.json'], 'the "ignore" glob and the .gitignore folder both apply to named files');
    // Only ignored files staged: nothing to lint, and no "no files" error.
    const onlyIgnored = lintJson(['--force-exclude', 'fixtures/negative/broken.babel.json', 'generated/out.babel.json', 'fixtures/negative', 'generated'], root);
    assert.equal(onlyIgnored.result.status, 0, onlyIgnored.result.stderr);
    assert.deepEqual(onlyIgnored.reports, []);
    // Standard input standing for an ignored file is left out as well; --no-ignore turns all of it off.
    const piped = babelq(['lint', '--force-exclude', '--stdin', '--stdin-filename', 'generated/out.babel.json', '--format', 'json'], root, {}, FORBIDDEN_TIMESTAMP);
    assert.equal(piped.status, 0, piped.stderr);
    assert.deepEqual(JSON.parse(piped.stdout), []);
    const noIgnore = lintJson(['--force-exclude', '--no-ignore', 'generated/out.babel.json'], root);
    assert.equal(noIgnore.result.status, 1);
    // A folder with no fixtures of its own is still a wrong path, though it holds an ignored folder
    // (which may hold none: the walk does not enter it).
    mkdirSync(join(root, 'docs', 'generated'), { recursive: true });
    writeFileSync(join(root, 'docs', 'notes.txt'), 'not a fixture\n');
    const wrong = babelq(['lint', '--force-exclude', 'docs'], root);
    assert.equal(wrong.status, 2, wrong.stderr);
    assert.match(wrong.stderr, /no \*\.babel\.json files in directory 'docs'/);
  });

  test('--force-exclude from a subfolder: a file named above it under a .gitignore folder is left out, as one under an "ignore" folder is', () => {
    // From team/: ../generated is what .gitignore leaves out, ../fixtures/negative what "ignore" does.
    const staged = lintJson(['--force-exclude', '../fixtures/money.babel.json', '../fixtures/negative/broken.babel.json', '../generated/out.babel.json'], join(root, 'team'));
    assert.deepEqual(staged.reports.map((r) => r.file), ['../fixtures/money.babel.json'], staged.result.stderr);
    // Run inside an ignored folder, a file in it is linted, as a walk from here lints it (the folders above are not judged).
    const inside = lintJson(['--force-exclude', '../generated/out.babel.json'], join(root, 'generated'));
    assert.deepEqual(inside.reports.map((r) => r.file), ['../generated/out.babel.json'], inside.result.stderr);
  });

  test('--force-exclude: a glob below a folder a walk leaves out matches nothing there, as the folder named is left out', () => {
    const globbed = lintJson(['--force-exclude', 'generated/*.babel.json', 'fixtures/*.babel.json'], root);
    assert.deepEqual(globbed.reports.map((r) => r.file), ['fixtures/money.babel.json'], globbed.result.stderr);
    const only = lintJson(['--force-exclude', 'generated/**/*.babel.json'], root);
    assert.equal(only.result.status, 0, only.result.stderr);
    assert.deepEqual(only.reports, []);
    // Without --force-exclude the glob is walked as asked.
    assert.deepEqual(lintJson(['generated/*.babel.json'], root).reports.map((r) => r.file), ['generated/out.babel.json']);
  });

  test('a directory holding only ignored fixtures says why it found nothing; a gitignored folder named as such is walked, as asked', () => {
    const result = babelq(['lint', 'fixtures/negative'], root);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /no \*\.babel\.json files in directory 'fixtures\/negative' \(1 file left out by \.gitignore, \.git\/info\/exclude or babelq\.json "ignore"; --no-ignore lints them\)/);
    const named = lintJson(['generated'], root);
    assert.deepEqual(named.reports.map((r) => r.file), ['generated/out.babel.json']);
  });

  test('--config applies over babelq.json, as the editor\'s settings do', () => {
    writeFileSync(join(root, 'settings.json'), JSON.stringify({ 'babelqueue.diagnostics.severity': { 'float-currency': 'warning' } }));
    const { reports } = lintJson(['fixtures/money.babel.json', '--config', 'settings.json'], root);
    assert.deepEqual(reports[0].diagnostics.map((d) => `${d.code}:${d.severity}`), ['float-currency:warning']);
  });

  test('a babelq.json that cannot be used as written is a config-error on its key, and the run fails', () => {
    const bad = makeTree({ 'babelq.json': '{\n  "severty": { "float-currency": "off" }\n}\n', 'a.babel.json': MONEY });
    try {
      const { result, reports } = lintJson(['.'], bad);
      assert.equal(result.status, 1);
      const config = reports.find((r) => r.file === 'babelq.json')!;
      assert.deepEqual(config.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['config-error', 1, 2]]);
      assert.match(config.diagnostics[0].message, /Unknown key "severty"/);
    } finally {
      removeTree(bad);
    }
  });

  test('a babelq.json or suppressions file that is a symbolic link to nothing, or one that loops, is a config-error, not a run on defaults', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
    for (const [name, link] of [['babelq.json', 'dangling'], ['babelq.json', 'loop'], ['babelq-suppressions.json', 'dangling']] as const) {
      const bad = makeTree({ 'a.babel.json': MONEY });
      try {
        if (link === 'dangling') symlinkSync('moved/babelq.json', join(bad, name));
        else symlinkSync(name, join(bad, name));
        const { result, reports } = lintJson(['a.babel.json'], bad);
        assert.equal(result.status, 1, `${name} (${link}): ${result.stderr}`);
        const report = reports.find((r) => r.file === name);
        assert.ok(report, `${name} (${link}) is reported: ${JSON.stringify(reports)}`);
        assert.deepEqual(report.diagnostics.map((d) => d.code), ['config-error']);
        assert.match(report.diagnostics[0].message, link === 'dangling' ? /symbolic link to 'moved\/babelq\.json', which does not exist/ : /symbolic link that loops/);
      } finally {
        removeTree(bad);
      }
    }
  });

  test('standard input is linted as the file --stdin-filename names (its config applies)', () => {
    const legacy = babelq(['lint', '--stdin', '--stdin-filename', 'legacy/x.babel.json', '--format', 'json'], root, {}, MONEY);
    assert.deepEqual(JSON.parse(legacy.stdout), [{ file: 'legacy/x.babel.json', diagnostics: [] }]);
    const plain = babelq(['lint', '--stdin', '--stdin-filename', 'fixtures/x.babel.json', '--format', 'compact'], root, {}, MONEY);
    assert.equal(plain.status, 1);
    assert.match(plain.stdout, /^fixtures\/x\.babel\.json:\d+:\d+-\d+:\d+: error float-currency: /);
  });
});

describe('standard input standing for a file that is no envelope', () => {
  test('a registry.json, a schema file its registry names or a babelq.json is not checked as an envelope (an editor that pipes every *.json buffer): no findings, exit 0, and stderr says why', () => {
    const dir = makeTree({
      'babelq.json': '{ "root": true }\n',
      'registry.json': JSON.stringify({ schemas: [{ urn: 'urn:babel:orders:placed', schema: 'schemas/placed.json', owner: 'orders', status: 'active' }] }),
      'schemas/placed.json': '{ "type": "object" }\n',
    });
    try {
      for (const [name, said] of [['registry.json', 'a registry'], ['schemas/placed.json', 'a schema file of its registry'], ['babelq.json', 'a project file']] as const) {
        const piped = babelq(['lint', '--stdin', '--stdin-filename', name, '--format', 'json'], dir, {}, '{ "schemas": [] }\n');
        assert.equal(piped.status, 0, piped.stderr);
        assert.deepEqual(JSON.parse(piped.stdout), []);
        assert.ok(piped.stderr.includes(`babelq: standard input stands for ${name}, ${said}`), piped.stderr);
        assert.match(piped.stderr, /only an envelope is checked from standard input: lint the file by its path/);
      }
      // Any other name is an envelope, as before: a JSON file no registry names included.
      const other = babelq(['lint', '--stdin', '--stdin-filename', 'schemas/other.json', '--format', 'json'], dir, {}, '{}');
      assert.equal(other.status, 1);
      assert.ok(JSON.parse(other.stdout)[0].diagnostics.some((d: { code: string }) => d.code === 'missing-field'), other.stdout);
    } finally {
      removeTree(dir);
    }
  });
});

describe('a babelq.json or babelq-suppressions.json named among the paths', () => {
  test('is checked as the project file it is (its own findings, or none), never as an envelope missing every field; a glob of *.json too', () => {
    const dir = makeTree({
      'babelq.json': '{ "root": true }\n',
      'a.babel.json': FORBIDDEN_TIMESTAMP,
      'babelq-suppressions.json': JSON.stringify({ suppressions: [{ file: 'a.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'legacy' }] }),
    });
    try {
      const clean = lintJson(['babelq.json', 'babelq-suppressions.json'], dir);
      assert.equal(clean.result.status, 0, clean.result.stdout);
      assert.deepEqual(clean.reports, [{ file: 'babelq.json', diagnostics: [] }, { file: 'babelq-suppressions.json', diagnostics: [] }]);
      const globbed = lintJson(['*.json'], dir);
      assert.equal(globbed.result.status, 0, globbed.result.stdout);
      assert.deepEqual(globbed.reports.flatMap((report) => report.diagnostics.map((d) => `${report.file} ${d.code}`)), []);
      writeFileSync(join(dir, 'babelq.json'), '{ "root": true, "severty": {} }\n');
      const broken = lintJson(['babelq.json'], dir);
      assert.equal(broken.result.status, 1);
      assert.deepEqual(broken.reports.map((report) => [report.file, report.diagnostics.map((d) => d.code)]), [['babelq.json', ['config-error']]]);
    } finally {
      removeTree(dir);
    }
  });
});

describe('suppressions with reasons', () => {
  let root: string;
  before(() => {
    root = makeTree({ 'babelq.json': '{ "root": true }', 'a.babel.json': FORBIDDEN_TIMESTAMP, 'b.babel.json': MONEY });
  });
  after(() => removeTree(root));

  test('--suppress-all --reason writes a baseline that hides today\'s findings, counted in the summary', () => {
    const written = babelq(['lint', '--suppress-all', '--reason', 'legacy producer, removed in 2027'], root);
    assert.equal(written.status, 0, written.stdout + written.stderr);
    assert.match(written.stderr, /suppressions? written to babelq-suppressions\.json/);
    const file = JSON.parse(readFileSync(join(root, 'babelq-suppressions.json'), 'utf8')) as { suppressions: { file: string; code: string; pointer: string; reason: string }[] };
    assert.ok(file.suppressions.some((s) => s.file === 'a.babel.json' && s.code === 'forbidden-key' && s.pointer === '/timestamp' && s.reason === 'legacy producer, removed in 2027'));
    const again = babelq(['lint'], root);
    assert.equal(again.status, 0, again.stdout);
    assert.match(again.stdout, /2 files checked, no problems, \d+ suppressed/);
  });

  test('--suppress-all also writes the findings one shown finding carries (same cause, same token): the next run has nothing left, and both count them alike', () => {
    // An extra meta key: encoding-divergence shown, carrying extension-key; "Attempts": encoding-divergence carrying case-mismatch.
    const text = envelope({ extra: ',\n  "Attempts": 1' }).replace('"queue": "orders",', '"queue": "orders",\n    "tenant": "acme",');
    const folder = makeTree({ 'babelq.json': '{ "root": true }', 'carried.babel.json': text });
    try {
      const before = lintJson([], folder);
      const shown = before.reports[0].diagnostics;
      assert.deepEqual(shown.map((d) => [d.code, (d.related ?? []).map((r) => r.code)]), [['encoding-divergence', ['extension-key']], ['encoding-divergence', ['case-mismatch']]]);
      const written = babelq(['lint', '--suppress-all', '--reason', 'legacy producer'], folder);
      assert.equal(written.status, 0, written.stdout + written.stderr);
      const again = babelq(['lint'], folder);
      assert.equal(again.status, 0, again.stdout);
      assert.equal(again.stdout, '✔ 1 file checked, no problems, 4 suppressed\n');
      assert.match(written.stdout, /1 file checked, no problems, 4 suppressed/);
    } finally {
      removeTree(folder);
    }
  });

  test('a babelq-suppressions.json saved with a byte-order mark is read as babelq.json is (no config-error), and --suppress-all adds to it keeping the mark, its comment and CRLF', () => {
    const saved = '\ufeff// the team\'s baseline\r\n{\r\n  "suppressions": [\r\n    { "file": "a.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "old producer" }\r\n  ]\r\n}\r\n';
    const folder = makeTree({ 'babelq.json': '\ufeff{ "root": true }', 'a.babel.json': FORBIDDEN_TIMESTAMP, 'b.babel.json': MONEY, 'babelq-suppressions.json': saved });
    try {
      const { result, reports } = lintJson([], folder);
      assert.deepEqual(reports.map((report) => [report.file, report.diagnostics.map((d) => d.code)]), [['a.babel.json', []], ['b.babel.json', ['float-currency']]], result.stderr);
      const written = babelq(['lint', '--suppress-all', '--reason', 'legacy'], folder);
      assert.equal(written.status, 0, written.stdout + written.stderr);
      assert.match(written.stderr, /^babelq: 1 suppression written to babelq-suppressions\.json$/m);
      const text = readFileSync(join(folder, 'babelq-suppressions.json'), 'utf8');
      const kept = '"old producer" }';
      assert.ok(text.startsWith(saved.slice(0, saved.indexOf(kept) + kept.length)), text);
      assert.ok(!/[^\r]\n/.test(text), 'every line break is CRLF');
      assert.match(text, /"file": "b\.babel\.json", "code": "float-currency"/);
    } finally {
      removeTree(folder);
    }
  });

  test('--suppress-all says how its entries cover the findings the summary counts, when findings share an entry', () => {
    // Five required fields missing: five findings of one code at one place, one entry.
    const folder = makeTree({ 'babelq.json': '{ "root": true }', 'empty.babel.json': '{}\n' });
    try {
      const written = babelq(['lint', '--suppress-all', '--reason', 'placeholder'], folder);
      assert.equal(written.status, 0, written.stdout + written.stderr);
      assert.match(written.stderr, /^babelq: 1 suppression written to babelq-suppressions\.json\nbabelq: they cover all 5 findings: findings of one code at one place share an entry/);
      assert.match(written.stdout, /1 file checked, no problems, 5 suppressed/);
    } finally {
      removeTree(folder);
    }
  });

  test('--suppress-all with a registry.json named before the fixtures: each entry names its own fixture', () => {
    const folder = makeTree({ 'babelq.json': '{ "root": true }', 'registry.json': '{ "schemas": [] }\n', 'a.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      const written = babelq(['lint', 'registry.json', 'a.babel.json', '--suppress-all', '--reason', 'legacy'], folder);
      assert.equal(written.status, 0, written.stdout + written.stderr);
      const file = JSON.parse(readFileSync(join(folder, 'babelq-suppressions.json'), 'utf8')) as { suppressions: { file: string; code: string }[] };
      assert.ok(file.suppressions.length > 0);
      assert.deepEqual([...new Set(file.suppressions.map((entry) => entry.file))], ['a.babel.json']);
    } finally {
      removeTree(folder);
    }
  });

  test('--suppress-all writes 5,000 entries into a file with comments at once, keeping the comments', () => {
    const data = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`n${index}`, 1]));
    const fixture = JSON.stringify({ job: 'urn:babel:orders:created', trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b', data, meta: { id: 'f1e2d3c4-b5a6-4789-90ab-cdef01234567', queue: 'orders', lang: 'node', schema_version: 1, created_at: 1749132727000 }, attempts: 0 }, null, 2).replace(/: 1,/g, ': 9007199254740993,');
    const folder = makeTree({
      'babelq.json': '{ "root": true }',
      'a.babel.json': fixture,
      'babelq-suppressions.json': '// the team\'s baseline\n{\n  "suppressions": [\n    { "file": "old.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "old" } // kept\n  ]\n}\n',
    });
    try {
      const started = Date.now();
      const written = babelq(['lint', '--suppress-all', '--reason', 'legacy'], folder);
      // One edit per entry re-read the whole file each time: 4,500 took 32 s.
      assert.ok(Date.now() - started < 15_000, `${Date.now() - started} ms`);
      // Each unsafe-integer carries its encoding-divergence (same cause, same token): an entry for each.
      assert.match(written.stderr, /^babelq: 100\d\d suppressions written to babelq-suppressions\.json/);
      const text = readFileSync(join(folder, 'babelq-suppressions.json'), 'utf8');
      assert.ok(text.startsWith("// the team's baseline\n"));
      // The entry written before keeps its line and its comment; the new ones follow it, one to a line as it is.
      assert.ok(text.includes('    { "file": "old.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "old" }, // kept\n    { "file": "a.babel.json", "code": "unsafe-integer", '), text.slice(0, 400));
      assert.match(text, /"reason": "legacy" \}\n {2}\]\n\}\n$/);
      const again = babelq(['lint'], folder);
      assert.equal(again.status, 0, again.stdout);
      assert.match(again.stdout, /100\d\d suppressed/);
      // Only the stale entry for old.babel.json is left to report: nothing of a.babel.json.
      assert.ok(!again.stdout.includes('a.babel.json'), again.stdout.slice(0, 400));
    } finally {
      removeTree(folder);
    }
  });

  test('--suppress-all appends in the file\'s own layout: after a multi-line entry with a trailing comma (CRLF), and into a one-line array', () => {
    const fixture = readFileSync(join(REPO_ROOT, 'examples/bad/data.babel.json'), 'utf8');
    const multiLine = '{\r\n\t"suppressions": [\r\n\t\t{\r\n\t\t\t"file": "old.babel.json",\r\n\t\t\t"code": "forbidden-key",\r\n\t\t\t"pointer": "/timestamp",\r\n\t\t\t"reason": "old"\r\n\t\t}, /* the old producer */\r\n\t]\r\n}\r\n';
    const oneLine = '{ "suppressions": [ { "file": "old.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "old" } ] }\n';
    for (const [before, check] of [
      [multiLine, (text: string) => {
        assert.ok(text.startsWith(multiLine.slice(0, multiLine.indexOf('/* the old producer */') + 22) + '\r\n\t\t{\r\n\t\t\t"file": "a.babel.json",\r\n'), JSON.stringify(text.slice(0, 300)));
        assert.ok(!/[^\r]\n/.test(text), 'CRLF throughout');
      }],
      [oneLine, (text: string) => {
        assert.ok(text.startsWith('{ "suppressions": [ { "file": "old.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "old" }, { "file": "a.babel.json", '), text.slice(0, 300));
        assert.ok(text.endsWith(' } ] }\n') && !text.slice(0, -1).includes('\n'), 'still one line');
      }],
    ] as const) {
      const folder = makeTree({ 'babelq.json': '{ "root": true }', 'a.babel.json': fixture, 'babelq-suppressions.json': before });
      try {
        const written = babelq(['lint', '--suppress-all', '--reason', 'legacy'], folder);
        assert.match(written.stderr, /suppressions written to babelq-suppressions\.json/);
        check(readFileSync(join(folder, 'babelq-suppressions.json'), 'utf8'));
        const again = babelq(['lint'], folder);
        assert.equal(again.status, 0, again.stdout + again.stderr);
      } finally {
        removeTree(folder);
      }
    }
  });

  test('--prune-suppressions removes 5,000 stale entries at once; the one still used keeps its place and comment', () => {
    const stale = (index: number) => `    { "file": "a.babel.json", "code": "forbidden-key", "pointer": "/gone${index}", "reason": "old" }`;
    const lines = [...Array.from({ length: 2_500 }, (_, index) => stale(index)), '    { "file": "a.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "legacy producer" } // still needed', ...Array.from({ length: 2_500 }, (_, index) => stale(2_500 + index))];
    const folder = makeTree({
      'babelq.json': '{ "root": true }',
      'a.babel.json': FORBIDDEN_TIMESTAMP,
      'babelq-suppressions.json': `// the baseline\n{\n  "suppressions": [\n${lines.map((line, index) => (index < lines.length - 1 && !line.includes('//') ? `${line},` : line.replace(' // still', ', // still'))).join('\n')}\n  ]\n}\n`,
    });
    try {
      const started = Date.now();
      const pruned = babelq(['lint', '--prune-suppressions'], folder);
      assert.ok(Date.now() - started < 15_000, `${Date.now() - started} ms`);
      assert.match(pruned.stderr, /babelq: 5000 stale suppressions removed/);
      const text = readFileSync(join(folder, 'babelq-suppressions.json'), 'utf8');
      assert.equal(text, '// the baseline\n{\n  "suppressions": [\n    { "file": "a.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "legacy producer" } // still needed\n  ]\n}\n');
      assert.equal(babelq(['lint'], folder).status, 0);
    } finally {
      removeTree(folder);
    }
  });

  test('--prune-suppressions after an entry missing its comma removes the stale entry whole', () => {
    const folder = makeTree({
      'babelq.json': '{ "root": true }',
      'a.babel.json': FORBIDDEN_TIMESTAMP,
      'babelq-suppressions.json': '{\n  "suppressions": [\n    { "file": "a.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "kept" }\n    { "file": "b.babel.json", "code": "forbidden-key", "pointer": "/x", "reason": "stale" }\n  ]\n}\n',
    });
    try {
      babelq(['lint', '--prune-suppressions'], folder);
      assert.equal(readFileSync(join(folder, 'babelq-suppressions.json'), 'utf8'), '{\n  "suppressions": [\n    { "file": "a.babel.json", "code": "forbidden-key", "pointer": "/timestamp", "reason": "kept" }\n  ]\n}\n');
    } finally {
      removeTree(folder);
    }
  });

  test('an expired suppression fires again, saying so; one without a reason is an error of its own; a stale one is reported and pruned', () => {
    const entries = [
      { file: 'a.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'old', until: '2020-01-31' },
      { file: 'b.babel.json', code: 'float-currency', pointer: '/data/amount' },
      { file: 'b.babel.json', code: 'forbidden-key', pointer: '/meta/ts', reason: 'fixed since' },
    ];
    writeFileSync(join(root, 'babelq-suppressions.json'), `// kept by --prune-suppressions\n${JSON.stringify({ suppressions: entries }, null, 2)}\n`);
    const { result, reports } = lintJson([], root);
    assert.equal(result.status, 1);
    const expired = reports.find((r) => r.file === 'a.babel.json')!.diagnostics.find((d) => d.code === 'forbidden-key')!;
    assert.match(expired.message, /Its suppression expired on 2020-01-31: "old"/);
    assert.deepEqual(codesOf(reports, 'b.babel.json'), [], 'a suppression without a reason still hides its finding');
    assert.deepEqual(codesOf(reports, 'babelq-suppressions.json').sort(), ['stale-suppression', 'unexplained-suppression']);

    const pruned = babelq(['lint', '--prune-suppressions'], root);
    assert.match(pruned.stderr, /1 stale suppression removed/);
    const text = readFileSync(join(root, 'babelq-suppressions.json'), 'utf8');
    assert.ok(text.startsWith('// kept by --prune-suppressions\n'), 'the comment the user wrote stays');
    assert.deepEqual((JSON.parse(text.slice(text.indexOf('{'))) as { suppressions: unknown[] }).suppressions.length, 2);
  });
});

describe('--fix and --fix-dry-run', () => {
  let root: string;
  const examples = join(REPO_ROOT, 'examples', 'bad');
  before(() => {
    root = makeTree({});
    for (const name of readdirSync(examples)) writeFileSync(join(root, name), readFileSync(join(examples, name)));
  });
  after(() => removeTree(root));

  test('--fix on every example under examples/bad: the fixed codes are gone, every other byte stays, a file with syntax errors is untouched', () => {
    const before = new Map(readdirSync(root).map((name) => [name, readFileSync(join(root, name), 'utf8')]));
    // Per file and code: how many findings have a safe fix (SARIF carries only those) and how many have none.
    const preferred = new Map<string, Map<string, { fixable: number; unfixable: number }>>();
    const sarif = JSON.parse(babelq(['lint', '--format', 'sarif', '.'], root).stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[]; fixes?: unknown[] }[] }[] };
    const counts = new Map<string, Map<string, { fixable: number; unfixable: number }>>();
    for (const result of sarif.runs[0].results) {
      const file = result.locations[0].physicalLocation.artifactLocation.uri.split('/').pop()!;
      const byCode = counts.get(file) ?? new Map<string, { fixable: number; unfixable: number }>();
      counts.set(file, byCode);
      const count = byCode.get(result.ruleId) ?? { fixable: 0, unfixable: 0 };
      byCode.set(result.ruleId, count);
      if (result.fixes) count.fixable++;
      else count.unfixable++;
    }
    for (const [file, byCode] of counts) {
      const fixable = new Map([...byCode].filter(([, count]) => count.fixable > 0));
      if (fixable.size > 0) preferred.set(file, fixable);
    }
    assert.ok(preferred.size >= 3, 'several examples have safe fixes');
    const fixed = babelq(['lint', '--fix', '.'], root);
    assert.match(fixed.stderr, /\d+ fix(es)? applied/);
    for (const [name, text] of before) {
      const after = readFileSync(join(root, name), 'utf8');
      if (name === 'contract.babel.json') {
        // The guesses stay the author's call: a trace_id that is no UUID is kept (it ties the fixture to others), and the URN in "urn" replaces the class name in "job" rather than being removed.
        assert.match(after, /"trace_id": "req-5f3a91c2"/);
        assert.match(after, /"job": "urn:babel:orders:created"/);
        assert.doesNotMatch(after, /App\\\\Jobs|"urn":/);
      }
      if (name === 'syntax.babel.json') {
        assert.equal(after, text, 'a file with syntax errors is never touched');
        continue;
      }
      // Only the fixed tokens changed: indentation and the final newline stay.
      assert.equal(after.endsWith('\n'), text.endsWith('\n'), `${name}: final newline kept`);
      for (const line of after.split('\n')) assert.ok(/^( {2})*( ?[^ ]|$)/.test(line), `${name}: indentation kept: ${JSON.stringify(line)}`);
      const relinted = lintJson([name], root).reports[0];
      for (const [code, { unfixable }] of preferred.get(name) ?? []) {
        const remaining = relinted.diagnostics.filter((d) => d.code === code);
        // missing-field's fix adds a placeholder that can be a finding of another code; the fixed findings of a code must be gone, and only those without a safe fix (a trace_id, say) remain.
        assert.ok(remaining.length <= unfixable, `${name}: ${code} is fixed, yet ${remaining.map((d) => d.message).join('; ')}`);
      }
    }
    assert.deepEqual(readdirSync(root).filter((name) => name.includes('babelq-tmp')), [], 'no temporary file is left');
  });

  test('--fix on a fixture that is a symbolic link writes its target and leaves the link a link', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
    const dir = makeTree({ 'shared/base.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      symlinkSync(join(dir, 'shared/base.babel.json'), join(dir, 'linked.babel.json'));
      const fixed = babelq(['lint', '--fix', 'linked.babel.json'], dir);
      assert.match(fixed.stderr, /fix(es)? applied/);
      assert.ok(lstatSync(join(dir, 'linked.babel.json')).isSymbolicLink(), 'the link is still a link');
      assert.ok(!readFileSync(join(dir, 'shared/base.babel.json'), 'utf8').includes('"timestamp"'), 'its target holds the fix');
    } finally {
      removeTree(dir);
    }
  });

  test('a babelq-suppressions.json that links elsewhere is never written through: --suppress-all refuses it, a suppressions file or not', { skip: process.platform === 'win32' && 'needs symbolic links' }, () => {
    const outside = makeTree({ 'profile.txt': 'export PATH=/usr/bin\n' });
    const dir = makeTree({ 'babelq.json': '{ "root": true }', 'a.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      symlinkSync(join(outside, 'profile.txt'), join(dir, 'babelq-suppressions.json'));
      const refused = babelq(['lint', '--suppress-all', '--reason', 'legacy'], dir);
      assert.equal(refused.status, 2);
      // Named from the run's folder, as every other message names a file.
      assert.match(refused.stderr, /cannot add to 'babelq-suppressions\.json': fix its problems first/);
      assert.equal(readFileSync(join(outside, 'profile.txt'), 'utf8'), 'export PATH=/usr/bin\n', 'the link\'s target is untouched');
      // A link to a file elsewhere that is a suppressions file is not read either (it lies outside
      // the project): refused as well, and lint says why, rather than replaced by a baseline that
      // would drop the entries it holds.
      writeFileSync(join(outside, 'profile.txt'), '{ "suppressions": [] }\n');
      const linked = babelq(['lint', '--suppress-all', '--reason', 'legacy'], dir);
      assert.equal(linked.status, 2);
      assert.match(linked.stderr, /cannot add to 'babelq-suppressions\.json': fix its problems first/);
      assert.equal(readFileSync(join(outside, 'profile.txt'), 'utf8'), '{ "suppressions": [] }\n', 'still untouched');
      assert.ok(lstatSync(join(dir, 'babelq-suppressions.json')).isSymbolicLink());
      assert.match(babelq(['lint'], dir).stdout, /babelq-suppressions\.json cannot be read: it is a symbolic link to a file outside the project/);
    } finally {
      removeTree(dir);
      removeTree(outside);
    }
  });

  test('--fix leaves a read-only fixture as it is and says so (exit 2): the rename would have replaced it', { skip: process.platform === 'win32' && 'POSIX modes' }, () => {
    const dir = makeTree({ 'ro.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      chmodSync(join(dir, 'ro.babel.json'), 0o444);
      const fixed = babelq(['lint', '--fix', 'ro.babel.json'], dir);
      assert.equal(fixed.status, 2, fixed.stdout);
      assert.match(fixed.stderr, /cannot write 'ro\.babel\.json': it is read-only/);
      assert.equal(readFileSync(join(dir, 'ro.babel.json'), 'utf8'), FORBIDDEN_TIMESTAMP);
      assert.equal(statSync(join(dir, 'ro.babel.json')).mode & 0o777, 0o444);
      assert.deepEqual(readdirSync(dir).filter((name) => name.includes('babelq-tmp')), [], 'no temporary file is left');
    } finally {
      chmodSync(join(dir, 'ro.babel.json'), 0o644);
      removeTree(dir);
    }
  });

  test('--fix with a read-only fixture among others fixes every other one, before and after it in walk order, and says what it wrote beside what it could not (exit 2)', { skip: process.platform === 'win32' && 'POSIX modes' }, () => {
    const dir = makeTree({ 'a.babel.json': FORBIDDEN_TIMESTAMP, 'm-ro.babel.json': FORBIDDEN_TIMESTAMP, 'z.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      chmodSync(join(dir, 'm-ro.babel.json'), 0o444);
      const fixed = babelq(['lint', '--fix', '--format', 'json', '.'], dir);
      assert.equal(fixed.status, 2, fixed.stdout);
      assert.equal(fixed.stdout, '', 'no report, as for any I/O problem');
      assert.match(fixed.stderr, /cannot write 'm-ro\.babel\.json': it is read-only/);
      assert.match(fixed.stderr, /^babelq: 2 fixes applied/m);
      assert.equal(readFileSync(join(dir, 'm-ro.babel.json'), 'utf8'), FORBIDDEN_TIMESTAMP);
      for (const name of ['a.babel.json', 'z.babel.json']) assert.ok(!readFileSync(join(dir, name), 'utf8').includes('"timestamp"'), `${name} is fixed`);
    } finally {
      chmodSync(join(dir, 'm-ro.babel.json'), 0o644);
      removeTree(dir);
    }
  });

  test('--fix leaves a finding its suppressions file accepts as written; the others are fixed, and the entry is not stale after', () => {
    const dir = makeTree({
      'babelq.json': '{ "root": true }',
      'a.babel.json': FORBIDDEN_TIMESTAMP,
      'babelq-suppressions.json': JSON.stringify({ suppressions: [{ file: 'a.babel.json', code: 'forbidden-key', pointer: '/timestamp', reason: 'the consumer drop path is tested with it' }] }),
    });
    try {
      const fixed = babelq(['lint', '--fix', '--format', 'json', '.'], dir);
      assert.equal(readFileSync(join(dir, 'a.babel.json'), 'utf8'), FORBIDDEN_TIMESTAMP, 'the accepted "timestamp" stays');
      assert.doesNotMatch(fixed.stderr, /fix(es)? applied/);
      const { result, reports } = lintJson(['.'], dir);
      assert.equal(result.status, 0, result.stdout);
      assert.deepEqual(reports.flatMap((report) => report.diagnostics.map((d) => d.code)), [], 'no stale-suppression');
      // An envelope with another finding too: that one is fixed, the accepted one kept.
      writeFileSync(join(dir, 'a.babel.json'), FORBIDDEN_TIMESTAMP.replace('"trace_id"', '"urn": "urn:babel:orders:created",\n  "trace_id"'));
      babelq(['lint', '--fix', 'a.babel.json'], dir);
      const after = readFileSync(join(dir, 'a.babel.json'), 'utf8');
      assert.match(after, /"timestamp": 1749132727000/);
      assert.doesNotMatch(after, /"urn":/);
    } finally {
      removeTree(dir);
    }
  });

  test('--fix run as root keeps the fixture\'s owner and group (a CI container over a checkout mounted from the host)', { skip: (process.getuid?.() !== 0) && 'needs root to give a file away' }, () => {
    const dir = makeTree({ 'owned.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      chownSync(join(dir, 'owned.babel.json'), 4321, 4322);
      const fixed = babelq(['lint', '--fix', 'owned.babel.json'], dir);
      assert.match(fixed.stderr, /fix(es)? applied/);
      assert.ok(!readFileSync(join(dir, 'owned.babel.json'), 'utf8').includes('"timestamp"'));
      const stat = statSync(join(dir, 'owned.babel.json'));
      assert.deepEqual([stat.uid, stat.gid], [4321, 4322]);
    } finally {
      removeTree(dir);
    }
  });

  test('--fix by a member of the fixture\'s group, not its owner, keeps the group (the owner keeps group write access)', { skip: (process.getuid?.() !== 0) && 'needs root to run the fix as another user' }, () => {
    const dir = makeTree({ 'shared.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      chmodSync(dir, 0o777);
      chownSync(join(dir, 'shared.babel.json'), 4321, 4322);
      chmodSync(join(dir, 'shared.babel.json'), 0o664);
      // Another user (4323, primary group 4324) in the file's group 4322: it may write the file, and give the new one that group, not that owner.
      const fixed = spawnSync('setpriv', ['--reuid', '4323', '--regid', '4324', '--groups', '4322', process.execPath, CLI_PATH, 'lint', '--fix', 'shared.babel.json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '' } });
      assert.match(fixed.stderr, /fix(es)? applied/, fixed.stderr);
      assert.ok(!readFileSync(join(dir, 'shared.babel.json'), 'utf8').includes('"timestamp"'));
      const stat = statSync(join(dir, 'shared.babel.json'));
      assert.deepEqual([stat.uid, stat.gid, stat.mode & 0o777], [4323, 4322, 0o664]);
    } finally {
      removeTree(dir);
    }
  });

  test('--fix writes a hard-linked fixture in place: every name to it shows the fix, and a change since the read is still refused', { skip: process.platform === 'win32' && 'POSIX links' }, () => {
    const dir = makeTree({ 'linked.babel.json': FORBIDDEN_TIMESTAMP, 'elsewhere/.keep': '' });
    try {
      linkSync(join(dir, 'linked.babel.json'), join(dir, 'elsewhere/same.babel.json'));
      const inode = statSync(join(dir, 'linked.babel.json')).ino;
      const fixed = babelq(['lint', '--fix', 'linked.babel.json'], dir);
      assert.match(fixed.stderr, /fix(es)? applied/, fixed.stderr);
      const after = readFileSync(join(dir, 'linked.babel.json'), 'utf8');
      assert.ok(!after.includes('"timestamp"'));
      assert.equal(readFileSync(join(dir, 'elsewhere/same.babel.json'), 'utf8'), after, 'the other name holds the fixed text too');
      assert.equal(statSync(join(dir, 'linked.babel.json')).ino, inode);
      assert.equal(statSync(join(dir, 'linked.babel.json')).nlink, 2);
      assert.deepEqual(readdirSync(dir).filter((name) => name.includes('babelq-tmp')), [], 'no temporary file is left');
      // A suppressions file hard-linked to a file elsewhere gets a file of its own: the other name is untouched.
      writeFileSync(join(dir, 'elsewhere/notes.txt'), '{ "suppressions": [] }\n');
      linkSync(join(dir, 'elsewhere/notes.txt'), join(dir, 'babelq-suppressions.json'));
      writeFileSync(join(dir, 'linked.babel.json'), FORBIDDEN_TIMESTAMP);
      babelq(['lint', '--suppress-all', '--reason', 'legacy', 'linked.babel.json'], dir);
      assert.match(readFileSync(join(dir, 'babelq-suppressions.json'), 'utf8'), /"pointer": "\/timestamp"/);
      assert.equal(readFileSync(join(dir, 'elsewhere/notes.txt'), 'utf8'), '{ "suppressions": [] }\n', 'the other name is untouched');
    } finally {
      removeTree(dir);
    }
  });

  test('--fix in a set-group-ID folder keeps the fixture\'s own group, not the folder\'s', { skip: (process.getuid?.() !== 0) && 'needs root to give a folder a group the writer is not in' }, () => {
    const dir = makeTree({ 'team/owned.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      chownSync(join(dir, 'team'), 0, 4325);
      chmodSync(join(dir, 'team'), 0o2775);
      const group = statSync(join(dir, 'team/owned.babel.json')).gid;
      assert.notEqual(group, 4325);
      const fixed = babelq(['lint', '--fix', 'team/owned.babel.json'], dir);
      assert.match(fixed.stderr, /fix(es)? applied/, fixed.stderr);
      assert.ok(!readFileSync(join(dir, 'team/owned.babel.json'), 'utf8').includes('"timestamp"'));
      assert.equal(statSync(join(dir, 'team/owned.babel.json')).gid, group);
    } finally {
      removeTree(dir);
    }
  });

  test('CRLF line breaks and a missing final newline survive --fix', () => {
    const dir = makeTree({ 'crlf.babel.json': FORBIDDEN_TIMESTAMP.replace(/\n/g, '\r\n').trimEnd() });
    try {
      babelq(['lint', '--fix', 'crlf.babel.json'], dir);
      const after = readFileSync(join(dir, 'crlf.babel.json'), 'utf8');
      assert.ok(!/[^\r]\n/.test(after), 'every line break is CRLF');
      assert.ok(!after.endsWith('\n'));
      assert.ok(!after.includes('"timestamp"'));
    } finally {
      removeTree(dir);
    }
  });

  test('--fix writes a fixture whose name is near the 255 bytes a file name may have (the temporary file beside it must fit too)', { skip: process.platform === 'win32' && 'POSIX name limits' }, () => {
    // 255 bytes in all: 'é' is two bytes in UTF-8, so the name is at the limit in bytes, not in characters.
    const name = `${'é'.repeat(60)}${'x'.repeat(255 - 120 - '.babel.json'.length)}.babel.json`;
    assert.equal(Buffer.byteLength(name), 255);
    const dir = makeTree({ [name]: FORBIDDEN_TIMESTAMP });
    try {
      const fixed = babelq(['lint', '--fix', '--format', 'json', '.'], dir);
      assert.equal(fixed.status, 0, fixed.stderr);
      assert.match(fixed.stderr, /^babelq: 1 fix applied$/m);
      assert.ok(!readFileSync(join(dir, name), 'utf8').includes('"timestamp"'));
      assert.deepEqual(readdirSync(dir).filter((entry) => entry !== name), [], 'no temporary file is left');
    } finally {
      removeTree(dir);
    }
  });

  test('--fix-dry-run names each file so git apply takes the diff: ./a, sub/../b and a name with a tab or a quote', { skip: process.platform === 'win32' && 'names with a tab' }, () => {
    const names = ['a.babel.json', 'b.babel.json', 'tab\tc.babel.json', 'quote"d.babel.json'];
    const dir = makeTree(Object.fromEntries(names.map((name) => [name, FORBIDDEN_TIMESTAMP])));
    try {
      mkdirSync(join(dir, 'sub'));
      execFileSync('git', ['init', '-q'], { cwd: dir });
      const dry = babelq(['lint', '--fix-dry-run', './a.babel.json', 'sub/../b.babel.json', './tab\tc.babel.json', 'quote"d.babel.json'], dir);
      assert.match(dry.stdout, /^--- a\/a\.babel\.json\n\+\+\+ b\/a\.babel\.json\n/m);
      assert.match(dry.stdout, /^--- "a\/tab\\tc\.babel\.json"\n\+\+\+ "b\/tab\\tc\.babel\.json"\n/m);
      writeFileSync(join(dir, 'fix.patch'), dry.stdout);
      execFileSync('git', ['apply', 'fix.patch'], { cwd: dir });
      for (const name of names) assert.ok(!readFileSync(join(dir, name), 'utf8').includes('"timestamp"'), `${name} is fixed by git apply`);
    } finally {
      removeTree(dir);
    }
  });

  test('--fix-dry-run of a fixture reached through symbolic links names the file the links lead to, once, so git apply takes the diff as --fix writes it', { skip: process.platform === 'win32' && 'symbolic links' }, () => {
    const dir = makeTree({ 'common/base.json': FORBIDDEN_TIMESTAMP });
    try {
      symlinkSync('common/base.json', join(dir, 'a.babel.json'));
      mkdirSync(join(dir, 'sub'));
      symlinkSync('../common/base.json', join(dir, 'sub/b.babel.json'));
      execFileSync('git', ['init', '-q'], { cwd: dir });
      execFileSync('git', ['add', '.'], { cwd: dir });
      const dry = babelq(['lint', '--fix-dry-run', '.'], dir);
      assert.equal(dry.status, 0, dry.stderr);
      assert.equal(readFileSync(join(dir, 'common/base.json'), 'utf8'), FORBIDDEN_TIMESTAMP);
      assert.equal(dry.stdout.match(/^--- /gm)?.length, 1, dry.stdout);
      assert.match(dry.stdout, /^--- a\/common\/base\.json\n\+\+\+ b\/common\/base\.json\n@@ /);
      writeFileSync(join(dir, 'fix.patch'), dry.stdout);
      execFileSync('git', ['apply', 'fix.patch'], { cwd: dir });
      const applied = readFileSync(join(dir, 'common/base.json'), 'utf8');
      assert.ok(!applied.includes('"timestamp"'));
      assert.ok(lstatSync(join(dir, 'a.babel.json')).isSymbolicLink(), 'the link stays a link');
      // The same as --fix writes: once, through the links.
      execFileSync('git', ['checkout', '--', '.'], { cwd: dir });
      const fixed = babelq(['lint', '--fix', '.'], dir);
      assert.match(fixed.stderr, /^babelq: \d+ fix(es)? applied$/m);
      assert.equal(readFileSync(join(dir, 'common/base.json'), 'utf8').replace(/[0-9a-f-]{36}|\d{13}/g, ''), applied.replace(/[0-9a-f-]{36}|\d{13}/g, ''));
    } finally {
      removeTree(dir);
    }
  });

  test('--fix-dry-run of a fixture outside the current folder says on stderr that git apply cannot take its path here, and where to run instead', () => {
    const dir = makeTree({ 'pkg/b.babel.json': FORBIDDEN_TIMESTAMP, 'other/a.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      execFileSync('git', ['init', '-q'], { cwd: dir });
      const inside = babelq(['lint', '--fix-dry-run', '.'], join(dir, 'pkg'));
      assert.doesNotMatch(inside.stderr, /outside the current folder/, 'no note when every file lies below the current folder');
      const dry = babelq(['lint', '--fix-dry-run', '.', '../other/a.babel.json'], join(dir, 'pkg'));
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stdout, /^--- a\/b\.babel\.json\n/m, 'the diff is still printed');
      assert.match(dry.stdout, /^--- a\/\.\.\/other\/a\.babel\.json\n/m);
      // What the note says is so: git apply refuses the path from here.
      writeFileSync(join(dir, 'fix.patch'), dry.stdout);
      assert.notEqual(spawnSync('git', ['apply', '--check', '../fix.patch'], { cwd: join(dir, 'pkg') }).status, 0);
      assert.match(dry.stderr, /^babelq: the diff names '\.\.\/other\/a\.babel\.json', outside the current folder: git apply and patch refuse a path that leaves it; run --fix-dry-run from a folder that holds every file \(such as the repository's top\)\n/m);
    } finally {
      removeTree(dir);
    }
  });

  test('--fix-dry-run writes nothing and prints a diff that git apply turns into what --fix writes', () => {
    const dir = makeTree({ 'a.babel.json': FORBIDDEN_TIMESTAMP });
    try {
      const dry = babelq(['lint', '--fix-dry-run', 'a.babel.json'], dir);
      assert.equal(readFileSync(join(dir, 'a.babel.json'), 'utf8'), FORBIDDEN_TIMESTAMP);
      assert.match(dry.stdout, /^--- a\/a\.babel\.json\n\+\+\+ b\/a\.babel\.json\n@@ /);
      writeFileSync(join(dir, 'fix.patch'), dry.stdout);
      execFileSync('git', ['apply', 'fix.patch'], { cwd: dir });
      const applied = readFileSync(join(dir, 'a.babel.json'), 'utf8');
      writeFileSync(join(dir, 'b.babel.json'), FORBIDDEN_TIMESTAMP);
      babelq(['lint', '--fix', 'b.babel.json'], dir);
      assert.equal(applied, readFileSync(join(dir, 'b.babel.json'), 'utf8'));
    } finally {
      removeTree(dir);
    }
  });
});
