/**
 * FramingRepair (server/framing.ts): well-formed frames pass through untouched however the bytes
 * are split, and after any malformed frame the next well-formed message is read again.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { FramingRepair } from '../../server/framing';
import { peakRssMb } from '../support/peak-memory';

const SEED = 20260317;

function frame(body: string, length = Buffer.byteLength(body)): Buffer {
  return Buffer.from(`Content-Length: ${length}\r\n\r\n${body}`, 'utf8');
}

/** Feeds `bytes` to a FramingRepair in chunks cut at `cuts` and returns the message bodies that come out. */
function run(bytes: Buffer, cuts: readonly number[] = []): string[] {
  const repair = new FramingRepair();
  const out: Buffer[] = [];
  repair.on('data', (chunk: Buffer) => out.push(chunk));
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) repair.write(bytes.subarray(from, point));
    from = Math.max(from, point);
  }
  const all = Buffer.concat(out);
  const bodies: string[] = [];
  let at = 0;
  while (at < all.length) {
    const end = all.indexOf('\r\n\r\n', at);
    const length = Number(/^Content-Length: (\d+)$/.exec(all.subarray(at, end).toString('latin1'))![1]);
    bodies.push(all.subarray(end + 4, end + 4 + length).toString('utf8'));
    at = end + 4 + length;
  }
  return bodies;
}

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('}Content-Length: 12', 'Content-Length: 5', '\r\n\r\n', '"}Content-Length: 3\r\n\r\n{}', 'é😀', ''),
);
const message = fc
  .record({ id: fc.nat(), method: fc.constantFrom('textDocument/hover', 'textDocument/didChange'), text: fc.array(text, { maxLength: 4 }).map((parts) => parts.join('')) })
  .map(({ id, method, text: t }) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { text: t } }));

describe('FramingRepair', () => {
  test('well-formed frames come through unchanged, however the stream is cut', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 12 }), (messages, cuts) => {
        assert.deepEqual(run(Buffer.concat(messages.map((m) => frame(m))), cuts), messages);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  test('after any malformed frame, the following messages are read again', () => {
    const malformed = fc.oneof(
      fc.constant(Buffer.from('Content-Length: abc\r\n\r\n{"jsonrpc":"2.0"}')),
      fc.constant(Buffer.from('Garbage\r\n\r\n')),
      fc.constant(Buffer.from('X-Other: 1\r\n\r\n{}')),
      fc.constant(Buffer.from('no header at all, not even a blank line')),
      message.map((m) => frame(m, Math.max(0, Buffer.byteLength(m) - 7))), // too short
      message.map((m) => frame(m, Buffer.byteLength(m) + 9)), // too long: runs into the next header
      message.map((m) => Buffer.concat([frame(m, Buffer.byteLength(m) + 500), Buffer.from('\r\n')])), // too long, then a line break
      fc.constant(frame('{bad json')),
    );
    fc.assert(
      fc.property(message, malformed, fc.array(message, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 8 }), (before, broken, after, cuts) => {
        const bodies = run(Buffer.concat([frame(before), broken, ...after.map((m) => frame(m))]), cuts);
        assert.equal(bodies[0], before);
        // Every later well-formed message is there, in order, at the end.
        assert.deepEqual(bodies.slice(-after.length), after, JSON.stringify(bodies));
      }),
      { seed: SEED + 1, numRuns: 2000, includeErrorInReport: true },
    );
  });

  test('a 20 MB body in 64 KB chunks passes in linear time', () => {
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { text: 'x}'.repeat(10 * 1024 * 1024) } });
    const bytes = frame(big);
    const cuts = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => i * 65536);
    const started = performance.now();
    assert.equal(run(bytes, cuts)[0].length, big.length);
    assert.ok(performance.now() - started < 3000);
  });

  test('a frame cut short under a huge Content-Length does not swallow the messages after it', () => {
    fc.assert(
      fc.property(message, fc.nat({ max: 60 }), fc.array(message, { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 8 }), (cut, keep, after, cuts) => {
        // The start of a message, cut anywhere (mid-string, mid-object), under a length it never reaches.
        const truncated = Buffer.from(`Content-Length: 999999999\r\n\r\n${cut.slice(0, keep)}`, 'utf8');
        const bodies = run(Buffer.concat([truncated, ...after.map((m) => frame(m))]), cuts);
        assert.deepEqual(bodies.slice(-after.length), after, JSON.stringify(bodies));
      }),
      { seed: SEED + 2, numRuns: 1000 },
    );
  });

  test('a flood of header lines without their blank line costs linear time, and the next message still arrives', () => {
    const line = Buffer.from('Content-Length: 12\r\n', 'ascii');
    const flood = Buffer.concat(Array.from({ length: 200_000 }, () => line));
    const next = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'shutdown' });
    const bytes = Buffer.concat([flood, frame(next)]);
    // Small chunks, as a pipe may deliver them: each chunk must not make the repair rescan what it held.
    const cuts = Array.from({ length: Math.ceil(bytes.length / 256) }, (_, i) => i * 256);
    const started = performance.now();
    const bodies = run(bytes, cuts);
    const elapsed = performance.now() - started;
    assert.equal(bodies[bodies.length - 1], next);
    assert.ok(elapsed < 2000, `took ${elapsed.toFixed(0)} ms for ${bytes.length} bytes`);
  });
});

test('stdio framing: the peak memory of the class is printed, and bounded', () => {
  const peak = peakRssMb();
  console.log(`stdio framing: peak RSS of the test process ${peak.toFixed(0)} MB`);
  assert.ok(peak < 512, `peak RSS ${peak.toFixed(0)} MB`);
});
