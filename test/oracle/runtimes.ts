/**
 * The real runtimes as the oracle of the byte preview: each SDK's relay (decode, encode again),
 * written here from the facts in the runtime's own language, run as ONE process per batch (every
 * body on stdin, one answer per line on stdout), and compared byte for byte with the encoders of
 * core/encode. A runtime that is not installed is reported as missing, with the reason, and
 * counted; `.ci/run` installs PHP and Go, and JDK 17 and Python 3 are on the build machines.
 *
 * Protocol: a line of base64 (the body's UTF-8 bytes) in; `ok <base64>` (the relayed bytes),
 * `decode <why>` (the decoder failed) or `encode <why>` (the encoder failed) out.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeEnvelope, type SdkName } from '../../core/encode';
import { consumerVerdicts } from '../../core/message/acceptance';
import { parseJson } from '../../core/parse/parser';

const PROGRAMS = join(import.meta.dirname, 'runtimes');

/** One relay answer: the bytes, or which stage failed. */
export type RelayAnswer = { readonly kind: 'ok'; readonly bytes: Buffer } | { readonly kind: 'decode' | 'encode'; readonly why: string };

export interface Runtime {
  readonly sdk: SdkName;
  /** What ran, e.g. `PHP 8.2.36 (php-cli)`. */
  readonly version: string;
  relay(bodies: readonly string[]): RelayAnswer[];
}

export type RuntimeSetup = { readonly ok: true; readonly runtime: Runtime } | { readonly ok: false; readonly sdk: SdkName; readonly missing: string };

/** A temporary directory for compiled programs, removed by `dispose`. */
export class RuntimeWorkspace {
  readonly dir = mkdtempSync(join(tmpdir(), 'babelq-runtimes-'));
  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const TIMEOUT_MS = 120_000;

function run(command: string, args: readonly string[], input?: string, env?: NodeJS.ProcessEnv) {
  return spawnSync(command, args, { input, encoding: 'utf8', maxBuffer: 1 << 30, timeout: TIMEOUT_MS, ...(env ? { env } : {}) });
}

/** The first line a command prints for its version, or why it cannot run. */
function probe(command: string, args: readonly string[]): { ok: true; version: string } | { ok: false; why: string } {
  const result = run(command, args);
  if (result.error) return { ok: false, why: `${command} is not installed (${(result.error as NodeJS.ErrnoException).code ?? result.error.message})` };
  if (result.status !== 0) return { ok: false, why: `${command} ${args.join(' ')} exited with ${result.status}: ${result.stderr.trim().split('\n')[0]}` };
  return { ok: true, version: `${result.stdout}${result.stderr}`.trim().split('\n')[0] };
}

function batch(command: string, args: readonly string[], bodies: readonly string[], env?: NodeJS.ProcessEnv): RelayAnswer[] {
  const input = bodies.map((body) => Buffer.from(body, 'utf8').toString('base64')).join('\n') + '\n';
  const result = run(command, args, input, env);
  if (result.error) throw new Error(`${command} failed: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} exited with ${result.status}: ${result.stderr.slice(0, 2000)}`);
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  if (lines.length !== bodies.length) throw new Error(`${command} answered ${lines.length} of ${bodies.length} bodies: ${result.stderr.slice(0, 2000)}`);
  return lines.map((line) => {
    const space = line.indexOf(' ');
    const kind = space < 0 ? line : line.slice(0, space);
    const rest = space < 0 ? '' : line.slice(space + 1);
    if (kind === 'ok') return { kind, bytes: Buffer.from(rest, 'base64') };
    if (kind === 'decode' || kind === 'encode') return { kind, why: rest };
    throw new Error(`${command} answered an unknown line: ${line.slice(0, 200)}`);
  });
}

/** The Python relay (python3 with the standard json module). */
export function pythonRuntime(): RuntimeSetup {
  const found = probe('python3', ['--version']);
  if (!found.ok) return { ok: false, sdk: 'python', missing: found.why };
  const program = join(PROGRAMS, 'relay.py');
  return { ok: true, runtime: { sdk: 'python', version: found.version, relay: (bodies) => batch('python3', [program], bodies) } };
}

/** The PHP relay (php-cli). */
export function phpRuntime(): RuntimeSetup {
  const found = probe('php', ['-v']);
  if (!found.ok) return { ok: false, sdk: 'php', missing: found.why };
  const program = join(PROGRAMS, 'relay.php');
  return { ok: true, runtime: { sdk: 'php', version: found.version, relay: (bodies) => batch('php', ['-n', program], bodies) } };
}

/** The Go relay, built once into the workspace with the local toolchain (no module downloads). */
export function goRuntime(workspace: RuntimeWorkspace): RuntimeSetup {
  const found = probe('go', ['version']);
  if (!found.ok) return { ok: false, sdk: 'go', missing: found.why };
  const binary = join(workspace.dir, 'go-relay');
  // GOPROXY=off: the relay uses the standard library only, and nothing may be downloaded.
  const env = { ...process.env, GOPROXY: 'off', GO111MODULE: 'off', GOFLAGS: '' };
  const built = run('go', ['build', '-o', binary, join(PROGRAMS, 'relay.go')], undefined, env);
  if (built.status !== 0) return { ok: false, sdk: 'go', missing: `go build failed: ${(built.stderr || built.error?.message || '').trim().split('\n')[0]}` };
  return { ok: true, runtime: { sdk: 'go', version: found.version, relay: (bodies) => batch(binary, [], bodies) } };
}

/** javac's classes for the Java programs, compiled once into the workspace. */
export function compileJava(workspace: RuntimeWorkspace, ...sources: string[]): { ok: true; version: string; classpath: string } | { ok: false; missing: string } {
  const found = probe('java', ['-version']);
  if (!found.ok) return { ok: false, missing: found.why };
  const classes = join(workspace.dir, 'java-classes');
  const compiled = run('javac', ['-encoding', 'UTF-8', '-d', classes, ...sources.map((source) => join(PROGRAMS, source))]);
  if (compiled.error || compiled.status !== 0) return { ok: false, missing: `javac failed: ${(compiled.stderr || compiled.error?.message || '').trim().split('\n')[0]}` };
  return { ok: true, version: found.version, classpath: classes };
}

/** The Java relay (JavaRelay.java, compiled once with javac) on the real JDK. */
export function javaRuntime(workspace: RuntimeWorkspace): RuntimeSetup {
  const java = compileJava(workspace, 'JavaRelay.java', 'DoubleText.java');
  if (!java.ok) return { ok: false, sdk: 'java', missing: java.missing };
  return { ok: true, runtime: { sdk: 'java', version: java.version, relay: (bodies) => batch('java', ['-Xss8m', '-cp', java.classpath, 'JavaRelay'], bodies) } };
}

/** `Double.toString` on the real JVM for each bit pattern (16 hex digits). */
export function javaDoubleTexts(classpath: string, bits: readonly string[]): string[] {
  const result = run('java', ['-Xss8m', '-cp', classpath, 'DoubleText'], bits.join('\n') + '\n');
  if (result.status !== 0) throw new Error(`java DoubleText exited with ${result.status}: ${result.stderr.slice(0, 2000)}`);
  const lines = result.stdout.split('\n');
  lines.pop();
  if (lines.length !== bits.length) throw new Error(`java answered ${lines.length} of ${bits.length} patterns`);
  return lines;
}

/** The Node relay, in this process: JSON.parse, decode()'s urn copy, JSON.stringify (facts part 1, §3). */
export function nodeRelay(body: string): RelayAnswer {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { kind: 'decode', why: (error as Error).message };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const envelope = value as Record<string, unknown>;
    if (!envelope.job && typeof envelope.urn === 'string') envelope.job = envelope.urn;
  }
  try {
    return { kind: 'ok', bytes: Buffer.from(JSON.stringify(value), 'utf8') };
  } catch (error) {
    return { kind: 'encode', why: (error as Error).message };
  }
}

