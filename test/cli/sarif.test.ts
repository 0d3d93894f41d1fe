/**
 * `--format sarif` against the SARIF 2.1.0 JSON Schema, and what a dashboard uses beyond the
 * results: each rule's help and catalogue link, fingerprints that survive lines moving, and fixes.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sarifValidator } from '../support/sarif-schema';
import { DEFINITIONS } from '../../core/rules/catalogue';
import { findingFingerprint, FINGERPRINT_KEY, formatSarif, SARIF_MAX_RESULTS, sarifLeftOutNote } from '../../cli/formats/sarif';
import type { FileReport, OutputDiagnostic } from '../../cli/diagnostics';
import { parseText } from '../../core/parse/parser';
import { analyze } from '../../core/rules/analyze';
import { pointerAt } from '../../core/model/json-pointer';
import { catalogueHeadings } from '../../core/language/catalogue-links';
import { assertCliBuilt, babelq, CLI_PATH, envelope, FORBIDDEN_TIMESTAMP, makeTree, REPO_ROOT, removeTree, URN_ALIAS_ONLY } from './helpers';

interface Region {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}
interface SarifResult {
  ruleId: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: Region } }[];
  partialFingerprints?: Record<string, string>;
  fixes?: { description: { text: string }; artifactChanges: { artifactLocation: { uri: string }; replacements: { deletedRegion: Region; insertedContent: { text: string } }[] }[] }[];
}
interface SarifRule {
  id: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: string };
}
interface SarifLog {
  runs: { tool: { driver: { rules: SarifRule[] } }; results: SarifResult[] }[];
}


/** Two envelopes with findings that have preferred fixes (urn-alias, forbidden-key) and one without (encoding-divergence on "Attempts", carrying case-mismatch). */
const MANY_FINDINGS = envelope({ jobKey: 'urn', extra: ',\n  "timestamp": 1749132727000,\n  "Attempts": 1' });

let root: string;
function lintSarif(...paths: string[]): SarifLog {
  const result = babelq(['lint', '--format', 'sarif', ...paths], root);
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  return JSON.parse(result.stdout) as SarifLog;
}

before(() => {
  assertCliBuilt();
  root = makeTree({ 'a/many.babel.json': MANY_FINDINGS, 'a/forbidden.babel.json': FORBIDDEN_TIMESTAMP, 'a/alias.babel.json': URN_ALIAS_ONLY, 'a/bad.babel.json': '{"job": ' });
});
after(() => removeTree(root));

