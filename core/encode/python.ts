/**
 * Python (`babelqueue-python` codec.py): the relay is `json.loads` then
 * `json.dumps(ensure_ascii=False, separators=(",", ":"))`, allow_nan left on (facts §3, §8).
 */
import { formatPython, integerText } from './numbers';
import { noteMapRelay, noteDuplicates, tooDeep } from './relay';
import type { EscapeStyle } from './strings';
import type { ValueNode } from '../model/tree';
import { dedupe, finish, Notes, type SdkEncoder, type ValueModel } from './writer';

/**
 * CPython's json module recurses in C against the interpreter's recursion limit (1,000): a bare
 * `json.loads` fails at 996 levels on CPython 3.11 (measured), the SDK's own frames lower that.
 */
export const PYTHON_MAX_DEPTH = 990;

/** Python 3.11's int/str conversion limit: json.loads raises ValueError on longer integers. */
export const PYTHON_MAX_INT_DIGITS = 4300;

const PYTHON_STYLE: EscapeStyle = {
  shortBackspaceFormFeed: true,
  upperHex: false,
  lineSeparators: false,
  dotnetBlockList: false,
  // json.dumps keeps the surrogate; encoding the body as UTF-8 then raises UnicodeEncodeError.
  loneSurrogate: 'error',
};

/** Python's view of JSON values: arbitrary-precision ints, float64 floats, insertion-ordered dicts. */
export const pythonModel: ValueModel = {
  sdk: 'python',
  style: PYTHON_STYLE,
  number(raw, isIntegerLiteral) {
    if (isIntegerLiteral) {
      const digits = raw.length - (raw.startsWith('-') ? 1 : 0);
      if (digits > PYTHON_MAX_INT_DIGITS) {
        return { error: `Python's json.loads refuses an integer of ${digits} digits (ValueError: more than ${PYTHON_MAX_INT_DIGITS}), so decode() returns {} and there is no envelope to relay.` };
      }
      return { text: integerText(raw) };
    }
    const x = Number(raw);
    // allow_nan defaults to True: json.dumps writes the bare token, which is not JSON (facts §1.7).
    if (!Number.isFinite(x)) return { text: x > 0 ? 'Infinity' : '-Infinity', why: 'Python reads it as an infinite float and writes bare Infinity, which is not JSON' };
    return { text: formatPython(x), why: 'a Python float is a float64' };
  },
  object: (node) => ({ kind: 'object', entries: dedupe(node) }),
  loneSurrogateError(code) {
    return `Python cannot write the lone surrogate \\u${code.toString(16)}: json.dumps keeps it and encoding the body as UTF-8 raises UnicodeEncodeError.`;
  },
};

/** What the Python SDK writes when it decodes this envelope and encodes it again. */
export const encodePython: SdkEncoder = ({ root, depth }) => {
  const refused = tooDeep('python', depth, PYTHON_MAX_DEPTH, `CPython's json module raises RecursionError near its default recursion limit of 1,000 (measured: 996 levels fail on CPython 3.11).`);
  if (refused) return refused;
  const notes = new Notes();
  noteMapRelay('python', root, notes);
  noteDuplicates(root, notes);
  return finish({ kind: 'node', node: root, path: undefined }, pythonModel, notes);
};

/** Python's truth value of a decoded JSON value: `job or urn` skips 0, "", [], {}, false and None. */
export function pythonTruthy(node: ValueNode | undefined): node is ValueNode {
  switch (node?.kind) {
    case undefined:
    case 'null':
      return false;
    case 'boolean':
      return node.value;
    case 'number':
      return node.value !== 0;
    case 'string':
      return node.value !== '';
    case 'array':
      return node.items.length > 0;
    case 'object':
      return node.properties.length > 0;
  }
}

/** What Python's str() makes of a value that is no string, as its URN; undefined for a container (its repr). */
export function pythonStr(node: ValueNode): string | undefined {
  if (node.kind === 'boolean') return node.value ? 'True' : 'False';
  if (node.kind !== 'number') return undefined;
  if (node.isIntegerLiteral) return integerText(node.raw);
  if (Number.isNaN(node.value)) return 'nan';
  if (!Number.isFinite(node.value)) return node.value > 0 ? 'inf' : '-inf';
  return formatPython(node.value);
}
