/** encoding-divergence: values the six SDK encoders would not write as the same bytes. */
import { divergencesOutsideData, findDivergences, numberValueDivergence, stringValueDivergence, type Divergence } from '../../encode/divergence';
import { laravelRetryDivergences, laravelRetryNumber, withLaravelRetry } from '../../encode/laravel-retry';
import { getValue } from '../../model/tree';
import { literalSpanOf } from '../../parse/string-literal-span';
import type { RuleContext } from '../context';
import type { CoreDiagnostic } from '../diagnostic';
import type { EditedValue } from '../edited-value';
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
          'The six SDK encoders would not write the same bytes for this value, and the difference can change what a consumer reads: `10.0` (Python and Java write `10.0`, the others `10`), `-0.0`, exponent forms (`1e21`, `1e-5`), a non-BMP character, U+2028/U+2029 or NBSP (.NET escapes them), integer-like keys (Node moves them first), empty `data` (PHP writes `[]`), an envelope nested deeper than an SDK reads or relays (.NET beyond 64 levels, PHP beyond 511, Python crashes beyond 990, Java beyond 3,000, Node cannot relay beyond 4,000, Go stops beyond 10,000: one warning, on the first value past the shallowest limit, naming them all). The message names which SDKs differ and what each writes; on a string value, the finding sits on the first character they write differently (the others are counted in the message). Lossy differences the author can avoid (precision: an SDK writing another number, or a float no double holds such as `9007199254740993.0`, which every SDK reads as a double and so as another number; `-0` becoming `0`, an unknown top-level or `dead_letter` key the typed SDKs drop on relay, keys `"0"`, `"1"`, …) are **warnings**; on an unknown top-level key the message says what to do: move it into `data` or under `meta.ext.<vendor>`, into `meta` for a meta field written beside it, remove one named after a forbidden key, rename one written for a required field the envelope lacks (`traceId`: then `missing-field` is shown on the key and carries this finding), remove a `dead_letter` key; and on the other warnings too: `0` for a negative zero, the number as a string where the SDKs read or write another number, a whole character for a lone surrogate, no more levels of nesting than the shallowest limit, a field in an empty object that PHP, as `meta.lang`, writes as `[]`. An SDK\'s own departure from the contract, which a fixture written as the contract advises cannot avoid, is **information**: the typed SDKs dropping `meta.ext` and other extra `meta` keys on relay (the contract lets producers add them and says a relay keeps them; on an extra `meta` key this finding carries the `extension-key` hint), and PHP writing an empty `data` or an empty object as `[]` (a warning where PHP is the fixture\'s own encoder, `meta.lang`; for an empty `data`, `consumer-rejects` says so instead, up to its 256 KiB). The values of the keys only PHP, Python and Node keep (`meta.ext`, an extra `meta`, top-level or `dead_letter` key) are compared between those three, which the contract asks to keep them unchanged. The strings of the core fields every SDK writes back (`trace_id`, `meta.id`, `meta.queue`, `meta.lang`, `dead_letter`\'s) are compared as data\'s are: a lone surrogate there is a warning too (the PHP consumer cannot decode the message). With the `laravel` Redis layout (`babelqueue.redis.layout`, or `redisLayout` in babelq.json), what a Laravel retry changes is reported too: Laravel\'s reservation script (and Python\'s `laravel=1` mode) re-encodes the message through Lua cjson, and a release or retry puts those bytes back on the queue, so a number with more than 14 significant digits becomes its `%.14g` text (`123456789012345` becomes `1.2345678901234e+14`, `0.30000000000000004` becomes `0.3`; a **warning**, as a string or 14 digits avoid it; on a number with another finding of this code, one finding says both), and an empty list `[]` anywhere in the envelope but `data` itself becomes `{}`, an object (**information**: the contract allows an empty list, and the change is Laravel\'s). Pure key-order differences, and cjson\'s key order and `\\/`, are shown in the byte preview only, never as a diagnostic.',
        instead: 'Values in the fleet\'s byte-identical subset: integers within ±(2^53−1), floats that are not integral, BMP text without line separators, non-integer keys, a non-empty `data`, at most 64 levels of nesting; where Laravel may retry the message, at most 14 significant digits (or a string) and no empty lists.',
        example: { fires: '"weight": 10.0', clean: '"weight": 10' },
      },
    },
  ],
  check,
  // The previous findings (moved), but those the edit can change found again. Which findings
  // consumer-rejects carries instead, and how PHP's [] is judged, depend on meta.lang and on the
  // document's size: an edit of meta.lang, or one that takes the document across
  // CONSUMER_CHECK_LIMIT, runs everything again. An edit inside data changes its own value's
  // finding alone. An edit outside data leaves data's findings as they were and every finding
  // outside data is found again, without reading data: a job's case variants, meta.ext's values
  // compared between the map relays, or a number a typed SDK reads as an integer, depend on more
  // than the edited value.
  afterEdit: (context, previous, edit, keep) => {
    const crossesLimit = edit.lengthBefore <= CONSUMER_CHECK_LIMIT !== context.doc.text.length <= CONSUMER_CHECK_LIMIT;
    if (crossesLimit || getValue(context.envelope.meta, 'lang')?.offset === edit.offset) return check(context);
    if (!edit.inData) return checkOutsideData(context, previous, edit, keep);
    for (const diagnostic of previous) if (!edit.wasAt(diagnostic)) keep(edit.moved(diagnostic));
    const divergence =
      edit.kind === 'number' ? numberValueDivergence(context.doc.text, edit.offset, edit.end, edit.isIntegerLiteral) : stringValueDivergence(edit.value, edit.offset, edit.end);
    const found = divergence && !carriedByConsumerRejects(context, divergence) ? [divergence] : [];
    // A string holds nothing a Laravel retry changes; a number is its own finding.
    const retry = laravelRetries(context) && edit.kind === 'number' ? laravelRetryNumber(context.doc.text, edit.offset, edit.end, edit.isIntegerLiteral) : undefined;
    for (const each of withLaravelRetry(found, retry ? [retry] : [])) report(context, each);
  },
});

