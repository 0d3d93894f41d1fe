/**
 * Data rules, inside `data`: float-currency, unsafe-integer, non-json-boolean, non-iso-time.
 * (encoding-divergence comes with the encoders.)
 */
import { checkIsoTime } from '../time';
import { forEachValue, type NumberNode, type StringNode } from '../tree';
import { classifyKey, type KeyClasses } from '../keys';
import type { Rule, RuleContext } from './context';

const MAX_SAFE = 2n ** 53n - 1n;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** The data rules, on every value inside data (iteratively). */
export const checkData: Rule = (context) => {
  const { data } = context.envelope;
  if (!data) return;
  const classes = classifyKey(context.settings.moneyKeyPatterns);
  forEachValue(data, (node) => {
    if (node === data) return;
    const key = node.property?.key;
    if (node.kind === 'number') checkNumber(context, node, key, classes);
    else if (node.kind === 'string' && key !== undefined) checkString(context, node, key, classes);
  });
};

function checkNumber(context: RuleContext, node: NumberNode, key: string | undefined, classes: KeyClasses): void {
  if (node.isIntegerLiteral) {
    const big = BigInt(node.raw);
    if (big > INT64_MAX || big < INT64_MIN) {
      context.report('unsafe-integer', node, `${node.raw} does not fit a signed 64-bit integer: every SDK but Python and Java loses it. Carry it as a string.`, { severity: 'error' });
    } else if (big > MAX_SAFE || big < -MAX_SAFE) {
      context.report('unsafe-integer', node, `${node.raw} is beyond ±(2^53−1): Node and Go consumers round it (9007199254740993 becomes …992). Carry it as a string.`);
    }
  }
  if (key === undefined) return;
  if (classes.isMoney(key) && !node.isIntegerLiteral && Number.isFinite(node.value)) {
    context.report('float-currency', node, `"${key}" looks like money but holds the float ${node.raw}: floats cannot hold exact decimals. Use integer minor units ("${key}_cents": …) or a decimal string.`);
  }
  if (classes.isBoolean(key) && (node.raw === '0' || node.raw === '1')) {
    context.report('non-json-boolean', node, `"${key}" looks like a boolean but holds ${node.raw}: use JSON ${node.raw === '1' ? 'true' : 'false'}.`);
  }
}

function checkString(context: RuleContext, node: StringNode, key: string, classes: KeyClasses): void {
  if (classes.isBoolean(key)) {
    const lower = node.value.toLowerCase();
    if (lower === 'true' || lower === 'false') {
      context.report('non-json-boolean', node, `"${key}" holds the string ${JSON.stringify(node.value)}: use the JSON boolean ${lower}.`);
    }
    return;
  }
  if (!classes.isTime(key)) return;
  const check = checkIsoTime(node.value);
  if (check === 'no-offset') {
    context.report('non-iso-time', node, `"${key}" has no UTC offset: ${JSON.stringify(node.value)} means a different instant in every consumer's time zone. Add "Z" or an offset such as "+02:00".`);
  } else if (check === 'not-iso') {
    context.report('non-iso-time', node, `"${key}" holds ${JSON.stringify(node.value.length > 40 ? `${node.value.slice(0, 40)}…` : node.value)}, which is not RFC 3339 / ISO 8601: write "2025-06-05T14:12:07Z" or Unix milliseconds.`);
  }
}
