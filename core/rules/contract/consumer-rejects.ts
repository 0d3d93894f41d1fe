/**
 * consumer-rejects: the SDK named in `meta.lang` relays this fixture as bytes that other SDKs'
 * consumers reject, although they accept the fixture as written (facts part 2, §2 and §5: PHP
 * writes an empty `data` as `[]`). Rejections of the fixture as written are the other contract
 * rules' findings, so this code reports only what the encoder's own bytes add: one cause, one
 * finding, on the value it is about (or `meta.lang` when the cause has no single place). Where the
 * relayed bytes no longer parse, each value the encoder wrote as something a decoder refuses is a
 * cause of its own: a consumer fails on the first, and fixing it alone does not help.
 */
import { encodeEnvelope, SDK_LABELS, SDK_NAMES, type SdkName } from '../../encode';
import { list } from '../../encode/divergence';
import { relaysUnchanged } from '../../encode/plain-relay';
import { consumerVerdicts, decodeRefusal, type ConsumerVerdict } from '../../message/acceptance';
import { parseTextListingAllProblems } from '../../parse/parser';
import { asObject, getValue, type ObjectNode, type ValueNode } from '../../model/tree';
import { defineRule } from '../definition';
import { tokenRange } from '../ranges';

/**
 * Above this size the fixture is not encoded again on every analysis (the preview still shows the
 * verdicts), and encoding-divergence keeps reporting the causes this code would carry.
 */
export const CONSUMER_CHECK_LIMIT = 256 * 1024;

export const rule = defineRule({
  codes: [
    {
      code: 'consumer-rejects',
      family: 'contract',
      severity: 'warning',
      summary: "The SDK in meta.lang writes this envelope as bytes that other SDKs' consumers reject.",
      docs: {
        fires:
          "The SDK named in `meta.lang` decodes and re-encodes envelopes (retry, dead-letter, redrive, a relay) as bytes that another SDK's consumer rejects, although that consumer accepts the fixture as written. The measured cases: PHP writes an empty `data` (`{}`) or one with the keys `\"0\"`, `\"1\"`, … as a JSON array, which the Python, Node, Go and Java consumers reject; Python writes a number beyond the double range as bare `Infinity`, which the PHP, Node and Java consumers cannot decode. The message names the consumers and why, and what to write instead (a field in an empty `data`, keys that are names, the number as a string); the byte preview shows every consumer's verdict. Each value a consumer cannot read is its own finding, on that value: three numbers beyond the double range are three warnings, and 1,008 are 1,008 (within the cap on findings per document; the fixture is encoded again only up to 256 KB). Where the fixture's own encoder causes it, this code carries the value instead of `encoding-divergence` (a number beyond the double range is also `unsafe-integer`'s error, since the Go consumer cannot decode it: that one is shown, carrying this).",
        instead: 'A `data` that every encoder writes as an object: not empty, and not keyed `"0"`, `"1"`, … (add a field, or name the keys).',
        example: { fires: '"data": {}, "meta": { …, "lang": "php", … }', clean: '"data": { "order_id": 1042 }, "meta": { …, "lang": "php", … }' },
      },
    },
  ],
  check: (context) => {
    const { root, meta } = context.envelope;
    if (!root || context.doc.syntaxProblems.length > 0 || context.doc.text.length > CONSUMER_CHECK_LIMIT) return;
    const lang = getValue(meta, 'lang');
    if (lang?.kind !== 'string' || !(SDK_NAMES as readonly string[]).includes(lang.value)) return;
    // The everyday fixture: the columns already say no encoder would note a lossy or contract change.
    if (relaysUnchanged(context.doc)) return;
    const sdk = lang.value as SdkName;
    const encoded = encodeEnvelope(context.doc, sdk);
    // Only a change the encoder notes as lossy or against the contract can make a consumer reject
    // what it accepts as written (a pure change of spelling cannot): most fixtures stop here.
    if (!encoded.ok || !encoded.notes.some((note) => note.kind !== 'representation')) return;
    const asWritten = new Map(consumerVerdicts(context.doc).map((verdict) => [verdict.sdk, verdict]));
    // Every syntax problem of the relayed bytes is listed (the text is at most CONSUMER_CHECK_LIMIT
    // long): each value the encoder wrote as a token a decoder refuses is a finding of its own, the
    // 1,001st too, and encoding-divergence leaves every one of them to this code.
    const relayed = parseTextListingAllProblems(encoded.text);
    const added = consumerVerdicts(relayed).filter((verdict) => verdict.kind === 'rejects' && asWritten.get(verdict.sdk)?.kind !== 'rejects');
    // A rejection of the whole body (it no longer parses) without a place of its own: where the
    // relayed bytes hold no value the consumer's decoder refuses, it sits on the value the encoder
    // noted first (or meta.lang).
    const noted = encoded.notes.find((note) => note.kind !== 'representation' && note.path !== undefined)?.path;
    const fallback = valueAtPath(root, noted);
    // One finding per place: the consumers that reject because of it, each with its reason.
    const byPlace = new Map<ValueNode | undefined, { consumer: ConsumerVerdict; message: string }[]>();
    const add = (node: ValueNode | undefined, consumer: ConsumerVerdict, message: string) => {
      const list = byPlace.get(node) ?? [];
      list.push({ consumer, message });
      byPlace.set(node, list);
    };
    const lastValues = new Map<ObjectNode, Map<string, ValueNode>>();
    for (const consumer of added) {
      for (const reason of consumer.reasons) {
        if (reason.path !== undefined) {
          add(valueAtPath(root, reason.path), consumer, reason.message);
          continue;
        }
        // The body no longer parses: each value the encoder wrote as something this decoder
        // refuses (Python's bare Infinity) is a cause of its own, at its own place.
        const refused = reason.stage === 'decode' ? relayed.syntaxProblems.filter((problem) => decodeRefusal(consumer.sdk, problem) !== undefined) : [];
        if (refused.length === 0) add(fallback, consumer, reason.message);
        for (const problem of refused) add(writtenFrom(root, relayed.root, problem.offset, lastValues) ?? fallback, consumer, decodeRefusal(consumer.sdk, problem)!);
      }
    }
    for (const [node, rejections] of byPlace) {
      const names = list([...new Set(rejections.map(({ consumer }) => SDK_LABELS[consumer.sdk]))]);
      // Each consumer's reasons, then what its runtime does with the message where the facts measured it.
      const why = rejections.map(({ consumer, message }, i) => `${SDK_LABELS[consumer.sdk]}: ${message}${consumer.runtime && rejections[i + 1]?.consumer !== consumer ? `, and ${consumer.runtime}` : ''}`).join('; ');
      const isData = node !== undefined && node === valueAtPath(root, 'data') && node.kind === 'object';
      const what = isData ? `data as ${node.properties.length === 0 ? '[]' : 'a JSON array'}` : 'this value';
      context.report(
        'consumer-rejects',
        node ? tokenRange(node) : lang,
        `${SDK_LABELS[sdk]} (meta.lang) writes ${what} so that the ${names} ${names.includes(' and ') ? 'consumers reject' : 'consumer rejects'} the message when ${SDK_LABELS[sdk]} relays it (${why}).${adviceFor(node, isData)}`,
      );
    }
  },
});

