/**
 * getProperty (core/model/tree.ts) answers from an index once a large object has been looked up
 * in often: the answers must be the scan's (the last copy with a value, else the last without),
 * and a rule's lookup per finding must keep analysis linear in the file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getProperty, type ObjectNode, type PropertyNode } from '../../../core/model/tree';
import { analyzeText } from '../../../core/rules/analyze';
import { seededRandom } from '../../support/seeded-random';

/** The scan getProperty always did: the oracle. */
function scanned(properties: readonly PropertyNode[], key: string): PropertyNode | undefined {
  let valueless: PropertyNode | undefined;
  for (let i = properties.length - 1; i >= 0; i--) {
    if (properties[i].key !== key) continue;
    if (properties[i].value) return properties[i];
    valueless ??= properties[i];
  }
  return valueless;
}

test('a large object looked up many times answers as the scan does: repeated keys, keys without values, a list that grows after it was indexed', () => {
  const next = seededRandom(7);
  for (let round = 0; round < 200; round++) {
    const object = { kind: 'object', offset: 0, end: 0, parent: undefined, property: undefined, properties: [] as PropertyNode[], closed: true } as ObjectNode;
    const add = () => {
      const key = `k${Math.floor(next() * 40)}`;
      const value = next() < 0.3 ? undefined : ({ kind: 'null', offset: 0, end: 0, parent: object, property: undefined } as const);
      object.properties.push({ key, keyOffset: 0, keyEnd: 0, colonOffset: -1, value, parent: object } as PropertyNode);
    };
    const size = 1 + Math.floor(next() * 150);
    for (let i = 0; i < size; i++) add();
    for (let lookup = 0; lookup < 30; lookup++) {
      if (next() < 0.1) add();
      const key = `k${Math.floor(next() * 45)}`;
      assert.equal(getProperty(object, key), scanned(object.properties, key), `round ${round}, lookup ${lookup}, ${key}`);
    }
  }
});

test('a finding per top-level key beside a meta of as many keys: four times the keys cost about four times the analysis, not sixteen (meta was scanned for each finding)', () => {
  const envelope = (count: number) => {
    const meta = Array.from({ length: count }, (_, i) => `, "m${i}": 1`).join('');
    const extra = Array.from({ length: count }, () => '"queue": "x"').join(',\n  ');
    return `{\n  "job": "urn:babel:orders:created",\n  "trace_id": "0b4c8f8e-0d1a-4b8e-9f3e-6a2b1c3d4e5f",\n  "data": {},\n  "meta": {"id": "0b4c8f8e-0d1a-4b8e-9f3e-6a2b1c3d4e5f", "queue": "orders", "lang": "node", "created_at": 1749132727000, "schema_version": 1${meta}},\n  "attempts": 0,\n  ${extra}\n}\n`;
  };
  const time = (text: string) => {
    const started = performance.now();
    analyzeText(text);
    return performance.now() - started;
  };
  time(envelope(2_000));
  const small = Math.min(time(envelope(5_000)), time(envelope(5_000)));
  const large = time(envelope(20_000));
  assert.ok(large < 8 * small + 50, `5,000 keys ${small.toFixed(0)} ms, 20,000 keys ${large.toFixed(0)} ms`);
});