/** One case where the preview and a runtime disagree. */
export interface Difference {
  readonly sdk: SdkName;
  readonly body: string;
  readonly ours: string;
  readonly theirs: string;
}

/**
 * Compares the preview's relay bytes with a runtime's answers, body by body. A body that is not
 * JSON is never previewed or sent (the preview refuses it for every SDK, as lint reports it), even
 * where a decoder tolerates it (Python reads a bare NaN, Java a leading zero): for those the
 * preview must refuse, and what the runtime does is the acceptance model's to say (compareDecodes).
 */
export function compareRelays(sdk: SdkName, bodies: readonly string[], answers: readonly RelayAnswer[]): Difference[] {
  const differences: Difference[] = [];
  bodies.forEach((body, i) => {
    const doc = parseJson(body);
    const ours = encodeEnvelope(doc, sdk);
    const theirs = answers[i];
    if (doc.syntaxProblems.length > 0) {
      if (ours.ok) differences.push({ sdk, body, ours: `ok ${ours.text} (but the body is not JSON)`, theirs: theirs.kind });
      return;
    }
    const oursText = ours.ok ? `ok ${ours.text}` : 'fails';
    const theirsText = theirs.kind === 'ok' ? `ok ${theirs.bytes.toString('utf8')}` : 'fails';
    const same = ours.ok && theirs.kind === 'ok' ? Buffer.from(ours.text, 'utf8').equals(theirs.bytes) : !ours.ok && theirs.kind !== 'ok';
    if (!same) differences.push({ sdk, body, ours: ours.ok ? oursText : `fails: ${ours.error}`, theirs: theirs.kind === 'ok' ? theirsText : `${theirs.kind} fails: ${theirs.why}` });
  });
  return differences;
}

/**
 * Compares the acceptance model's decode verdict with the runtime's decoder: the decoder fails on
 * a body exactly when the model says this consumer's decode fails.
 */
export function compareDecodes(sdk: SdkName, bodies: readonly string[], answers: readonly RelayAnswer[]): Difference[] {
  const differences: Difference[] = [];
  bodies.forEach((body, i) => {
    const verdict = consumerVerdicts(body).find((v) => v.sdk === sdk)!;
    const modelFails = verdict.kind === 'rejects' && verdict.reasons.some((reason) => reason.stage === 'decode');
    const runtimeFails = answers[i].kind === 'decode';
    if (modelFails !== runtimeFails) {
      differences.push({
        sdk,
        body,
        ours: modelFails ? `decode fails: ${verdict.reasons.map((r) => r.message).join('; ')}` : `decodes (${verdict.kind})`,
        theirs: runtimeFails ? `decode fails: ${(answers[i] as { why: string }).why}` : 'decodes',
      });
    }
  });
  return differences;
}
