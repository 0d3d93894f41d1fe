/**
 * Quick fixes: for each fix, the document text after applying it must parse as JSON and must no
 * longer carry the fixed code.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { codeActions, type CoreCodeAction } from '../../../core/language/code-actions';
import { analyze } from '../../../core/rules/analyze';
import type { Code } from '../../../core/rules/code-names';
import { applyEdits } from '../../../core/model/edits';
import type { Fresh } from '../../../core/model/fresh';
import { parseJson } from '../../../core/parse/parser';

const NOW = 1764400000000;
let counter = 0;
const fresh: Fresh = {
  uuid: () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
  now: () => NOW,
};

const BASE = {
  job: 'urn:babel:orders:created',
  trace_id: '7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b',
  data: { order_id: 1042 },
  meta: { id: 'f1e2d3c4-b5a6-4789-90ab-cdef01234567', queue: 'orders', lang: 'php', schema_version: 1, created_at: 1749132727000 },
  attempts: 0,
};

/** A pretty-printed envelope with `patch` applied (undefined values delete keys). */
function envelope(patch: (e: any) => void, indent: number | string = 2): string {
  const copy = structuredClone(BASE) as any;
  patch(copy);
  return JSON.stringify(copy, null, indent) + '\n';
}

function actionsFor(text: string, code: Code): CoreCodeAction[] {
  const doc = parseJson(text);
  const diagnostics = analyze(doc).filter((d) => d.code === code);
  assert.ok(diagnostics.length > 0, `expected ${code} in:\n${text}`);
  return codeActions(doc, diagnostics, fresh);
}

/** Applies the action titled `title` (or the only/preferred one) and checks the result. */
function applyFix(text: string, code: Code, title?: RegExp): { fixed: string; action: CoreCodeAction } {
  const actions = actionsFor(text, code);
  const action = title ? actions.find((a) => title.test(a.title)) : (actions.find((a) => a.isPreferred) ?? actions[0]);
  assert.ok(action, `no fix ${title ?? ''} for ${code}; have: ${actions.map((a) => a.title).join(' | ')}`);
  const fixed = applyEdits(text, action.edits);
  assert.doesNotThrow(() => JSON.parse(fixed), `fix "${action.title}" produced invalid JSON:\n${fixed}`);
  const remaining = analyze(parseJson(fixed)).filter((d) => d.code === code);
  assert.equal(remaining.length, diagnosticsCount(text, code) - 1, `"${action.title}" left ${code}:\n${fixed}`);
  return { fixed, action };
}

function diagnosticsCount(text: string, code: Code): number {
  return analyze(parseJson(text)).filter((d) => d.code === code).length;
}

