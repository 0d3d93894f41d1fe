/**
 * URN rules: urn-alias, empty-urn, invalid-urn, urn-payload.
 * Resolution follows the decoders: `job` unless it is blank or absent, then the `urn` alias.
 */
import { checkUrnNaming, findUrnIdentifier, resolveUrn } from '../../contract/urn';
import { removeProperty, renameKey, replaceValue } from '../../model/property-edits';
import { list } from '../../encode/divergence';
import { isFalsy } from '../../encode/node';
import { pythonStr, pythonTruthy } from '../../encode/python';
import { getProperty, type PropertyNode, type StringNode, type ValueNode } from '../../model/tree';
import { literal, shortened } from '../../model/describe-value';
import type { Range, RuleContext } from '../context';
import { defineRule, type Fix, type FixContext } from '../definition';
import { keyRange } from '../ranges';

type UrnCode = 'urn-alias' | 'empty-urn' | 'invalid-urn' | 'urn-payload';

export const rule = defineRule<UrnCode>({
  codes: [
    {
      code: 'urn-alias',
      family: 'contract',
      severity: 'warning',
      otherSeverities: ['error'],
      summary: 'The inbound alias urn is present; producers write job.',
      docs: {
        fires: '`urn` is present: alone (producers write `job`), beside a non-blank `job` (`job` wins; the contract drops `urn`, as Go, Java and .NET do, while PHP, Python and Node relay it; where that `job` is no URN, a class name say, and `urn` is one, the message advises keeping the URN as `job`, as the preferred fix does), beside an empty `job` (PHP rejects the shape) or a whitespace one (an **error**: Node rejects it; PHP, Python and Go route on the blank URN), beside a `null` `job` (every SDK falls back to `urn`; no `wrong-type` then).',
        instead: '`job` alone: consumers accept `urn` only as an inbound alias, and a re-emit writes `job`.',
        example: { fires: '{ "urn": "urn:babel:orders:created", … }', clean: '{ "job": "urn:babel:orders:created", … }' },
        fixes: 'Rename `urn` to `job`; remove `urn` beside a `job` (beside a `job` that is no URN while `urn` is one, replace `job` with it instead); remove a blank `job` and rename `urn`.',
      },
      fixes: urnAliasFixes,
    },
    {
      code: 'empty-urn',
      family: 'contract',
      severity: 'error',
      summary: 'The URN is empty or only whitespace.',
      docs: {
        fires: '`job` is empty or only ASCII whitespace and no non-blank `urn` alias exists; or `job` is absent and `urn` is blank.',
        instead: 'A URN such as `urn:babel:orders:created`: a message without one has no identity, and a producer must raise on it.',
        example: { fires: '"job": ""', clean: '"job": "urn:babel:orders:created"' },
      },
    },
    {
      code: 'invalid-urn',
      family: 'contract',
      severity: 'error',
      summary: 'The URN breaks the naming rules urn:babel:<context>:<event>.',
      docs: {
        fires: 'Not `urn:babel:<context>:<event>`: context outside `[a-z0-9-]`, event parts outside `[a-z0-9_-]`, uppercase, whitespace, non-ASCII, a class name, padding. The message says which rule.',
        instead: '`urn:babel:<context>:<event>` in lowercase ASCII, the event in the past tense for events (`orders:created`), dot-separated parts allowed (`invoice.requested`).',
        example: { fires: '"job": "App\\\\Jobs\\\\OrderCreated"', clean: '"job": "urn:babel:orders:created"' },
        fixes: 'Trim and lowercase the URN when that makes it valid.',
      },
      fixes: invalidUrnFixes,
    },
    {
      code: 'urn-payload',
      family: 'contract',
      severity: 'warning',
      summary: 'A URN segment carries an identifier; identifiers belong in data.',
      docs: {
        fires: 'A URN segment is an identifier (all digits, a UUID, a hex id); the range is the segment.',
        instead: 'A URN that names the message type; the identifier goes into `data`.',
        example: { fires: '"job": "urn:babel:orders:1042"', clean: '"job": "urn:babel:orders:created", "data": { "order_id": 1042 }' },
      },
    },
  ],
  check: checkUrn,
});

