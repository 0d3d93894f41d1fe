/** encoding-divergence: values the six SDK encoders would not write as the same bytes. */
import { coreStrings, findDivergences, numberValueDivergence, stringValueDivergence, type Divergence } from '../../encode/divergence';
import { goFold } from '../../encode/go';
import { fieldSpec, type EnvelopeScope } from '../../contract/envelope';
import { asObject, getValue, type ObjectNode } from '../../model/tree';
import { literalSpanOf } from '../../parse/string-literal-span';
import type { RuleContext } from '../context';
import { CONSUMER_CHECK_LIMIT } from '../contract/consumer-rejects';
import { defineRule } from '../definition';

export const rule = defineRule({
  codes: [
    {
      code: 'encoding-divergence',
      family: 'data',
      severity: 'information',
      otherSeverities: ['warning'],
      summary: 'The six SDK encoders would not write the same bytes for this value.',
      docs: {
        fires:
          'The six SDK encoders would not write the same bytes for this value, and the difference can change what a consumer reads: `10.0` (Python and Java write `10.0`, the others `10`), `-0.0`, exponent forms (`1e21`, `1e-5`), a non-BMP character, U+2028/U+2029 or NBSP (.NET escapes them), integer-like keys (Node moves them first), empty `data` (PHP writes `[]`), an envelope nested deeper than an SDK reads or relays (.NET beyond 64 levels, PHP beyond 511, Python crashes beyond 990, Java beyond 3,000, Node cannot relay beyond 4,000, Go stops beyond 10,000: one warning, on the first value past the shallowest limit, naming them all). The message names which SDKs differ and what each writes; on a string value, the finding sits on the first character they write differently (the others are counted in the message). Lossy differences the author can avoid (precision, `-0` becoming `0`, an unknown top-level or `dead_letter` key the typed SDKs drop on relay, keys `"0"`, `"1"`, …) are **warnings**. An SDK\'s own departure from the contract, which a fixture written as the contract advises cannot avoid, is **information**: the typed SDKs dropping `meta.ext` and other extra `meta` keys on relay (the contract lets producers add them and says a relay keeps them; on an extra `meta` key this finding carries the `extension-key` hint), and PHP writing an empty `data` or an empty object as `[]` (a warning where PHP is the fixture\'s own encoder, `meta.lang`; for an empty `data`, `consumer-rejects` says so instead, up to its 256 KiB). The values of the keys only PHP, Python and Node keep (`meta.ext`, an extra `meta`, top-level or `dead_letter` key) are compared between those three, which the contract asks to keep them unchanged. The strings of the core fields every SDK writes back (`trace_id`, `meta.id`, `meta.queue`, `meta.lang`, `dead_letter`\'s) are compared as data\'s are: a lone surrogate there is a warning too (the PHP consumer cannot decode the message). Pure key-order differences are shown in the byte preview only, never as a diagnostic.',
        instead: 'Values in the fleet\'s byte-identical subset: integers within ±(2^53−1), floats that are not integral, BMP text without line separators, non-integer keys, a non-empty `data`, at most 64 levels of nesting.',
        example: { fires: '"weight": 10.0', clean: '"weight": 10' },
      },
    },
  ],
  check,
  // The previous findings (moved), but the edited value's own checked again. Which findings
  // consumer-rejects carries instead depends on meta.lang and on the document's size: an edit of
  // meta.lang, or one that takes the document across CONSUMER_CHECK_LIMIT, runs everything again.
  // A number outside data may be a field the typed SDKs read as an integer: everything runs again.
  // So does any other edit outside data but of a core field's string: a job's string (`job`, or a
  // case variant Go reads as job; the finding on a variant names the URN Go routes on and the one
  // the other SDKs do), or a value inside a key only PHP, Python and Node keep (meta.ext).
  afterEdit: (context, previous, edit, keep) => {
    const crossesLimit = edit.lengthBefore <= CONSUMER_CHECK_LIMIT !== context.doc.text.length <= CONSUMER_CHECK_LIMIT;
    if (crossesLimit || (edit.kind === 'number' && !edit.inData) || getValue(context.envelope.meta, 'lang')?.offset === edit.offset || (!edit.inData && !coreFieldString(context.envelope.root, edit.offset))) return check(context);
    for (const diagnostic of previous) if (!edit.wasAt(diagnostic)) keep(edit.moved(diagnostic));
    if (!edit.inData) {
      // A core field's string, which every SDK writes back: checked as a string of data is.
      const divergence = edit.kind === 'string' && isCoreStringAt(context.envelope.root, edit.offset) ? stringValueDivergence(edit.value, edit.offset, edit.end) : undefined;
      if (divergence) report(context, divergence);
      return;
    }
    const divergence =
      edit.kind === 'number' ? numberValueDivergence(context.doc.text, edit.offset, edit.end, edit.isIntegerLiteral) : stringValueDivergence(edit.value, edit.offset, edit.end);
    if (divergence && !carriedByConsumerRejects(context, divergence)) report(context, divergence);
  },
});