describe('quick fixes', () => {
  test('remove a forbidden meta key', () => {
    const { fixed, action } = applyFix(envelope((e) => (e.meta.ts = 1749132727)), 'forbidden-key');
    assert.equal(action.isPreferred, true);
    assert.equal(action.title, 'Remove forbidden key "meta.ts"');
    assert.deepEqual(JSON.parse(fixed).meta, BASE.meta);
  });

  test('remove a forbidden key that is the first, middle or last property', () => {
    for (const position of ['first', 'middle', 'last']) {
      const text = envelope((e) => {
        const meta = { ...e.meta };
        e.meta = position === 'first' ? { source: 'php', ...meta } : position === 'last' ? { ...meta, source: 'php' } : { id: meta.id, source: 'php', ...meta };
      });
      const { fixed } = applyFix(text, 'forbidden-key');
      assert.deepEqual(JSON.parse(fixed).meta, BASE.meta, position);
    }
  });

  test('move a top-level timestamp (seconds) into meta.created_at in ms when created_at is absent', () => {
    const text = envelope((e) => {
      delete e.meta.created_at;
      e.timestamp = 1749132727;
    });
    const { fixed, action } = applyFix(text, 'forbidden-key', /^Move/);
    assert.equal(action.isPreferred, true);
    const parsed = JSON.parse(fixed);
    assert.equal(parsed.meta.created_at, 1749132727000);
    assert.equal('timestamp' in parsed, false);
    assert.equal(diagnosticsCount(fixed, 'missing-field'), 0);
  });

  test('move an ISO timestamp into meta.created_at', () => {
    const text = envelope((e) => {
      delete e.meta.created_at;
      e.timestamp = '2025-06-05T14:12:07Z';
    });
    const { fixed } = applyFix(text, 'forbidden-key', /^Move/);
    assert.equal(JSON.parse(fixed).meta.created_at, Date.UTC(2025, 5, 5, 14, 12, 7));
  });

  test('with created_at present, a timestamp is only removed', () => {
    const actions = actionsFor(envelope((e) => (e.timestamp = 1749132727)), 'forbidden-key');
    assert.deepEqual(actions.map((a) => a.title), ['Remove forbidden key "timestamp"']);
  });

  test('rename urn to job; remove urn beside job; fix a blank job beside urn', () => {
    const alone = applyFix(envelope((e) => {
      e.urn = e.job;
      delete e.job;
    }), 'urn-alias');
    assert.equal(JSON.parse(alone.fixed).job, BASE.job);

    const beside = applyFix(envelope((e) => (e.urn = 'urn:babel:orders:other')), 'urn-alias');
    assert.deepEqual(Object.keys(JSON.parse(beside.fixed)), Object.keys(BASE));

    const blank = applyFix(envelope((e) => {
      e.job = '';
      e.urn = 'urn:babel:orders:created';
    }), 'urn-alias');
    assert.equal(JSON.parse(blank.fixed).job, 'urn:babel:orders:created');
    assert.equal(diagnosticsCount(blank.fixed, 'empty-urn'), 0);
  });

  for (const [field, expected] of [
    ['trace_id', '00000000-0000-4000-8000-'],
    ['attempts', 0],
    ['data', {}],
    ['meta.id', '00000000-0000-4000-8000-'],
    ['meta.schema_version', 1],
    ['meta.created_at', NOW],
    ['meta.queue', 'default'],
    ['meta.lang', 'node'],
  ] as const) {
    test(`add missing ${field}`, () => {
      const text = envelope((e) => {
        if (field.startsWith('meta.')) delete e.meta[field.slice(5)];
        else delete e[field];
      });
      const { fixed } = applyFix(text, 'missing-field');
      const parsed = JSON.parse(fixed);
      const value = field.startsWith('meta.') ? parsed.meta[field.slice(5)] : parsed[field];
      if (typeof expected === 'string' && expected.endsWith('-')) assert.ok(String(value).startsWith(expected), String(value));
      else assert.deepEqual(value, expected);
      // An empty data object is valid, but PHP (this envelope's meta.lang) re-emits it as [], which
      // the other consumers reject: consumer-rejects says so.
      const remaining = analyze(parseJson(fixed)).filter((d) => !(field === 'data' && d.code === 'consumer-rejects'));
      assert.deepEqual(remaining, [], fixed);
    });
  }

  test('add a whole missing meta block, and a field into an empty object', () => {
    const noMeta = applyFix(envelope((e) => delete e.meta), 'missing-field');
    assert.equal(JSON.parse(noMeta.fixed).meta.schema_version, 1);
    const compact = JSON.stringify({ ...BASE, meta: {} });
    const doc = parseJson(compact);
    const diagnostics = analyze(doc).filter((d) => d.code === 'missing-field');
    assert.equal(diagnostics.length, 5);
    let text = compact;
    // Apply each fix in turn on the updated text, as a user would.
    for (let i = 0; i < 5; i++) text = applyFix(text, 'missing-field').fixed;
    assert.deepEqual(analyze(parseJson(text)).map((d) => d.code), []);
  });

  test('missing dead_letter fields take the envelope queue and attempts', () => {
    const text = envelope((e) => {
      e.attempts = 3;
      e.dead_letter = { reason: 'failed', failed_at: 1749132730000, attempts: 3 };
    });
    const { fixed } = applyFix(text, 'missing-field');
    assert.equal(JSON.parse(fixed).dead_letter.original_queue, 'orders');
  });

  test('a dead letter\'s added attempts copies the envelope\'s only when JSON writes it back as an integer literal', () => {
    const text = envelope((e) => (e.dead_letter = { reason: 'failed', failed_at: 1749132730000, original_queue: 'orders' })).replace('"attempts": 0,', '"attempts": 123456789012345678901234567890,');
    assert.match(text, /"attempts": 1234567890/);
    const { fixed } = applyFix(text, 'missing-field');
    assert.match(fixed, /"original_queue": "orders",\n {4}"attempts": 0\n/);
    assert.equal(diagnosticsCount(fixed, 'wrong-type'), 0, fixed);
  });

  test('trim and lowercase a URN when that makes it valid', () => {
    const { fixed, action } = applyFix(envelope((e) => (e.job = ' URN:Babel:Orders:Created ')), 'invalid-urn');
    assert.equal(JSON.parse(fixed).job, 'urn:babel:orders:created');
    assert.equal(action.isPreferred, true);
    assert.deepEqual(actionsFor(envelope((e) => (e.job = 'App\\Jobs\\ProcessOrder')), 'invalid-urn'), []);
  });

  test('convert created_at seconds to ms, and micro/nanoseconds down', () => {
    const { fixed } = applyFix(envelope((e) => (e.meta.created_at = 1749132727)), 'timestamp-unit');
    assert.equal(JSON.parse(fixed).meta.created_at, 1749132727000);
    const micro = applyFix(envelope((e) => (e.meta.created_at = 1749132727000123)), 'timestamp-unit', /microseconds/);
    assert.equal(JSON.parse(micro.fixed).meta.created_at, 1749132727000);
  });

  test('rename a case-mismatched key to the known one, unless that key exists', () => {
    // case-mismatch is carried by the finding shown on its key (missing-field, encoding-divergence),
    // whose quick fixes include the carried one's.
    const carrying = (text: string) => {
      const doc = parseJson(text);
      const diagnostics = analyze(doc).filter((d) => d.related?.some((r) => r.code === 'case-mismatch'));
      assert.ok(diagnostics.length > 0, `expected case-mismatch in:\n${text}`);
      return codeActions(doc, diagnostics, fresh);
    };
    const text = envelope((e) => {
      e.Attempts = e.attempts;
      delete e.attempts;
    });
    const [rename] = carrying(text).filter((a) => a.isPreferred);
    assert.equal(rename.title, 'Rename "Attempts" to "attempts"');
    const fixed = applyEdits(text, rename.edits);
    assert.equal(JSON.parse(fixed).attempts, 0);
    assert.deepEqual(analyze(parseJson(fixed)).filter((d) => d.code === 'case-mismatch' || d.code === 'missing-field' || d.related?.length), []);
    assert.deepEqual(carrying(envelope((e) => (e.JOB = 'x'))), []);
    assert.deepEqual(carrying(envelope((e) => (e.meta.TS = 1))), [], 'never onto a forbidden key');
    // Offered, but left out of fix all, where the value is one the field does not take: renamed,
    // "Attempts": -1 would be invalid-value, "Created_At": 1749132727 (seconds) timestamp-unit.
    const negative = carrying(envelope((e) => {
      e.Attempts = -1;
      delete e.attempts;
    })).find((a) => a.title === 'Rename "Attempts" to "attempts"');
    assert.equal(negative?.isPreferred, false);
    const seconds = carrying(envelope((e) => {
      e.meta.Created_At = 1749132727;
      delete e.meta.created_at;
    })).find((a) => a.title === 'Rename "Created_At" to "created_at"');
    assert.equal(seconds?.isPreferred, false);
    // The alias in another case, renamed onto job where there is none: by fix all only where its
    // value is a URN job takes ("URN": "x" renamed is invalid-urn, "URN": 5 wrong-type).
    for (const value of ['x', 5, '']) {
      const urn = carrying(envelope((e) => {
        e.URN = value;
        delete e.job;
      })).find((a) => a.title === 'Rename "URN" to "job"');
      assert.equal(urn?.isPreferred, false, JSON.stringify(value));
    }
    const fits = carrying(envelope((e) => {
      e.URN = 'urn:babel:orders:created';
      delete e.job;
    })).find((a) => a.title === 'Rename "URN" to "job"');
    assert.notEqual(fits?.isPreferred, false);
  });

  test('a key written for a missing field is renamed, and a meta field beside meta moved, by fix all only when its value fits the field', () => {
    const preferred = (text: string, title: RegExp) => {
      const action = actionsFor(text, 'missing-field').find((a) => title.test(a.title));
      assert.ok(action, text);
      return action.isPreferred === true;
    };
    // A value the field takes: the rename (or move) is the fix.
    assert.equal(preferred(envelope((e) => { e.meta.createdAt = 1749132727000; delete e.meta.created_at; }), /^Rename "createdAt" to "created_at"/), true);
    assert.equal(preferred(envelope((e) => { e.traceId = e.trace_id; delete e.trace_id; }), /^Rename "traceId" to "trace_id"/), true);
    assert.equal(preferred(envelope((e) => { e.queue = 'orders'; delete e.meta.queue; }), /^Move "queue" into meta/), true);
    // A value it does not take: renamed or moved, it would be a wrong-type, invalid-value or
    // timestamp-unit finding of its own; the author decides.
    assert.equal(preferred(envelope((e) => { e.meta.createdAt = 'yesterday'; delete e.meta.created_at; }), /^Rename "createdAt"/), false);
    assert.equal(preferred(envelope((e) => { e.meta.createdAt = 1749132727; delete e.meta.created_at; }), /^Rename "createdAt"/), false);
    assert.equal(preferred(envelope((e) => { e.traceId = 'not-a-uuid'; delete e.trace_id; }), /^Rename "traceId"/), false);
    assert.equal(preferred(envelope((e) => { e.queue = 42; delete e.meta.queue; }), /^Move "queue" into meta/), false);
    assert.equal(preferred(envelope((e) => { e.queue = ''; delete e.meta.queue; }), /^Move "queue" into meta/), false);
  });

  test('float-currency: exact integer minor units under <key>_cents, else a decimal string', () => {
    const text = envelope((e) => (e.data.amount = 0)).replace('"amount": 0', '"amount": 99.90');
    const actions = actionsFor(text, 'float-currency');
    assert.deepEqual(actions.map((a) => a.title), ['Convert to integer minor units: "amount_cents": 9990', 'Carry the amount as a decimal string: "99.90"']);
    assert.equal(actions.some((a) => a.isPreferred), false, 'cents assume two decimals, so neither fix is preferred');
    const cents = applyFix(text, 'float-currency', /minor units/);
    assert.equal(JSON.parse(cents.fixed).data.amount_cents, 9990);
    const asString = applyFix(text, 'float-currency', /decimal string/);
    assert.equal(JSON.parse(asString.fixed).data.amount, '99.90');

    const inexact = envelope((e) => (e.data.unit_price = 0)).replace('"unit_price": 0', '"unit_price": 0.125');
    assert.deepEqual(actionsFor(inexact, 'float-currency').map((a) => a.title), ['Carry the amount as a decimal string: "0.125"']);
    const camel = envelope((e) => (e.data.totalPrice = 0)).replace('"totalPrice": 0', '"totalPrice": 1.5e1');
    assert.equal(JSON.parse(applyFix(camel, 'float-currency', /minor/).fixed).data.totalPriceCents, 1500);
  });

  test('write JSON booleans for 0/1 and "true"/"false"', () => {
    const { fixed } = applyFix(envelope((e) => (e.data.is_paid = 1)), 'non-json-boolean');
    assert.equal(JSON.parse(fixed).data.is_paid, true);
    const fromString = applyFix(envelope((e) => (e.data.enabled = 'false')), 'non-json-boolean');
    assert.equal(JSON.parse(fromString.fixed).data.enabled, false);
  });

  test('wrong-type: "0" → 0, 1.0 → 1, [] → {}', () => {
    assert.equal(JSON.parse(applyFix(envelope((e) => (e.attempts = '0')), 'wrong-type').fixed).attempts, 0);
    const version = envelope(() => undefined).replace('"schema_version": 1', '"schema_version": 1.0');
    assert.match(applyFix(version, 'wrong-type').fixed, /"schema_version": 1,/);
    assert.deepEqual(JSON.parse(applyFix(envelope((e) => (e.data = [])), 'wrong-type').fixed).data, {});
  });

  test('a fresh UUID for a trace_id that is not one', () => {
    const { fixed } = applyFix(envelope((e) => (e.trace_id = 'trace-123')), 'invalid-uuid');
    assert.equal(JSON.parse(fixed).trace_id, '00000000-0000-4000-8000-' + JSON.parse(fixed).trace_id.slice(24));
    assert.match(JSON.parse(fixed).trace_id, /^00000000-0000-4000-8000-\d{12}$/);
  });

  test('nanoseconds convert to ms; a value that reads as no unit in range gets no fix', () => {
    const nano = applyFix(envelope((e) => (e.meta.created_at = 0)).replace('"created_at": 0', '"created_at": 1749132727000000000'), 'timestamp-unit', /nanoseconds/);
    assert.equal(JSON.parse(nano.fixed).meta.created_at, 1749132727000);
    assert.deepEqual(actionsFor(envelope((e) => (e.meta.created_at = 0)), 'timestamp-unit'), []);
  });

  test('a fresh meta.id when it equals trace_id', () => {
    const { fixed } = applyFix(envelope((e) => (e.meta.id = e.trace_id)), 'id-equals-trace');
    assert.notEqual(JSON.parse(fixed).meta.id, BASE.trace_id);
  });

  test('remove the reserved __bq_frame key; lowercase a known lang', () => {
    applyFix(envelope((e) => (e.__bq_frame = 1)), 'reserved-key');
    assert.equal(JSON.parse(applyFix(envelope((e) => (e.meta.lang = 'PHP')), 'unknown-lang').fixed).meta.lang, 'php');
  });

  test('wrong-type on a time field writes milliseconds: a string of seconds is converted, a value no unit reads as a time gets no fix', () => {
    const seconds = applyFix(envelope((e) => (e.meta.created_at = '1749132727')), 'wrong-type');
    assert.equal(JSON.parse(seconds.fixed).meta.created_at, 1749132727000);
    assert.equal(seconds.action.title, 'Write "created_at" as the integer 1749132727000 (seconds as milliseconds)');
    assert.deepEqual(analyze(parseJson(seconds.fixed)), [], seconds.fixed);
    const milliseconds = applyFix(envelope((e) => (e.meta.created_at = '1749132727000')), 'wrong-type');
    assert.equal(milliseconds.action.title, 'Write "created_at" as the integer 1749132727000');
    const float = applyFix(envelope(() => undefined).replace('"created_at": 1749132727000', '"created_at": 1749132727.0'), 'wrong-type');
    assert.equal(JSON.parse(float.fixed).meta.created_at, 1749132727000);
    assert.deepEqual(actionsFor(envelope((e) => (e.meta.created_at = '0')), 'wrong-type'), [], 'as 0 it would only draw timestamp-unit');
  });

  test('added times keep the dead letter in order: created_at no later than failed_at, failed_at no earlier than created_at', () => {
    const deadLetter = { reason: 'failed', error: null, exception: null, failed_at: 1749132730000, original_queue: 'orders', attempts: 3, lang: 'php' };
    const noCreatedAt = envelope((e) => {
      delete e.meta.created_at;
      e.attempts = 3;
      e.dead_letter = deadLetter;
    });
    const created = applyFix(noCreatedAt, 'missing-field').fixed;
    assert.ok(JSON.parse(created).meta.created_at <= deadLetter.failed_at, created);
    assert.deepEqual(analyze(parseJson(created)).map((d) => d.code), []);
    const noMeta = envelope((e) => {
      delete e.meta;
      e.attempts = 3;
      e.dead_letter = deadLetter;
    });
    const meta = JSON.parse(applyFix(noMeta, 'missing-field').fixed).meta;
    assert.ok(meta.created_at <= deadLetter.failed_at, JSON.stringify(meta));
    assert.equal(meta.queue, 'orders', 'the queue the dead letter failed on is meta.queue');
    const later = NOW + 86_400_000;
    const noFailedAt = envelope((e) => {
      e.meta.created_at = later;
      e.attempts = 3;
      e.dead_letter = { ...deadLetter, failed_at: undefined };
    });
    const failed = applyFix(noFailedAt, 'missing-field').fixed;
    assert.ok(JSON.parse(failed).dead_letter.failed_at >= later, failed);
    assert.equal(diagnosticsCount(failed, 'dead-letter-order'), 0);
  });

  test('removing a key keeps the comments written around it (a document with comments still gets its quick fixes)', () => {
    const fix = (text: string) => {
      const doc = parseJson(text);
      const [action] = codeActions(doc, analyze(doc).filter((d) => d.code === 'forbidden-key'), fresh);
      assert.ok(action, text);
      return applyEdits(text, action.edits);
    };
    const meta = '"meta": { "id": "f1e2d3c4-b5a6-4789-90ab-cdef01234567", "queue": "orders", "lang": "php", "schema_version": 1, "created_at": 1749132727000 }';
    const around = (body: string) => `{\n  "job": "urn:babel:orders:created",\n  "trace_id": "7b3f9c2a-e41d-4f88-9b2a-1c0d5e6f7a8b",\n  "data": {},\n  ${meta},\n${body}\n}\n`;
    assert.equal(fix(around('  "timestamp": 1,\n  // keep\n  "attempts": 0')), around('  // keep\n  "attempts": 0'));
    assert.equal(fix(around('  "timestamp": 1, /* keep */ "attempts": 0')), around('  /* keep */ "attempts": 0'));
    assert.equal(fix(around('  "attempts": 0 /* keep */,\n  "timestamp": 1')), around('  "attempts": 0 /* keep */'));
    assert.equal(fix(around('  "attempts": 0, // keep\n  "timestamp": "http://x"')), around('  "attempts": 0 // keep'));
    assert.equal(fix('{"job": "urn:babel:orders:created", "timestamp": /* keep */ 1}'), '{"job": "urn:babel:orders:created" /* keep */}');
    // A key that shares its line with the one before: the key after the kept line comment keeps its own indentation.
    assert.equal(fix(around('  "attempts": 0, "timestamp": 1, // keep\n  "urn": "urn:babel:orders:created"')), around('  "attempts": 0, // keep\n  "urn": "urn:babel:orders:created"'));
    assert.equal(fix(around('  "attempts": 0, "timestamp": 1, // keep\n\t\t"urn": "urn:babel:orders:created"')), around('  "attempts": 0, // keep\n\t\t"urn": "urn:babel:orders:created"'));
  });

  test('fixes keep the file layout: tabs, CRLF and one-line documents', () => {
    const tabs = envelope((e) => delete e.attempts, '\t');
    assert.match(applyFix(tabs, 'missing-field').fixed, /\n\t"attempts": 0\n/);
    const crlf = envelope((e) => delete e.attempts).replace(/\n/g, '\r\n');
    const fixedCrlf = applyFix(crlf, 'missing-field').fixed;
    assert.equal(/[^\r]\n/.test(fixedCrlf), false, 'no bare LF introduced');
    const oneLine = JSON.stringify({ ...BASE, attempts: undefined });
    assert.equal(applyFix(oneLine, 'missing-field').fixed.includes('\n'), false);
  });
});
