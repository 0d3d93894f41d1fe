/**
 * whyDifferent: an SDK's bytes against the published ones, in words. A number respelled is "the
 * same number" when the decimals are equal, "the same float64, in other digits" when both are
 * floats to every reader and decode to one double (JDK 17's 9.999999999999999E22 for 1e+23), and
 * "a different number" when a reader sees another value (an integer rounded through a double).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { whyDifferent } from '../../../core/message/difference';

test('the same decimal written otherwise is the same number', () => {
  assert.equal(whyDifferent('{"x":1.50}', '{"x":1.5e0}'), 'x is written 1.5e0, not 1.50 (the same number)');
});

test('two float texts of one double are the same float64, not a different number', () => {
  assert.equal(whyDifferent('{"x":1e+23}', '{"x":9.999999999999999E22}'), 'x is written 9.999999999999999E22, not 1e+23 (the same float64, in other digits)');
  assert.equal(Number('9.999999999999999E22'), 1e23);
});

test('an integer rounded through a double is a different number (PHP, Python and Java read integers exactly)', () => {
  assert.equal(whyDifferent('{"x":9007199254740993}', '{"x":9007199254740992}'), 'x is written 9007199254740992, not 9007199254740993 (a different number)');
  // An integer and a float of the same double: a different value to the readers that keep integers.
  assert.equal(Number('99999999999999991611392'), 1e23);
  assert.equal(whyDifferent('{"x":99999999999999991611392}', '{"x":1e+23}'), 'x is written 1e+23, not 99999999999999991611392 (a different number)');
});

test('a changed value comes first, in the body\'s order; the dropped keys and the added keys are one reason each', () => {
  // Go reads "Attempts" into attempts (case-insensitive), drops the rest it does not know, and writes attempts 1.
  const published = '{"job":"urn:babel:orders:created","urn":"urn:babel:orders:created","trace_id":"t","timestamp":1,"data":{"a":1,"b":"x"},"meta":{"ts":1,"tenant":"acme","source":"s"},"attempts":0,"Attempts":1}';
  const go = '{"job":"urn:babel:orders:created","trace_id":"t","data":{"a":2,"b":"y"},"meta":{},"attempts":1}';
  assert.equal(
    whyDifferent(published, go),
    "data.a is written 2, not 1 (a different number); data.b holds a different string; attempts holds Attempts's value (keys read regardless of case); and 1 more",
  );
  assert.equal(whyDifferent('{"a":1,"b":2,"c":{"d":1}}', '{"a":1,"c":{},"e":3}'), 'drops b and c.d; adds e');
  assert.equal(whyDifferent('{"k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"x":0}', '{"x":1}'), 'x is written 1, not 0 (a different number); drops k1, k2, k3, k4 and 2 more');
});

test('a key read into its namesake in another case is said so, not as a drop and a changed value', () => {
  const published = '{"job":"urn:babel:orders:created","attempts":0,"Attempts":1,"urn":"u"}';
  // Go: `Attempts` read into `attempts` (keys matched regardless of case), `urn` dropped.
  assert.equal(whyDifferent(published, '{"job":"urn:babel:orders:created","attempts":1}'), "attempts holds Attempts's value (keys read regardless of case); drops urn");
  // A reader that drops the unknown `Attempts` and keeps `attempts` as it was dropped it.
  assert.equal(whyDifferent(published, '{"job":"urn:babel:orders:created","attempts":0}'), 'drops Attempts and urn');
  // A changed value that is not the other key's: a changed value and a drop.
  assert.equal(whyDifferent(published, '{"job":"urn:babel:orders:created","attempts":2}'), 'attempts is written 2, not 0 (a different number); drops Attempts and urn');
  // Nested, and the last of several namesakes is the one read.
  assert.equal(
    whyDifferent('{"meta":{"queue":"a","Queue":"b","QUEUE":"c"}}', '{"meta":{"queue":"c"}}'),
    "meta.queue holds meta.QUEUE's value (keys read regardless of case); drops meta.Queue",
  );
});
