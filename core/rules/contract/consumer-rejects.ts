/**
 * consumer-rejects: the SDK named in `meta.lang` relays this fixture as bytes that other SDKs'
 * consumers reject, although they accept the fixture as written (facts part 2, §2 and §5: PHP
 * writes an empty `data` as `[]`). Rejections of the fixture as written are the other contract
 * rules' findings, so this code reports only what the encoder's own bytes add: one cause, one
 * finding, on the value it is about (or `meta.lang` when the cause has no single place).
 */
import { encodeEnvelope, SDK_LABELS, SDK_NAMES, type SdkName } from '../../encode';
import { list } from '../../encode/divergence';
import { relaysUnchanged } from '../../encode/plain-relay';
import { consumerVerdicts, type ConsumerVerdict } from '../../message/acceptance';
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
          "The SDK named in `meta.lang` decodes and re-encodes envelopes (retry, dead-letter, redrive, a relay) as bytes that another SDK's consumer rejects, although that consumer accepts the fixture as written. The measured cases: PHP writes an empty `data` (`{}`) or one with the keys `\"0\"`, `\"1\"`, … as a JSON array, which the Python, Node, Go and Java consumers reject; Python writes a number beyond the double range as bare `Infinity`, which the PHP, Node and Java consumers cannot decode. The message names the consumers and why; the byte preview shows every consumer's verdict. Where the fixture's own encoder causes it, this code carries the value instead of `encoding-divergence` (a number beyond the double range is also `unsafe-integer`'s error, since the Go consumer cannot decode it: that one is shown, carrying this).",
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
    const added = consumerVerdicts(encoded.text).filter((verdict) => verdict.kind === 'rejects' && asWritten.get(verdict.sdk)?.kind !== 'rejects');
    // One finding per place: the consumers that reject because of it, each with its reason.
    const byPath = new Map<string | undefined, { consumer: ConsumerVerdict; message: string }[]>();
    for (const consumer of added) {
      for (const reason of consumer.reasons) {
        const list = byPath.get(reason.path) ?? [];
        list.push({ consumer, message: reason.message });
        byPath.set(reason.path, list);
      }
    }
    // A rejection of the whole body (it no longer parses) sits on the value the encoder noted first.
    const noted = encoded.notes.find((note) => note.kind !== 'representation' && note.path !== undefined)?.path;
    for (const [path, rejections] of byPath) {
      const node = valueAtPath(root, path ?? noted);
      const names = list([...new Set(rejections.map(({ consumer }) => SDK_LABELS[consumer.sdk]))]);
      // Each consumer's reasons, then what its runtime does with the message where the facts measured it.
      const why = rejections.map(({ consumer, message }, i) => `${SDK_LABELS[consumer.sdk]}: ${message}${consumer.runtime && rejections[i + 1]?.consumer !== consumer ? `, and ${consumer.runtime}` : ''}`).join('; ');
      const what = path === 'data' && node?.kind === 'object' ? `data as ${node.properties.length === 0 ? '[]' : 'a JSON array'}` : 'this value';
      context.report(
        'consumer-rejects',
        node ? tokenRange(node) : lang,
        `${SDK_LABELS[sdk]} (meta.lang) writes ${what} so that the ${names} ${names.includes(' and ') ? 'consumers reject' : 'consumer rejects'} the message when ${SDK_LABELS[sdk]} relays it (${why}).`,
      );
    }
  },
});

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