/**
 * True when the value at `offset` is the value of a core field of the envelope, meta or
 * dead_letter other than a job (no finding of this code depends on such a string).
 */
function coreFieldString(root: ObjectNode | undefined, offset: number): boolean {
  const inScope = (scope: EnvelopeScope, object: ObjectNode | undefined): boolean | undefined => {
    const property = object?.properties.find((candidate) => candidate.value?.offset === offset);
    return property && fieldSpec(scope, property.key) !== undefined && goFold(property.key) !== 'job';
  };
  return inScope('root', root) ?? inScope('meta', asObject(getValue(root, 'meta'))) ?? inScope('dead_letter', asObject(getValue(root, 'dead_letter'))) ?? false;
}

/** True when the value at `offset` is one of the core strings findDivergences compares (coreStrings). */
function isCoreStringAt(root: ObjectNode | undefined, offset: number): boolean {
  return root !== undefined && coreStrings(root).some((value) => value.offset === offset);
}

/** Where the SDK encoders disagree in a way a consumer can notice (never key order alone). */
function check(context: RuleContext<'encoding-divergence'>): void {
  if (!context.envelope.root || context.doc.syntaxProblems.length > 0) return;
  for (const divergence of findDivergences(context.doc)) if (!carriedByConsumerRejects(context, divergence)) report(context, asOwnEncoders(context, divergence));
}

/**
 * PHP writing an empty data or object as [] is PHP's departure, information, unless PHP is the
 * fixture's own encoder: then the author's own producer writes it, a warning (for an empty data,
 * consumer-rejects says so up to its size, carriedByConsumerRejects; above it, this finding does).
 */
function asOwnEncoders(context: RuleContext<'encoding-divergence'>, divergence: Divergence): Divergence {
  if ((divergence.cause !== 'php-data-array' && divergence.cause !== 'php-empty-object') || divergence.severity === 'warning') return divergence;
  const lang = getValue(context.envelope.meta, 'lang');
  return lang?.kind === 'string' && lang.value === 'php' ? { ...divergence, severity: 'warning' } : divergence;
}

/**
 * With PHP (Python) as the fixture's own encoder, consumer-rejects names who rejects PHP's data
 * array (Python's bare Infinity): one finding for the one cause.
 */
function carriedByConsumerRejects(context: RuleContext<'encoding-divergence'>, divergence: Divergence): boolean {
  const lang = getValue(context.envelope.meta, 'lang');
  const own = lang?.kind === 'string' && context.doc.text.length <= CONSUMER_CHECK_LIMIT ? lang.value : undefined;
  return (own === 'php' && divergence.cause === 'php-data-array') || (own === 'python' && divergence.cause === 'python-non-finite');
}

/**
 * On a string value, the finding sits on the first character the SDKs write differently (its
 * escape included), not on the whole string: in a long text the string's range hid which one.
 */
function report(context: RuleContext<'encoding-divergence'>, divergence: Divergence): void {
  const { character } = divergence;
  const range = (character && literalSpanOf(context.doc.text, divergence.offset, character.index, character.width)) || divergence;
  context.report('encoding-divergence', range, divergence.message, divergence.severity === 'warning' ? { severity: 'warning' } : undefined);
}
