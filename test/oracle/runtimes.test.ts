/**
 * The byte preview against the real runtimes (test/oracle/runtimes.ts): random envelopes
 * (test/oracle/envelope-texts.ts, seeded) relayed by PHP, Python, Go, Java and Node, each runtime one
 * process for the whole batch, must come back byte for byte as core/encode writes them, and each
 * decoder must fail exactly where the acceptance model says it does. Java: JDK 17's
 * Double.toString on random doubles and on integers in [2^53, 2^63) against java-double.ts.
 * A runtime that is not installed is said in the output and counted as skipped; with
 * BABELQ_REQUIRE_RUNTIMES=1 (set by .ci/run, which installs them) it fails instead.
 * `npm run fuzz` runs the same comparison with more cases (ORACLE_CASES).
 */
import assert from 'node:assert/strict';
import { after, describe, test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { jdk17DoubleToString } from '../../core/encode/java-double';
import { envelopeText, typedEnvelopeText } from './envelope-texts';
import {
  compareDecodes,
  compareRelays,
  compileJava,
  goRuntime,
  javaDoubleTexts,
  javaRuntime,
  nodeRelay,
  phpRuntime,
  pythonRuntime,
  RuntimeWorkspace,
  type Difference,
  type RelayAnswer,
  type RuntimeSetup,
} from './runtimes';

const CASES = Number(process.env.ORACLE_CASES ?? 2500);
const SEED = Number(process.env.ORACLE_SEED ?? 20261201);
const REQUIRE = process.env.BABELQ_REQUIRE_RUNTIMES === '1';

/**
 * The general stream (fields present, absent, odd or mistyped; one in twenty broken), then 60 % as
 * many envelopes whose contract fields have their decoders' types: a typed decoder (Go above all)
 * refuses most of the general stream, and only a relayed body's bytes can be compared.
 */
const bodies = [...fc.sample(envelopeText, { numRuns: CASES, seed: SEED }), ...fc.sample(typedEnvelopeText, { numRuns: Math.ceil(CASES * 0.6), seed: SEED + 2 })];
/** Byte-for-byte comparisons each SDK must reach: 2,000 at the default 2,500 cases a stream. */
const RELAYED_FLOOR = Math.ceil(CASES * 0.8);
const workspace = new RuntimeWorkspace();
after(() => workspace.dispose());

function missing(t: TestContext, what: string, why: string): void {
  const message = `${what} did not run: ${why}`;
  if (REQUIRE) assert.fail(`${message} (BABELQ_REQUIRE_RUNTIMES=1)`);
  t.diagnostic(message);
  t.skip(message);
}

function report(differences: readonly Difference[]): string {
  return differences
    .slice(0, 5)
    .map((d) => `${d.sdk}: ${d.body}\n  preview: ${d.ours.slice(0, 600)}\n  runtime: ${d.theirs.slice(0, 600)}`)
    .join('\n');
}

/** How many bodies a runtime relayed (the bytes compared), said in the output and held to the floor. */
function relayedCount(t: TestContext, version: string, answers: readonly RelayAnswer[], differences: string): number {
  const relayed = answers.filter((answer) => answer.kind === 'ok').length;
  t.diagnostic(`${version}: ${answers.length} cases, ${relayed} relayed and compared byte for byte, ${answers.length - relayed} refused; ${differences}`);
  return relayed;
}

function assertFloor(relayed: number): void {
  assert.ok(relayed >= RELAYED_FLOOR, `only ${relayed} bodies were relayed, fewer than ${RELAYED_FLOOR}: the generators make too few envelopes this runtime decodes`);
}

describe(`the preview's relay bytes equal the real runtimes' (${bodies.length} random envelopes each, seed ${SEED}; at least ${RELAYED_FLOOR} relayed per SDK)`, () => {
  const setups: readonly (() => RuntimeSetup)[] = [phpRuntime, pythonRuntime, () => goRuntime(workspace)];
  for (const setup of setups) {
    const found = setup();
    const name = found.ok ? found.runtime.sdk : found.sdk;
    test(`${name}: every body relayed byte for byte, and its decoder fails exactly where the acceptance model says`, (t) => {
      if (!found.ok) return missing(t, name, found.missing);
      const answers = found.runtime.relay(bodies);
      const relays = compareRelays(name, bodies, answers);
      const decodes = compareDecodes(name, bodies, answers);
      const relayed = relayedCount(t, found.runtime.version, answers, `${relays.length} byte differences, ${decodes.length} decode-verdict differences`);
      assert.equal(relays.length, 0, report(relays));
      assert.equal(decodes.length, 0, report(decodes));
      assertFloor(relayed);
    });
  }

  test('php and go: their decoders fail exactly from the depth the model says (PHP 512 nested arrays and objects, Go 10,001), and read one less', (t) => {
    // The envelope is level 1 and data level 2: data.x holds depth − 2 nested arrays.
    const atDepth = (depth: number) =>
      `{"job":"urn:babel:orders:created","trace_id":"7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b","data":{"x":${'['.repeat(depth - 2)}0${']'.repeat(depth - 2)}},"meta":{"id":"f1e2d3c4-b5a6-4789-90ab-cdef01234567","queue":"orders","lang":"node","schema_version":1,"created_at":1749132727000},"attempts":0}`;
    for (const [setup, limit] of [[phpRuntime, 511], [() => goRuntime(workspace), 10_000]] as const) {
      const found = setup();
      const name = found.ok ? found.runtime.sdk : found.sdk;
      if (!found.ok) {
        missing(t, name, found.missing);
        continue;
      }
      const edges = [atDepth(limit), atDepth(limit + 1)];
      const answers = found.runtime.relay(edges);
      assert.deepEqual(answers.map((answer) => answer.kind === 'ok'), [true, false], `${name} at ${limit} and ${limit + 1} levels: ${JSON.stringify(answers.map((answer) => answer.kind))}`);
      const decodes = compareDecodes(name, edges, answers);
      assert.equal(decodes.length, 0, report(decodes));
    }
  });

  test('java: every body relayed byte for byte (its parser into Long, BigInteger, Double and LinkedHashMap; the SDK writer rules)', (t) => {
    // The program's parser is strict JSON, not the SDK's lenient one, so only the bytes are compared.
    const found = javaRuntime(workspace);
    if (!found.ok) return missing(t, 'java', found.missing);
    const answers = found.runtime.relay(bodies);
    const relays = compareRelays('java', bodies, answers);
    const relayed = relayedCount(t, found.runtime.version, answers, `${relays.length} byte differences`);
    assert.equal(relays.length, 0, report(relays));
    assertFloor(relayed);
  });

  test('node: every body relayed byte for byte (JSON.parse, decode, JSON.stringify in this process), and JSON.parse fails where the model says', (t) => {
    const answers = bodies.map(nodeRelay);
    const relays = compareRelays('node', bodies, answers);
    const decodes = compareDecodes('node', bodies, answers);
    const relayed = relayedCount(t, `Node ${process.version}`, answers, `${relays.length} byte differences, ${decodes.length} decode-verdict differences`);
    assert.equal(relays.length, 0, report(relays));
    assert.equal(decodes.length, 0, report(decodes));
    assertFloor(relayed);
  });
});

describe('Java: Double.toString on the real JDK equals java-double.ts', () => {
  test(`random doubles and integers in [2^53, 2^63) (${CASES * 8} each, seeded)`, (t) => {
    const java = compileJava(workspace, 'DoubleText.java');
    if (!java.ok) return missing(t, 'java', java.missing);
    const random = fc.sample(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { numRuns: CASES * 8, seed: SEED });
    const integers = fc.sample(fc.bigInt({ min: 2n ** 53n, max: 2n ** 63n - 1n }), { numRuns: CASES * 8, seed: SEED + 1 });
    const view = new DataView(new ArrayBuffer(8));
    const patterns: string[] = [];
    const doubles: number[] = [];
    for (const bits of random) {
      view.setBigUint64(0, bits);
      const x = view.getFloat64(0);
      if (!Number.isFinite(x)) continue;
      patterns.push(bits.toString(16).padStart(16, '0'));
      doubles.push(x);
    }
    for (const integer of integers) {
      view.setFloat64(0, Number(integer));
      patterns.push(view.getBigUint64(0).toString(16).padStart(16, '0'));
      doubles.push(Number(integer));
    }
    const texts = javaDoubleTexts(java.classpath, patterns);
    const wrong = doubles.map((x, i) => ({ bits: patterns[i], java: texts[i], ours: jdk17DoubleToString(x) })).filter((row) => row.java !== row.ours);
    t.diagnostic(`${java.version}: ${doubles.length} doubles compared, ${wrong.length} differences`);
    assert.deepEqual(wrong.slice(0, 10), []);
    assert.match(java.version, /"17\./, 'the Java column is JDK 17 text: compare it with JDK 17');
  });
});