/** urn-alias, empty-urn, invalid-urn and urn-payload. */
function checkUrn(context: RuleContext<UrnCode>): void {
  const { root } = context.envelope;
  if (!root) return;
  const job = getProperty(root, 'job');
  const urn = getProperty(root, 'urn');
  const jobString = job?.value?.kind === 'string' ? job.value : undefined;
  const urnString = urn?.value?.kind === 'string' ? urn.value : undefined;

  const resolved = resolveUrn(job, urn);
  // A "job" without a value is a syntax error, reported as one: what a consumer does with the
  // alias depends on the value still to be written.
  if (urn && !(job && job.value === undefined)) {
    let message: string;
    // A whitespace job beside urn is a consumer rejection (Node) and a misrouting (PHP, Python, Go) of
    // the fixture as written: an error, as a blank trace_id is. An empty one only PHP rejects, where
    // facts part 1 advises a warning.
    let severity: 'error' | undefined;
    if (!job) message = 'Consumers accept "urn" as an inbound alias, but a producer writes "job" (a Go, Java or .NET relay writes "job"; PHP and Python keep "urn", Node writes both, as the preview shows). Rename it to "job".';
    // The contract drops urn with a warning; the SDKs were measured to warn about nothing, and the dict-based ones relay it.
    else if (resolved?.from === 'job') {
      const kept = urnKeptAsJob(job, urn);
      // A "job" that names no message type beside a "urn" that does: removing "urn" would drop the
      // only URN the fixture has, so the advice, like the preferred fix, keeps it as "job".
      message = kept !== undefined
        ? `"job" wins: every consumer routes on it, but ${literal(shortened(jobString!.value))} names no message type, while "urn" holds one. Replace "job" with the URN in "urn" (${literal(shortened(kept))}).`
        : '"job" wins: every consumer routes on it. The contract has decoders drop "urn" with a warning, but none warns: PHP, Python and Node keep "urn" and relay it, Go, Java and .NET drop it. Remove "urn".';
    }
    else if (jobString?.value === '') message = '"job" is empty, so consumers fall back to "urn", but PHP rejects this shape (it does not fall back on an empty string). Remove the empty "job" and rename "urn" to "job".';
    else if (jobString) {
      message = '"job" is only whitespace: the Node consumer rejects the message, PHP, Python and Go route on the blank URN (no handler has it), and only Java (and, by its code, .NET) falls back to "urn". Remove the blank "job" and rename "urn" to "job".';
      severity = 'error';
    }
    else if (job.value?.kind === 'null') message = '"job" is null, so every consumer falls back to "urn"; a producer writes the URN in "job". Remove the null "job" and rename "urn" to "job".';
    else message = nonStringJobMessage(job.value!);
    context.report('urn-alias', keyRange(urn), message, severity ? { severity } : undefined);
  }

  if (!resolved) {
    const blank = jobString ?? (!job ? urnString : undefined);
    if (blank) {
      const which = blank === jobString ? '"job"' : '"urn"';
      context.report('empty-urn', blank, `${which} is ${blank.value === '' ? 'empty' : 'only whitespace'}: a message without a URN has no identity, and a producer must raise on it. Write a URN such as "urn:babel:orders:created".`);
    }
    return;
  }

  const problem = checkUrnNaming(resolved.node.value, resolved.from);
  if (problem) {
    context.report('invalid-urn', resolved.node, problem.message);
    return;
  }
  const identifier = findUrnIdentifier(resolved.node.value);
  if (identifier) {
    context.report(
      'urn-payload',
      rangeInsideString(resolved.node, identifier.start, identifier.end),
      `The URN segment "${identifier.segment}" looks like ${identifier.kind === 'number' ? 'a number' : `a ${identifier.kind}`}: a URN names a message type, and identifiers belong in "data".`,
    );
  }
}