/**
 * After an edit outside data: data's previous findings (moved) and every finding outside data
 * found again, in the order `check` reports them (by place; the two never share a place).
 */
function checkOutsideData(context: RuleContext<'encoding-divergence'>, previous: readonly CoreDiagnostic[], edit: EditedValue, keep: (diagnostic: CoreDiagnostic) => void): void {
  if (!context.envelope.root || context.doc.syntaxProblems.length > 0) return;
  const { found, data } = divergencesOutsideData(context.doc);
  const inData = data ? previous.map(edit.moved).filter((diagnostic) => diagnostic.offset >= data.offset && diagnostic.offset < data.end) : [];
  const own = found.filter((divergence) => !carriedByConsumerRejects(context, divergence)).map((divergence) => asOwnEncoders(context, divergence));
  // The Laravel retry's findings outside data too: the columns outside data, not data's megabytes.
  const all = laravelRetries(context) ? withLaravelRetry(own, laravelRetryDivergences(context.doc, data)) : own;
  let next = 0;
  for (const divergence of all) {
    while (next < inData.length && inData[next].offset < divergence.offset) keep(inData[next++]);
    report(context, divergence);
  }
  while (next < inData.length) keep(inData[next++]);
}

/** Where the SDK encoders disagree in a way a consumer can notice (never key order alone). */
function check(context: RuleContext<'encoding-divergence'>): void {
  if (!context.envelope.root || context.doc.syntaxProblems.length > 0) return;
  const own = findDivergences(context.doc)
    .filter((divergence) => !carriedByConsumerRejects(context, divergence))
    .map((divergence) => asOwnEncoders(context, divergence));
  for (const divergence of laravelRetries(context) ? withLaravelRetry(own, laravelRetryDivergences(context.doc)) : own) report(context, divergence);
}

/** With the laravel Redis layout a retry re-encodes the message through cjson (facts §4.1), whose changes are reported too. */
function laravelRetries(context: RuleContext<'encoding-divergence'>): boolean {
  return context.settings.redisLayout === 'laravel';
}

/**
 * PHP writing an empty data or object as [] is PHP's departure, information, unless PHP is the
 * fixture's own encoder: then the author's own producer writes it, a warning (for an empty data,
 * consumer-rejects says so up to its size, carriedByConsumerRejects; above it, this finding does).
 */
function asOwnEncoders(context: RuleContext<'encoding-divergence'>, divergence: Divergence): Divergence {
  if ((divergence.cause !== 'php-data-array' && divergence.cause !== 'php-empty-object') || divergence.severity === 'warning') return divergence;
  const lang = getValue(context.envelope.meta, 'lang');
  if (lang?.kind !== 'string' || lang.value !== 'php') return divergence;
  // The author's own producer writes it: say what to write instead.
  const advice = divergence.cause === 'php-data-array' ? ' Give data a field.' : ' Give the object a field, or leave it out where it is optional.';
  return { ...divergence, severity: 'warning', message: `${divergence.message}; PHP (meta.lang) is this message's encoder.${advice}` };
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