/**
 * What to write instead: a data the encoder writes as an object (a field in an empty one, names for
 * keys "0", "1", …), a number beyond the double range as a string (Python writes it as bare Infinity).
 */
function adviceFor(node: ValueNode | undefined, isData: boolean): string {
  if (isData && node?.kind === 'object') return node.properties.length === 0 ? ' Give data a field.' : ' Give data keys that are names.';
  if (node?.kind === 'number' && !Number.isFinite(Number(node.raw))) return ' Carry it as a string.';
  return '';
}

/**
 * The value of the fixture that the encoder wrote as the relayed value holding `offset`: the same
 * keys and indices followed down both trees (a key's last copy in the fixture, as a decoder keeps
 * it). `lastValues` caches each object's keys, so many places in one object cost one pass over it.
 */
function writtenFrom(root: ObjectNode, relayed: ValueNode | undefined, offset: number, lastValues: Map<ObjectNode, Map<string, ValueNode>>): ValueNode | undefined {
  let source: ValueNode | undefined = root;
  let node = relayed;
  while (source && node && (node.kind === 'object' || node.kind === 'array')) {
    const { properties } = node.kind === 'object' ? node : { properties: [] };
    const { items } = node.kind === 'array' ? node : { items: [] };
    const index =
      node.kind === 'object'
        ? containing(properties.length, offset, (i) => properties[i].keyOffset, (i) => properties[i].value?.end ?? properties[i].keyEnd)
        : containing(items.length, offset, (i) => items[i].offset, (i) => items[i].end);
    if (index < 0) return source;
    if (node.kind === 'object') {
      const property = node.properties[index];
      if (!property.value || offset < property.value.offset) return undefined;
      const object = asObject(source);
      if (!object) return undefined;
      let keys = lastValues.get(object);
      if (!keys) {
        keys = new Map();
        for (const candidate of object.properties) if (candidate.value) keys.set(candidate.key, candidate.value);
        lastValues.set(object, keys);
      }
      source = keys.get(property.key);
      node = property.value;
    } else {
      source = source.kind === 'array' ? source.items[index] : undefined;
      node = node.items[index];
    }
  }
  return source;
}

/** The index of the child (in order, not overlapping, from `start` to `end`) that holds `offset`, or -1. */
function containing(count: number, offset: number, start: (index: number) => number, end: (index: number) => number): number {
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (end(middle) <= offset) low = middle + 1;
    else if (start(middle) > offset) high = middle - 1;
    else return middle;
  }
  return -1;
}

/** The last value at a dotted envelope path (`data`, `meta.schema_version`), as consumers read it. */
function valueAtPath(root: ObjectNode, path: string | undefined): ValueNode | undefined {
  if (path === undefined) return undefined;
  let node: ValueNode | undefined = root;
  for (const key of path.split('.')) {
    const object = asObject(node);
    if (!object) return undefined;
    node = undefined;
    for (const property of object.properties) if (property.key === key && property.value) node = property.value;
  }
  return node;
}
