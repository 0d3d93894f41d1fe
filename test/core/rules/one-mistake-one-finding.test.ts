/**
 * One typing mistake in an envelope, one finding: each mutation below makes a single mistake in a
 * valid envelope, pretty-printed and written on one line, and the analysis must show exactly one
 * finding, json-syntax, on the token the mistake is in (what else that mistake causes travels with
 * it as related information), not a cascade over the rest of the document, which still reads as
 * the envelope the author meant.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { toJsValue } from '../../../core/model/js-value';
import { parseText } from '../../../core/parse/parser';
import { analyze } from '../../../core/rules/analyze';
import { codeActions } from '../../../core/language/code-actions';
import { applyEdits } from '../../../core/model/edits';
import { stableFresh } from '../../support/fresh';
import { DEFAULT_SETTINGS } from '../../../core/rules/settings/settings';
import { loadRegistry } from '../../../workspace/registry-loader';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');
const registry = loadRegistry(join(EXAMPLES, 'registry.json'), EXAMPLES).state;
/** The envelope the mutations are made in, and one whose payload holds an array of objects (`"items"`). */
const ENVELOPES = { cancelled: 'orders/order-cancelled.babel.json', created: 'orders/order-created.babel.json' } as const;

/**
 * [mistake, text, mistaken text, token, envelope (order-cancelled unless named)]: `§` stands for the separator after a colon (": " pretty,
 * ":" on one line). In the mistaken text, «…» marks the token the one finding must cover; an empty
 * «» (something left out) marks the character right after it, ignoring white space, or the `token`
 * that follows it where one is given.
 */
const MUTATIONS: readonly (readonly [string, string, string, string?, (keyof typeof ENVELOPES)?])[] = [
  ['key missing its closing quote', '"queue"§"orders"', '«"queue»§"orders"'],
  ['key missing its opening quote', '"queue"§"orders"', '«queue"»§"orders"'],
  ['key missing its opening quote, number value', '"attempts"§0', '«attempts"»§0'],
  ['key left open up to its value', '"schema_version"§1,', '«"schema_version»§1,'],
  ['value missing its closing quote', '"queue"§"orders"', '"queue"§«"orders»'],
  ['last value of an object missing its closing quote', '"cancelled_at"§"2026-03-14T11:02:17Z"', '"cancelled_at"§«"2026-03-14T11:02:17Z»'],
  ['value missing its closing quote, a tab after its comma', '"queue"§"orders",', '"queue"§«"orders»,\t'],
  ['value missing its closing quote, a space after its comma', '"queue"§"orders",', '"queue"§«"orders», '],
  ['value missing its opening quote', '"queue"§"orders"', '"queue"§«orders"»'],
  ['value holding colons missing its opening quote', '"job"§"urn:babel:orders:cancelled"', '"job"§«urn:babel:orders:cancelled"»'],
  ['UUID value missing its opening quote', '"trace_id"§"879d3f59-ee5b-4906-a1ca-d48ee72daa1d"', '"trace_id"§«879d3f59-ee5b-4906-a1ca-d48ee72daa1d"»'],
  ['time value missing its opening quote', '"cancelled_at"§"2026-03-14T11:02:17Z"', '"cancelled_at"§«2026-03-14T11:02:17Z"»'],
  ['number value followed by a stray quote', '"order_id"§1042', '"order_id"§1042«"»', undefined, 'created'],
  ['last number value of an object followed by a stray quote', '"created_at"§1773480413412', '"created_at"§1773480413412«"»', undefined, 'created'],
  ['key before an object missing its closing quote', '"meta"§{', '«"meta»§{'],
  ['key before an array of objects missing its closing quote', '"items"§[', '«"items»§[', undefined, 'created'],
  ['string broken across two lines', '"reason"§"customer_request"', '"reason"§«"customer\n_request"»'],
  ['key broken across two lines', '"reason"§', '«"rea\n    son"»§'],
  ['missing comma', '"orders",', '"orders"«»'],
  ['opening brace of an object missing', '"meta"§{', '"meta"§«»', '"id"'],
  ['missing colon', '"queue"§"orders"', '«"queue"» "orders"'],
  ['equals sign for a colon', '"queue"§"orders"', '"queue"«=»"orders"'],
  ['colon for a comma', '"orders",', '"orders"«:»'],
  ['semicolon for a comma', '"orders",', '"orders"«;»'],
  ['single-quoted key', '"queue"§"orders"', "«'queue'»§\"orders\""],
  ['single-quoted value', '"queue"§"orders"', "\"queue\"§«'orders'»"],
  ['stray character before a key', '"queue"§', '«x»"queue"§'],
  ['stray character after a value', '"orders",', '"orders"«;»,'],
  ['stray word before a value', '"schema_version"§1', '"schema_version"§«abc» 1'],
  ['stray word before a string value', '"queue"§"orders"', '"queue"§«abc» "orders"'],
  ['words of a string without its quotes', '"reason"§"customer_request"', '"reason"§«customer request»'],
  ['stray character in a number', '"schema_version"§1', '"schema_version"§«1x»'],
  ['trailing comma', '"created_at"§1773486137908', '"created_at"§1773486137908«,»'],
  ['comma doubled', '"orders",', '"orders",«,»'],
  ['opening bracket of an array missing', '"items"§[', '"items"§«»', '{', 'created'],
  ['closing bracket of an array missing', '],', '«»,', undefined, 'created'],
];

