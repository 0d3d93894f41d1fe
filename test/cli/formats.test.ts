/** The stylish and SARIF formats, through the built CLI and, for colour, the formatter itself. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { definitionOf } from '../../core/rules/catalogue';
import { CODE_NAMES, type Code } from '../../core/rules/code-names';
import type { FileReport } from '../../cli/diagnostics';
import { formatStylish, shouldUseColor } from '../../cli/formats/stylish';
import { sarifLevel } from '../../cli/formats/sarif';
import { assertCliBuilt, babelq, envelope, FORBIDDEN_TIMESTAMP, makeTree, removeTree, URN_ALIAS_ONLY } from './helpers';

let root: string;

before(() => {
  assertCliBuilt();
  root = makeTree({
    'dir/forbidden.babel.json': FORBIDDEN_TIMESTAMP,
    'dir/alias.babel.json': URN_ALIAS_ONLY,
    'dir/clean.babel.json': envelope(),
    // An information finding only: 10.0 (Python and Java write 10.0, the others 10).
    'dir/with space.babel.json': envelope({ data: '{ "weight": 10.0 }' }),
  });
});

after(() => removeTree(root));

interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; informationUri?: string; rules: { id: string; shortDescription: { text: string }; defaultConfiguration: { level: string } }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[];
    }[];
  }[];
}

describe('sarif', () => {
  let log: SarifLog;
  let status: number | null;

  before(() => {
    const result = babelq(['lint', '--format', 'sarif', 'dir'], root);
    status = result.status;
    log = JSON.parse(result.stdout) as SarifLog;
  });

  test('is SARIF 2.1.0 with one run by babelq and the same exit status as other formats', () => {
    assert.equal(log.version, '2.1.0');
    assert.match(log.$schema, /^https:\/\/.*sarif-schema-2\.1\.0\.json$/);
    assert.equal(log.runs.length, 1);
    assert.equal(log.runs[0].tool.driver.name, 'babelq');
    assert.match(log.runs[0].tool.driver.version, /^\d+\.\d+\.\d+/);
    assert.equal(log.runs[0].tool.driver.informationUri, undefined);
    assert.equal(status, 1);
  });

  test('has one rule per catalogue code with its summary and default level', () => {
    const { rules } = log.runs[0].tool.driver;
    assert.deepEqual(
      rules.map((rule) => rule.id),
      CODE_NAMES,
    );
    for (const rule of rules) {
      const info = definitionOf(rule.id as Code);
      assert.equal(rule.shortDescription.text, info.summary);
      assert.equal(rule.defaultConfiguration.level, sarifLevel(info.severity));
    }
  });

  test('results carry rule, level, message and a 1-based region with a relative forward-slash uri', () => {
    const { results, tool } = log.runs[0];
    const forbidden = results.find((r) => r.ruleId === 'forbidden-key');
    assert.ok(forbidden);
    assert.equal(forbidden.level, 'error');
    assert.equal(tool.driver.rules[forbidden.ruleIndex].id, 'forbidden-key');
    assert.match(forbidden.message.text, /timestamp/);
    assert.equal(forbidden.locations[0].physicalLocation.artifactLocation.uri, 'dir/forbidden.babel.json');
    assert.deepEqual(forbidden.locations[0].physicalLocation.region, { startLine: 13, startColumn: 3, endLine: 13, endColumn: 14 });
    assert.equal(results.find((r) => r.ruleId === 'urn-alias')?.level, 'warning');
  });

  test('information becomes note, and a space in a path is percent-encoded', () => {
    const information = log.runs[0].results.find((r) => r.ruleId === 'encoding-divergence');
    assert.ok(information);
    assert.equal(information.level, 'note');
    assert.equal(information.locations[0].physicalLocation.artifactLocation.uri, 'dir/with%20space.babel.json');
  });

  test('maps every severity to a SARIF level', () => {
    assert.deepEqual(
      (['error', 'warning', 'information', 'hint'] as const).map(sarifLevel),
      ['error', 'warning', 'note', 'note'],
    );
  });
});

describe('stylish', () => {
  test('shows the file, a 1-based line:col, the severity, the code and a summary, without colour in a pipe', () => {
    const result = babelq(['lint', 'dir/forbidden.babel.json', 'dir/alias.babel.json'], root);
    assert.equal(result.status, 1);
    const lines = result.stdout.split('\n');
    assert.equal(lines[0], 'dir/forbidden.babel.json');
    assert.match(lines[1], /^ {2}13:3 {2}error {2}.*timestamp.* {2}forbidden-key$/);
    assert.ok(lines.includes('dir/alias.babel.json'));
    assert.ok(lines.some((line) => /^ {2}2:3 {2}warning {2}.* {2}urn-alias$/.test(line)), result.stdout);
    assert.ok(lines.some((line) => line.startsWith('\u2716 2 problems (1 error, 1 warning, 0 infos, 0 hints) in 2 of ')), result.stdout);
    assert.ok(!result.stdout.includes('\u001b['), 'no escape codes when stdout is not a terminal');
  });

  test('is the default format, and says a clean run checked its files', () => {
    const result = babelq(['lint', 'dir/clean.babel.json'], root);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, '\u2714 1 file checked, no problems\n');
  });

  test('aligns the columns of one file', () => {
    const reports: FileReport[] = [
      {
        file: 'x.babel.json',
        diagnostics: [
          { code: 'urn-alias', severity: 'warning', message: 'short', range: { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } } },
          { code: 'forbidden-key', severity: 'error', message: 'a longer one', range: { start: { line: 11, character: 12 }, end: { line: 11, character: 13 } } },
        ],
      },
    ];
    const [, first, second] = formatStylish(reports, { color: false }).split('\n');
    assert.equal(first, '  2:3    warning  short         urn-alias');
    assert.equal(second, '  12:13  error    a longer one  forbidden-key');
  });

  test('aligns by the columns a terminal gives each character: CJK and emoji two, a combining accent none', () => {
    // Every message takes 17 columns on screen, as the ASCII one does: none is padded.
    const messages = ['key "abcd" is bad', 'key "注文" is bad', 'key "👩‍💻ab" is bad', 'key "🇯🇵ab" is bad', 'key "ﾃｽab" is bad', 'key "cafe\u0301" is bad', 'key "❤\ufe0fab" is bad'];
    const reports: FileReport[] = [
      {
        file: 'x.babel.json',
        diagnostics: messages.map((message) => ({ code: 'payload-schema' as const, severity: 'error' as const, message, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } })),
      },
    ];
    const rows = formatStylish(reports, { color: false }).split('\n').slice(1, 1 + messages.length);
    assert.deepEqual(
      rows,
      messages.map((message) => `  1:1  error  ${message}  payload-schema`),
    );
  });

  test('a file with 300,000 findings is printed, not a call-stack overflow', () => {
    const diagnostics = Array.from({ length: 300_000 }, (_, line) => ({ code: 'duplicate-key' as const, severity: 'error' as const, message: 'Duplicate key', range: { start: { line, character: 2 }, end: { line, character: 5 } } }));
    const lines = formatStylish([{ file: 'dup.babel.json', diagnostics }], { color: false }).split('\n');
    assert.equal(lines[1], '  1:3       error  Duplicate key  duplicate-key');
    assert.equal(lines[300_000], '  300000:3  error  Duplicate key  duplicate-key');
  });

  test('colours only for a terminal without NO_COLOR', () => {
    assert.equal(shouldUseColor(true, {}), true);
    assert.equal(shouldUseColor(true, { NO_COLOR: '1' }), false);
    assert.equal(shouldUseColor(false, {}), false);
    assert.equal(shouldUseColor(true, { NO_COLOR: '' }), true);
  });

  test('FORCE_COLOR forces colour on or off, and a dumb terminal gets none', () => {
    // A CI log that renders colour (GitHub Actions does) asks for it with FORCE_COLOR, as for Node and npm.
    assert.equal(shouldUseColor(false, { FORCE_COLOR: '1' }), true);
    assert.equal(shouldUseColor(false, { FORCE_COLOR: '3' }), true);
    assert.equal(shouldUseColor(false, { FORCE_COLOR: 'true' }), true);
    assert.equal(shouldUseColor(true, { FORCE_COLOR: '1', NO_COLOR: '1' }), true);
    assert.equal(shouldUseColor(true, { FORCE_COLOR: '0' }), false);
    assert.equal(shouldUseColor(true, { FORCE_COLOR: 'false' }), false);
    // Set but empty is colour, as for Node; a value Node does not know is none.
    assert.equal(shouldUseColor(false, { FORCE_COLOR: '' }), true);
    assert.equal(shouldUseColor(true, { FORCE_COLOR: 'yes' }), false);
    assert.equal(shouldUseColor(true, {}), true);
    assert.equal(shouldUseColor(false, {}), false);
    // Emacs' M-x compile and shell run a terminal of TERM=dumb, which shows escape codes as text.
    assert.equal(shouldUseColor(true, { TERM: 'dumb' }), false);
    assert.equal(shouldUseColor(true, { TERM: 'xterm-256color' }), true);
    assert.equal(shouldUseColor(true, { TERM: 'dumb', FORCE_COLOR: '1' }), true);
  });

  test('stylish in a pipe is coloured under FORCE_COLOR=1, not under FORCE_COLOR=0', () => {
    assert.match(babelq(['lint', 'dir'], root, { FORCE_COLOR: '1' }).stdout, /\u001b\[31merror/);
    assert.doesNotMatch(babelq(['lint', 'dir'], root, { FORCE_COLOR: '0' }).stdout, /\u001b/);
  });

  test('a report coloured or not', () => {
    const report: FileReport = { file: 'x', diagnostics: [{ code: 'json-syntax', severity: 'error', message: 'm', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }] };
    assert.match(formatStylish([report], { color: true }), /\u001b\[31merror/);
    assert.doesNotMatch(formatStylish([report], { color: false }), /\u001b/);
  });
});

describe('json', () => {
  test('lists the envelopes, then the babelq.json and suppressions files with findings, then registry.json, then its schema files (docs/diagnostics.md, "Machine-readable output")', () => {
    const tree = makeTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'babelq.json': '{"bogus": 1}',
      'registry.json': '{"schemas": [{"urn": "urn:babel:orders:created", "schema": "s.json", "owner": "orders", "status": "active"}, {"urn": "urn:babel:orders:gone", "schema": "missing.json", "owner": "orders", "status": "active"}]}',
      's.json': '{"type": "object", "properties": {"order_id": {"type": "string", "minimum": 1}}}',
      'a.babel.json': envelope(),
    });
    try {
      const result = babelq(['lint', '--format', 'json', 'a.babel.json'], tree);
      const files = (JSON.parse(result.stdout) as FileReport[]).map((report) => report.file);
      assert.deepEqual(files, ['a.babel.json', 'babelq.json', 'registry.json', 's.json'], result.stdout);
    } finally {
      removeTree(tree);
    }
  });
});
