/**
 * PHP core (`php-sdk` EnvelopeCodec, also used by Laravel and Symfony): the relay is
 * `json_decode($raw, true)` then `json_encode` with THROW_ON_ERROR | UNESCAPED_UNICODE |
 * UNESCAPED_SLASHES and `serialize_precision = -1` (facts §3, §8).
 */
import { formatPhp, integerText, literalFitsInt64 } from './numbers';
import { noteMapRelay, noteDuplicates, tooDeep } from './relay';
import { firstLoneSurrogate, type EscapeStyle } from './strings';
import { dedupe, finish, Notes, type SdkEncoder, type ValueModel } from './writer';
import type { ObjectNode } from '../model/tree';
import { forEachValueOutsidePlain } from './plain-subtree';

/**
 * The deepest nesting of arrays and objects that json_decode reads at its default depth of 512:
 * it counts the values inside the deepest container as a level too (PHP 8.2, measured: 511 nested
 * arrays decode, 512 fail with JSON_ERROR_DEPTH, "Maximum stack depth exceeded").
 */
export const PHP_MAX_DEPTH = 511;

const PHP_STYLE: EscapeStyle = {
  shortBackspaceFormFeed: true,
  upperHex: false,
  // Without JSON_UNESCAPED_LINE_TERMINATORS, json_encode escapes U+2028/2029 (facts §8).
  lineSeparators: true,
  dotnetBlockList: false,
  // json_decode rejects an unpaired \uD800 escape (JSON_ERROR_UTF16).
  loneSurrogate: 'error',
};

const LIST_KEY = /^(?:0|[1-9][0-9]*)$/;

/** PHP's view of JSON values: an int64 or else a float, and arrays for every object. */
export const phpModel: ValueModel = {
  sdk: 'php',
  style: PHP_STYLE,
  number(raw, isIntegerLiteral) {
    // The JSON scanner keeps an integer literal as int when it fits 64 bits, else it reads a double.
    if (isIntegerLiteral) {
      if (literalFitsInt64(raw)) return { text: integerText(raw) };
    }
    const x = Number(raw);
    if (!Number.isFinite(x)) return { error: `PHP reads ${raw} as INF and json_encode refuses it (JSON_ERROR_INF_OR_NAN); the relay throws.` };
    return { text: formatPhp(x), why: isIntegerLiteral ? 'PHP reads an integer beyond 64 bits as a float' : 'a PHP float is a float64' };
  },
  object(node) {
    const entries = dedupe(node);
    if (entries.length === 0) return { kind: 'list', items: [], reason: 'empty' };
    // json_encode writes an array whose keys are 0..n-1 in order as a JSON list.
    let list = true;
    for (let i = 0; i < entries.length && list; i++) list = LIST_KEY.test(entries[i].key) && entries[i].key === String(i);
    if (list) return { kind: 'list', items: entries.map((entry) => entry.value), reason: 'list-like' };
    return { kind: 'object', entries };
  },
  loneSurrogateError(code) {
    return `PHP's json_decode rejects the unpaired surrogate \\u${code.toString(16)} (JSON_ERROR_UTF16), so decode() returns [] and there is no envelope to relay.`;
  },
};

/** What the PHP core writes when it decodes this envelope and encodes it again. */
export const encodePhp: SdkEncoder = ({ root, depth }) => {
  const refused = tooDeep('php', depth, PHP_MAX_DEPTH, `PHP's json_decode reads at most ${PHP_MAX_DEPTH} nested arrays and objects (its default depth of 512, JSON_ERROR_DEPTH), so decode() returns [] and there is no envelope to relay.`);
  if (refused) return refused;
  // json_decode refuses the whole document for one unpaired surrogate escape anywhere, even in a
  // value a later duplicate key replaces (measured against php-cli in test/oracle/runtimes.test.ts).
  const lone = firstLoneSurrogateIn(root);
  if (lone !== undefined) return { ok: false, error: phpModel.loneSurrogateError(lone), notes: [] };
  const notes = new Notes();
  noteMapRelay('php', root, notes);
  noteDuplicates(root, notes);
  return finish({ kind: 'node', node: root, path: undefined }, phpModel, notes);
};

/** The code unit of the first unpaired surrogate in any string or key of the document. */
function firstLoneSurrogateIn(root: ObjectNode): number | undefined {
  let found: number | undefined;
  const check = (text: string) => {
    found ??= firstLoneSurrogate(text);
  };
  forEachValueOutsidePlain(root, (node) => {
    if (node.kind === 'string') check(node.value);
    else if (node.kind === 'object') for (const property of node.properties) check(property.key);
  });
  return found;
}