/**
 * Beside `urn`, a `job` that is no string: Java and .NET decode it as null and fall back; Python's
 * `str(job or urn)` falls back when it is falsy in Python (0, false, [], {}) and otherwise routes on
 * its text; Node's decode copies `urn` into a job falsy in JavaScript (0 and false, not [] or {},
 * which are truthy there) and its accepts() rejects any other (core/encode/node.ts `isFalsy`);
 * PHP (`job ?? urn`) and Go (a typed field) reject the message either way.
 */
function nonStringJobMessage(job: ValueNode): string {
  const fix = ' Remove "job" and rename "urn" to "job".';
  const nodeFallsBack = isFalsy(job);
  const rejecting = list(['PHP', ...(nodeFallsBack ? [] : ['Node']), 'Go']);
  if (!pythonTruthy(job)) {
    const fallingBack = list(['Python', ...(nodeFallsBack ? ['Node'] : []), 'Java', '.NET (by its code)']);
    return `"job" is not a string: ${rejecting} reject the message; ${fallingBack} fall back to "urn".${fix}`;
  }
  const text = pythonStr(job);
  const python = text === undefined ? 'Python routes on the text str() makes of it' : `Python routes on ${literal(text)}`;
  return `"job" is not a string: ${rejecting} reject the message, ${python}, and only Java and .NET (by its code) fall back to "urn".${fix}`;
}

/**
 * The range of characters `start..end` of a string's value, when the source spells the value
 * without escapes (so value offsets equal source offsets); else the whole string token.
 */
export function rangeInsideString(node: StringNode, start: number, end: number): Range {
  if (node.end - node.offset === node.value.length + 2) return { offset: node.offset + 1 + start, end: node.offset + 1 + end };
  return node;
}

function urnAliasFixes({ doc, propertyAtKey }: FixContext): Fix[] {
  const urn = propertyAtKey();
  if (!urn) return [];
  const job = getProperty(urn.parent, 'job');
  if (!job) return [{ title: 'Rename "urn" to "job"', edits: [renameKey(urn, 'job')] }];
  if (resolveUrn(job, urn)?.from === 'job') {
    const remove = { title: 'Remove "urn" ("job" wins)', edits: [removeProperty(doc, urn)] };
    // "job" wins but names no message type (a class name, say) while "urn" holds a URN: removing
    // "urn" would drop the only URN the fixture has, so the obvious fix keeps it, as "job".
    const kept = urnKeptAsJob(job, urn);
    if (kept !== undefined) {
      return [
        { title: `Replace "job" with the URN in "urn" (${literal(kept)})`, edits: [removeProperty(doc, job), renameKey(urn, 'job')], preferred: true },
        { ...remove, preferred: false },
      ];
    }
    return [remove];
  }
  // job is blank or not a string: the urn alias is what consumers route on, so it becomes job.
  return [{ title: 'Replace the unusable "job" with "urn" renamed to "job"', edits: [removeProperty(doc, job), renameKey(urn, 'job')] }];
}

/**
 * The URN in "urn" that the fix keeps as "job" (and the message advises keeping), where "job" wins
 * but names no message type (a class name, say) while "urn" holds a well-formed URN; else undefined.
 */
function urnKeptAsJob(job: PropertyNode, urn: PropertyNode): string | undefined {
  if (job.value?.kind !== 'string' || !checkUrnNaming(job.value.value)) return undefined;
  return urn.value?.kind === 'string' && !checkUrnNaming(urn.value.value) ? urn.value.value : undefined;
}

function invalidUrnFixes({ valueAt }: FixContext): Fix[] {
  const value = valueAt();
  if (value?.kind !== 'string') return [];
  const repaired = value.value.trim().toLowerCase();
  if (repaired === value.value || checkUrnNaming(repaired)) return [];
  return [{ title: `Trim and lowercase the URN to ${literal(repaired)}`, edits: [replaceValue(value, JSON.stringify(repaired))] }];
}
