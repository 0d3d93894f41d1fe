/**
 * URN rules: urn-alias, empty-urn, invalid-urn, urn-payload.
 * Resolution follows the decoders: `job` unless it is blank or absent, then the `urn` alias.
 */
import { getProperty, type StringNode } from '../model/tree';
import { checkUrnNaming, findUrnIdentifier, resolveUrn } from '../contract/urn';
import { keyRange, type Range, type Rule } from './context';

/** urn-alias, empty-urn, invalid-urn and urn-payload. */
export const checkUrn: Rule = (context) => {
  const { root } = context.envelope;
  if (!root) return;
  const job = getProperty(root, 'job');
  const urn = getProperty(root, 'urn');
  const jobString = job?.value?.kind === 'string' ? job.value : undefined;
  const urnString = urn?.value?.kind === 'string' ? urn.value : undefined;

  const resolved = resolveUrn(job, urn);
  if (urn) {
    let message: string;
    if (!job) message = 'Consumers accept "urn" as an inbound alias, but a producer writes "job" (the preview and the send write "job", never "urn"). Rename it to "job".';
    else if (resolved?.from === 'job') message = '"job" wins and "urn" is dropped on decode, with a warning. Remove "urn".';
    else if (jobString) message = '"job" is blank, so consumers fall back to "urn", but PHP rejects this shape (it does not fall back on an empty string). Remove the blank "job" and rename "urn" to "job".';
    else message = '"job" is not a string, so no SDK can route on it; consumers that fall back read "urn". Remove "job" and rename "urn" to "job".';
    context.report('urn-alias', keyRange(urn), message);
  }

  if (!resolved) {
    const blank = jobString ?? (!job ? urnString : undefined);
    if (blank) {
      const which = blank === jobString ? '"job"' : '"urn"';
      context.report('empty-urn', blank, `${which} is ${blank.value === '' ? 'empty' : 'only whitespace'}: a message without a URN has no identity, and a producer must raise on it. Write a URN such as "urn:babel:orders:created".`);
    }
    return;
  }

  const problem = checkUrnNaming(resolved.node.value);
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
};

/**
 * The range of characters `start..end` of a string's value, when the source spells the value
 * without escapes (so value offsets equal source offsets); else the whole string token.
 */
export function rangeInsideString(node: StringNode, start: number, end: number): Range {
  if (node.end - node.offset === node.value.length + 2) return { offset: node.offset + 1 + start, end: node.offset + 1 + end };
  return node;
}
