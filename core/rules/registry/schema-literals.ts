/**
 * Keyword values that BabelQueue's validators read otherwise than draft-07, or otherwise than each
 * other (facts part 2, §1.2, §1.5, §1.7): a bound written as a string or a fraction, a type name
 * draft-07 does not have, `enum`/`const` literals each validator compares in its own types, and
 * `required` names that Node finds on every object. misread-keyword reports each on the value
 * (core/rules/registry/schema-keywords.ts); the payload's side of the same facts is
 * validator-divergence.
 */
import { closestWord } from '../../model/edit-distance';
import { literal, numberLiteral, shortened } from '../../model/describe-value';
import type { ObjectNode, ValueNode } from '../../model/tree';
import { TYPE_NAMES } from '../../registry/schema-problems';
import { phpNumeric, PROTOTYPE_KEYS } from '../../registry/validators/subset-walk';
import type { Range } from '../context';

export interface LiteralMisread extends Range {
  readonly message: string;
}

/** The misread values of one schema object whose `type` (one string) is `type`. */
export function literalMisreads(schema: ObjectNode, type: string | undefined): LiteralMisread[] {
  const found: LiteralMisread[] = [];
  const misread = (at: Range, message: string) => found.push({ offset: at.offset, end: at.end, message });
  for (const { key, value } of schema.properties) {
    if (!value) continue;
    switch (key) {
      case 'type':
        if (value.kind === 'string' && !(TYPE_NAMES as readonly string[]).includes(value.value)) {
          const suggestion = closestWord(value.value, TYPE_NAMES) ?? (value.value === 'int' ? 'integer' : undefined);
          misread(value, `"${shortened(value.value)}" is no JSON type name, so this schema is not valid draft-07, and bqschema (CI) and the PHP, Python, Go, Node and Java SDKs check no type here (nor the keywords they read only beside one: "properties", "minLength", "minimum", …).${suggestion ? ` Did you mean "${suggestion}"?` : ''}`);
        }
        break;
      case 'minLength':
        if (type === 'string') boundMisread(value, 'minLength', 'a non-negative integer', misread);
        break;
      case 'minimum':
        if (type === 'integer' || type === 'number') boundMisread(value, 'minimum', 'a number', misread);
        break;
      case 'enum':
        if (value.kind === 'array') for (const item of value.items) equalityMisreads(item, misread);
        break;
      case 'const':
        equalityMisreads(value, misread);
        break;
      case 'required':
        if (type === 'object' && value.kind === 'array') {
          for (const item of value.items) {
            if (item.kind === 'string' && PROTOTYPE_KEYS.has(item.value)) misread(item, `The Node SDK finds "${item.value}" on every object (it checks \`key in data\`, which reads Object.prototype), so it never reports it missing; bqschema (CI) and the PHP, Python, Go and Java SDKs do.`);
          }
        }
        break;
    }
  }
  return found;
}

/** `minLength` or `minimum` written as a string or (minLength) a fraction: PHP and Node read it otherwise than the rest. */
function boundMisread(value: ValueNode, keyword: string, wanted: string, misread: (at: Range, message: string) => void): void {
  const invalid = `draft-07 wants ${wanted}, so the schema is not valid draft-07`;
  if (value.kind === 'string') {
    const number = phpNumeric(value.value);
    if (number === undefined) misread(value, `"${keyword}" is the string ${literal(value.value)} (${invalid}): bqschema (CI) and the PHP, Python, Go, Node and Java SDKs ignore it.`);
    else misread(value, `"${keyword}" is the string ${literal(value.value)} (${invalid}): the PHP SDK honours it as ${number} (is_numeric), while bqschema (CI) and the Python, Go, Node and Java SDKs ignore it. Write ${number}.`);
  } else if (keyword === 'minLength' && value.kind === 'number' && Number.isFinite(value.value) && !Number.isInteger(value.value)) {
    misread(value, `"minLength" ${numberLiteral(value.raw)} is not an integer (${invalid}): the Node SDK compares lengths with ${numberLiteral(value.raw)} as written, while bqschema (CI) and the PHP, Python, Go and Java SDKs truncate it to ${Math.trunc(value.value)}. Write an integer.`);
  }
}

/**
 * `enum`/`const` literals the validators compare in their own types (facts §1.5): a number written
 * with a fraction or exponent but integral (`1.0`) never equals an integer payload in PHP, Python
 * and Java; an integer beyond 2^53 equals its float64 neighbours in bqschema and Node; an object of
 * several keys must come in the same key order in PHP and Node. Each is said once, on the literal.
 */
function equalityMisreads(value: ValueNode, misread: (at: Range, message: string) => void): void {
  // Python's comparison is typed at the top only (below it, == is untyped: 1 == 1.0).
  const stack: [ValueNode, boolean][] = [[value, true]];
  while (stack.length > 0) {
    const [node, top] = stack.pop()!;
    if (node.kind === 'number') {
      if (!node.isIntegerLiteral && Number.isInteger(node.value)) {
        const strict = top ? 'the PHP, Python and Java SDKs (=== / type / Objects.equals)' : 'the PHP and Java SDKs (=== / Objects.equals)';
        const loose = top ? 'bqschema (CI), the Go and Node SDKs compare the numbers' : 'bqschema (CI), the Go, Node and Python SDKs compare the numbers';
        misread(node, `${numberLiteral(node.raw)} is a float to ${strict}, so an integer payload ${node.value} never equals it there; ${loose}. Write ${node.value} if integers are meant.`);
      } else if (node.isIntegerLiteral && !Number.isSafeInteger(Number(node.raw)) && Number.isFinite(node.value)) {
        misread(node, `${numberLiteral(node.raw)} is beyond 2^53: bqschema (CI), the Go and Node SDKs compare it as a float64, so ${numberLiteral(String(BigInt(node.value)))} equals it there too; the PHP, Python and Java SDKs compare it exactly.`);
      }
    } else if (node.kind === 'array') {
      for (const item of node.items) stack.push([item, false]);
    } else if (node.kind === 'object') {
      if (new Set(node.properties.map((property) => property.key)).size > 1) {
        misread({ offset: node.offset, end: node.offset + 1 }, `The PHP and Node SDKs compare objects with their key order (=== on arrays; JSON.stringify texts, integer-like keys first), so a payload with these keys in another order is rejected there; bqschema (CI) and the Python, Go and Java SDKs do not look at the order.`);
      }
      for (const property of node.properties) if (property.value) stack.push([property.value, false]);
    }
  }
}