/**
 * Mistakes only the layout of a pretty-printed envelope tells apart: an inner object's "}" left
 * out (written on one line, which keys after it were meant for the object around it is unknown).
 */
const PRETTY_ONLY: typeof MUTATIONS = [
  ['closing brace of an inner object missing', '"DE"\n    },', '"DE"\n    «»,', undefined, 'created'],
  ['closing brace of the payload object missing', '"2026-03-14T09:26:51Z"\n  },', '"2026-03-14T09:26:51Z"\n  «»,', undefined, 'created'],
  ['closing brace and comma of an inner object typed as a comma', '"DE"\n    },', '"DE"«»,', undefined, 'created'],
];

/** Mistakes whose message offers no one edit: which key the broken line is, or what the number was. */
const NO_ONE_EDIT = new Set(['string broken across two lines', 'stray character in a number']);

/** Mistakes that leave another value in their token: a line break in the string, a letter in the number. */
const CHANGES_ITS_VALUE = new Set(['string broken across two lines', 'stray character in a number', 'words of a string without its quotes']);

for (const [form, separator] of [['pretty-printed', ': '], ['on one line', ':']] as const) {
  for (const [mistake, from, to, token, envelope = 'cancelled'] of [...MUTATIONS, ...(form === 'pretty-printed' ? PRETTY_ONLY : [])]) {
    test(`${form}: ${mistake} is one json-syntax finding on its token`, () => {
      const pretty = readFileSync(join(EXAMPLES, ENVELOPES[envelope]), 'utf8');
      const valid = form === 'pretty-printed' ? pretty : `${JSON.stringify(JSON.parse(pretty))}\n`;
      const original = from.replaceAll('§', separator);
      assert.ok(valid.includes(original), `the envelope holds ${original}`);
      const marked = valid.replace(original, to.replaceAll('§', separator));
      const text = marked.replace('«', '').replace('»', '');
      let start = marked.indexOf('«');
      let end = marked.indexOf('»') - 1;
      if (end === start) {
        while (/\s/.test(text[start])) start++;
        end = start + (token?.length ?? 1);
        if (token !== undefined) assert.equal(text.slice(start, end), token);
      }
      const doc = parseText(text);
      const found = analyze(doc, DEFAULT_SETTINGS, registry);
      const listed = found.map((d) => `${d.code} ${JSON.stringify(text.slice(d.offset, d.end))} ${d.message}`);
      assert.deepEqual(listed.map((line) => line.split(' ')[0]), ['json-syntax'], listed.join('\n'));
      assert.equal(text.slice(found[0].offset, found[0].end), text.slice(start, end), listed.join('\n'));
      assert.deepEqual([found[0].offset, found[0].end], [start, end]);
      // The rest of the document is read as meant: the whole envelope, but for a token whose own value the mistake changed.
      if (!CHANGES_ITS_VALUE.has(mistake)) assert.deepEqual(toJsValue(doc.root!), JSON.parse(valid));
    });

    test(`${form}: ${mistake} has a quick fix that leaves the envelope meant, without a json-syntax finding`, () => {
      const pretty = readFileSync(join(EXAMPLES, ENVELOPES[envelope]), 'utf8');
      const valid = form === 'pretty-printed' ? pretty : `${JSON.stringify(JSON.parse(pretty))}\n`;
      const text = valid.replace(from.replaceAll('§', separator), to.replaceAll('§', separator)).replace('«', '').replace('»', '');
      const doc = parseText(text);
      const actions = codeActions(doc, analyze(doc, DEFAULT_SETTINGS, registry), stableFresh(), registry);
      if (NO_ONE_EDIT.has(mistake)) return assert.deepEqual(actions, []);
      assert.ok(actions.length === 1 || actions.length === 2, actions.map((action) => action.title).join(', '));
      // One fix is the obvious one; of two readings neither is.
      assert.ok(actions.every((action) => action.isPreferred === (actions.length === 1)));
      const results = actions.map((action) => applyEdits(text, action.edits));
      for (const fixed of results) {
        const after = analyze(parseText(fixed), DEFAULT_SETTINGS, registry);
        assert.deepEqual(after.filter((d) => d.code === 'json-syntax').map((d) => d.message), [], fixed);
        JSON.parse(fixed);
      }
      if (!CHANGES_ITS_VALUE.has(mistake)) assert.ok(results.some((fixed) => JSON.stringify(JSON.parse(fixed)) === JSON.stringify(JSON.parse(valid))), results.join('\n'));
    });
  }
}