describe('sarif', () => {
  test('validates against the SARIF 2.1.0 schema, with results, fingerprints and fixes in it', () => {
    const text = babelq(['lint', '--format', 'sarif', 'a'], root).stdout;
    const log = JSON.parse(text) as SarifLog;
    assert.ok(log.runs[0].results.some((result) => result.fixes), 'the log under test has fixes');
    const validate = sarifValidator();
    assert.equal(validate(log), true, JSON.stringify(validate.errors, null, 2));
    // The validator is not vacuous: a result without a message is refused.
    const broken = JSON.parse(text) as SarifLog;
    delete (broken.runs[0].results[0] as Partial<SarifResult>).message;
    assert.equal(validate(broken), false);
  });

  test('each rule has the catalogue entry as help and a link to its entry in the repository\'s catalogue at the release tag', () => {
    const { rules } = lintSarif('a/alias.babel.json').runs[0].tool.driver;
    const catalogue = readFileSync(join(REPO_ROOT, 'docs', 'diagnostics.md'), 'utf8');
    // Every anchor GitHub gives a heading of the catalogue, as it slugs them (repeats numbered).
    const anchors = new Map(catalogueHeadings(catalogue).map((heading) => [heading.anchor, heading.text]));
    const { version, repository } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };
    const repositoryUrl = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    assert.equal(rules.length, DEFINITIONS.length);
    for (const [index, rule] of rules.entries()) {
      const { docs } = DEFINITIONS[index];
      assert.equal(rule.fullDescription.text, `${docs.fires} ${docs.instead}`);
      assert.ok(rule.help.text.startsWith(`Fires when: ${docs.fires}`), rule.id);
      assert.ok(rule.help.markdown.includes(docs.example.clean), rule.id);
      // The help's Markdown is the catalogue's own text for the code.
      assert.ok(catalogue.includes(rule.help.markdown), `${rule.id}: help.markdown is not the catalogue's entry`);
      assert.ok(rule.helpUri, rule.id);
      const url = new URL(rule.helpUri);
      assert.equal(`${url.origin}${url.pathname}`, `${repositoryUrl}/blob/v${version}/docs/diagnostics.md`, rule.id);
      assert.equal(anchors.get(url.hash.slice(1)), rule.id, `${rule.helpUri}: GitHub gives that anchor to the heading of ${rule.id}`);
    }
  });

  test('fingerprints stay when lines move above a finding, and differ between findings', () => {
    const before = lintSarif('a/many.babel.json').runs[0].results;
    // The same envelope, reformatted onto different lines: two blank lines at the top and the
    // meta block collapsed.
    const moved = `\n\n${MANY_FINDINGS.replace(/"meta": \{[^}]*\}/, (meta) => meta.replace(/\s*\n\s*/g, ' '))}`;
    writeFileSync(join(root, 'a', 'moved.babel.json'), moved);
    const after = lintSarif('a/moved.babel.json').runs[0].results;
    assert.deepEqual(after.map((result) => result.ruleId), before.map((result) => result.ruleId));
    assert.notDeepEqual(after.map((result) => result.locations[0].physicalLocation.region.startLine), before.map((result) => result.locations[0].physicalLocation.region.startLine));
    assert.deepEqual(after.map((result) => result.partialFingerprints), before.map((result) => result.partialFingerprints));
    const prints = before.map((result) => result.partialFingerprints?.[FINGERPRINT_KEY]);
    assert.ok(prints.every((print) => typeof print === 'string' && /^[0-9a-f]{32}:\d+$/.test(print)), String(prints));
    assert.equal(new Set(prints).size, prints.length);
  });

  test('a message quoting a key with a line break, an ESC or U+202E carries their escapes, as the editor and the other formats show them; the fingerprint is that of the finding', () => {
    const text = envelope({ extra: ',\n  "x\\n\\u001b\\u202ey": 1' });
    writeFileSync(join(root, 'a', 'hostile.babel.json'), text);
    const results = lintSarif('a/hostile.babel.json').runs[0].results;
    const quoting = results.filter((result) => result.message.text.includes('x\\n\\u001b\\u202ey'));
    assert.ok(quoting.length > 0, results.map((result) => result.message.text).join(' | '));
    for (const result of results) {
      const texts = [result.message.text, ...((result as { relatedLocations?: { message: { text: string } }[] }).relatedLocations ?? []).map((related) => related.message.text), ...(result.fixes ?? []).map((fix) => fix.description.text)];
      for (const text of texts) assert.doesNotMatch(text, /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/, JSON.stringify(text));
    }
    // Hashed from the message as core words it, so no fingerprint a dashboard holds changes.
    const doc = parseText(text);
    const findings = analyze(doc);
    assert.deepEqual(results.map((result) => result.partialFingerprints?.[FINGERPRINT_KEY]), findings.map((finding) => findingFingerprint(finding.code, pointerAt(doc, finding.offset), finding.message, 1)));
  });

  test("registry.json's own findings are fingerprinted too", () => {
    const registryRoot = makeTree({
      'registry.json': '{"schemas": [{"urn": "urn:babel:orders:created", "schema": "missing.json", "owner": "orders", "status": "active"}]}',
      'f.babel.json': envelope(),
    });
    try {
      const result = babelq(['lint', '--format', 'sarif', 'f.babel.json'], registryRoot);
      const results = (JSON.parse(result.stdout) as SarifLog).runs[0].results;
      const fromRegistry = results.filter((r) => r.locations[0].physicalLocation.artifactLocation.uri === 'registry.json');
      assert.ok(fromRegistry.length > 0, result.stdout);
      for (const r of fromRegistry) assert.match(r.partialFingerprints?.[FINGERPRINT_KEY] ?? '', /^[0-9a-f]{32}:\d+$/);
    } finally {
      removeTree(registryRoot);
    }
  });

  test("babelq.json's config errors and compat's breaking changes are fingerprinted too, and keep them when lines move", () => {
    const oldSchema = '{"type": "object", "properties": {"order_id": {"type": "integer"}, "note": {"type": "string"}}}';
    const newSchema = '{"type": "object", "required": ["note"], "properties": {"order_id": {"type": "string"}, "note": {"type": "string"}}}';
    const tree = (blankLines: string) => makeTree({
      'babelq.json': `${blankLines}{"bogus": 1, "severity": {"no-such-code": "off"}}`,
      'f.babel.json': envelope(),
      'old.json': oldSchema,
      'new.json': `${blankLines}${newSchema}`,
    });
    const prints = (dir: string) => {
      const lint = (JSON.parse(babelq(['lint', '--format', 'sarif', '.'], dir).stdout) as SarifLog).runs[0].results.filter((r) => r.ruleId === 'config-error');
      const compat = (JSON.parse(babelq(['compat', 'old.json', 'new.json', '--format', 'sarif'], dir).stdout) as SarifLog).runs[0].results;
      assert.equal(lint.length, 2, JSON.stringify(lint));
      assert.equal(compat.length, 2, JSON.stringify(compat));
      return [...lint, ...compat].map((r) => ({ line: r.locations[0].physicalLocation.region.startLine, print: r.partialFingerprints?.[FINGERPRINT_KEY] }));
    };
    const here = tree('');
    const moved = tree('\n\n\n');
    try {
      const before = prints(here);
      const after = prints(moved);
      for (const { print } of before) assert.match(print ?? '', /^[0-9a-f]{32}:\d+$/);
      assert.equal(new Set(before.map(({ print }) => print)).size, before.length);
      assert.ok(after.every(({ line }, index) => line === before[index].line + 3), JSON.stringify({ before, after }));
      assert.deepEqual(after.map(({ print }) => print), before.map(({ print }) => print));
    } finally {
      removeTree(here);
      removeTree(moved);
    }
  });

  test('a run is kept within the 25,000 results GitHub code scanning accepts: the least severe are left out, and the log says how many', () => {
    const finding = (severity: OutputDiagnostic['severity'], line: number): OutputDiagnostic => ({ code: 'float-currency', severity, message: `finding ${line}`, range: { start: { line, character: 0 }, end: { line, character: 1 } } });
    const findings = (severity: OutputDiagnostic['severity'], count: number) => Array.from({ length: count }, (_, line) => finding(severity, line));
    const reports: FileReport[] = [
      { file: 'warnings.babel.json', diagnostics: findings('warning', 13_000) },
      { file: 'errors.babel.json', diagnostics: findings('error', 13_000) },
      { file: 'infos.babel.json', diagnostics: findings('information', 10) },
    ];
    const log = JSON.parse(formatSarif(reports, { cwd: root, version: '0.0.0' })) as SarifLog & { runs: { invocations?: { executionSuccessful: boolean; toolExecutionNotifications?: { level: string; message: { text: string } }[] }[] }[] };
    assert.equal(SARIF_MAX_RESULTS, 25_000);
    assert.ok(sarifValidator()(log));
    const [run] = log.runs;
    assert.equal(run.results.length, SARIF_MAX_RESULTS);
    const uris = run.results.map((result) => result.locations[0].physicalLocation.artifactLocation.uri);
    assert.equal(uris.filter((uri) => uri === 'errors.babel.json').length, 13_000);
    assert.equal(uris.filter((uri) => uri === 'warnings.babel.json').length, 12_000);
    assert.equal(uris.filter((uri) => uri === 'infos.babel.json').length, 0);
    // The results kept stay in the order of the reports, each with the fingerprint it has in a full log.
    assert.equal(uris[0], 'warnings.babel.json');
    assert.equal(uris[SARIF_MAX_RESULTS - 1], 'errors.babel.json');
    assert.equal(run.results[0].partialFingerprints?.[FINGERPRINT_KEY], findingFingerprint('float-currency', '', 'finding 0', 1));
    const notifications = run.invocations?.[0].toolExecutionNotifications ?? [];
    assert.equal(run.invocations?.[0].executionSuccessful, true);
    assert.equal(notifications.length, 1);
    assert.match(notifications[0].message.text, /^1,010 results were left out .*25,000/);
    // Within the limit, no invocation is written.
    const small = JSON.parse(formatSarif(reports.slice(2), { cwd: root, version: '0.0.0' })) as { runs: { invocations?: unknown; results: unknown[] }[] };
    assert.equal(small.runs[0].results.length, 10);
    assert.equal(small.runs[0].invocations, undefined);
  });

  test('babelq lint --format sarif says on stderr how many findings a log of more than 25,000 left out', () => {
    // 2 × 12,999 duplicate-key errors (every later copy of "x").
    const duplicates = Array.from({ length: 13_000 }, () => '"x": 1').join(', ');
    const many = makeTree({ 'a.babel.json': envelope({ data: `{ ${duplicates} }` }), 'b.babel.json': envelope({ data: `{ ${duplicates} }` }) });
    try {
      const sarifPath = join(many, 'out.sarif');
      const run = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI_PATH}" lint --format sarif a.babel.json b.babel.json > out.sarif`], { cwd: many, encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, /^babelq: 998 results were left out of this SARIF log/m);
      const log = JSON.parse(readFileSync(sarifPath, 'utf8')) as SarifLog;
      assert.equal(log.runs[0].results.length, SARIF_MAX_RESULTS);
    } finally {
      removeTree(many);
    }
  });

  test('babelq compat --format sarif says on stderr, as lint does, how many breaking changes a log of more than 25,000 left out', () => {
    // 25,010 properties whose type changes: one breaking change each.
    const properties = (type: string) => Object.fromEntries(Array.from({ length: SARIF_MAX_RESULTS + 10 }, (_, index) => [`p${index}`, { type }]));
    const many = makeTree({ 'old.json': JSON.stringify({ type: 'object', properties: properties('string') }), 'new.json': JSON.stringify({ type: 'object', properties: properties('integer') }) });
    try {
      const run = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI_PATH}" compat --format sarif old.json new.json > out.sarif`], { cwd: many, encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 1, run.stderr);
      assert.equal(run.stderr, `babelq: ${sarifLeftOutNote(10)}\n`);
      const log = JSON.parse(readFileSync(join(many, 'out.sarif'), 'utf8')) as SarifLog;
      assert.equal(log.runs[0].results.length, SARIF_MAX_RESULTS);
      // Within the limit, nothing is said.
      const few = spawnSync(process.execPath, [CLI_PATH, 'compat', '--format', 'sarif', 'old.json', 'old.json'], { cwd: many, encoding: 'utf8', timeout: 60_000 });
      assert.equal(few.status, 0, few.stderr);
      assert.equal(few.stderr, '');
    } finally {
      removeTree(many);
    }
  });

  test('a finding with a preferred fix carries it; applying the replacements removes the finding', () => {
    const results = lintSarif('a/many.babel.json').runs[0].results;
    const byCode = new Map(results.map((result) => [result.ruleId, result]));
    assert.ok(byCode.has('encoding-divergence'));
    assert.equal(byCode.get('encoding-divergence')?.fixes, undefined, 'encoding-divergence (and the case-mismatch it carries, beside "attempts") offers no preferred fix');
    for (const code of ['urn-alias', 'forbidden-key']) {
      const result = byCode.get(code);
      assert.ok(result?.fixes?.length === 1, `${code} has one fix`);
      const [change] = result.fixes[0].artifactChanges;
      assert.equal(change.artifactLocation.uri, 'a/many.babel.json');
      const fixed = applyReplacements(MANY_FINDINGS, change.replacements);
      writeFileSync(join(root, 'a', `fixed-${code}.babel.json`), fixed);
      const remaining = lintSarif(`a/fixed-${code}.babel.json`).runs[0].results.map((r) => r.ruleId);
      assert.ok(!remaining.includes(code), `${code} is gone after its fix: ${remaining.join(', ')}`);
      assert.equal(remaining.length, results.length - 1);
    }
  });
});

/** Applies SARIF replacements (1-based lines and UTF-16 columns) to a text, last first. */
function applyReplacements(text: string, replacements: readonly { deletedRegion: Region; insertedContent: { text: string } }[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (line: number, column: number) => lineStarts[line - 1] + column - 1;
  const edits = replacements.map((r) => ({ start: offset(r.deletedRegion.startLine, r.deletedRegion.startColumn), end: offset(r.deletedRegion.endLine, r.deletedRegion.endColumn), text: r.insertedContent.text }));
  edits.sort((a, b) => b.start - a.start);
  let result = text;
  for (const edit of edits) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}
