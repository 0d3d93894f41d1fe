/**
 * .NET core (`babelqueue-dotnet` EnvelopeCodec, read through the search index): the relay parses
 * with JsonDocument, reads the typed fields with TryGetProperty (the last duplicate wins) and
 * TryGetInt32/TryGetInt64 (anything else reads as 0), turns `data` into a Dictionary (a number is
 * a long when it fits, else a double), and serializes with JavaScriptEncoder.UnsafeRelaxedJsonEscaping
 * (facts §3, §8). UNVERIFIED: no .NET runtime was available; this follows the code and the
 * Microsoft documentation as the facts do.
 */
import { asObject, type ObjectNode } from '../model/tree';
import { formatDotnet, integerText, literalFitsInt32, literalFitsInt64 } from './numbers';
import { droppedKeys, noteDropped, noteDuplicates, noteIntegral, stringValue, TYPED_FIELDS, tooDeep, typedRepeats } from './relay';
import type { EscapeStyle } from './strings';
import { child, dedupe, dottedPath, finish, lastValue, Notes, type Out, type OutEntry, type SdkEncoder, type ValueModel } from './writer';

/** JsonDocumentOptions.MaxDepth defaults to 64; deeper input throws JsonException. */
export const DOTNET_MAX_DEPTH = 64;

const DOTNET_STYLE: EscapeStyle = {
  shortBackspaceFormFeed: true,
  upperHex: true,
  lineSeparators: true,
  dotnetBlockList: true,
  // Facts §8 (unverified): replaced, written as \uFFFD.
  loneSurrogate: 'replacement-escape',
};

/** .NET's view of JSON values: long when TryGetInt64 succeeds, else double; insertion order. */
export const dotnetModel: ValueModel = {
  sdk: 'dotnet',
  style: DOTNET_STYLE,
  number(raw, isIntegerLiteral) {
    if (isIntegerLiteral && literalFitsInt64(raw)) return { text: integerText(raw) };
    const x = Number(raw);
    if (!Number.isFinite(x)) return { error: `.NET's GetDouble refuses ${raw} (it is not a finite double) and throws FormatException; the relay fails.` };
    return { text: formatDotnet(x), why: isIntegerLiteral ? '.NET reads an integer beyond 64 bits as a double' : 'a .NET double is a float64' };
  },
  object: (node) => ({ kind: 'object', entries: dedupe(node) }),
  escapeRemark: () => 'UNVERIFIED: from the relaxed encoder\'s documented block list',
  loneSurrogateError: () => 'unreachable: .NET replaces lone surrogates',
  replacedSurrogateText: '\\uFFFD (facts §8, unverified: GetString may instead throw on an unpaired surrogate escape)',
};

/** TryGetInt32 / TryGetInt64: an integer literal in range, else the fallback 0. */
function tryGetInteger(object: ObjectNode | undefined, key: string, bits: 32 | 64): bigint {
  const node = lastValue(object, key);
  if (node?.kind !== 'number' || !node.isIntegerLiteral) return 0n;
  return (bits === 32 ? literalFitsInt32(node.raw) : literalFitsInt64(node.raw)) ? BigInt(node.raw) : 0n;
}

/** string.IsNullOrWhiteSpace for a string: every character char.IsWhiteSpace. */
export function isDotnetBlank(value: string): boolean {
  return /^\p{White_Space}*$/u.test(value);
}

/**
 * The job the .NET decoder reads: `job` unless null or white space, then the `urn` alias as is,
 * each its last copy (TryGetProperty); undefined when neither is a string.
 */
export function dotnetDecodedJob(root: ObjectNode): string | undefined {
  const job = stringValue(lastValue(root, 'job'));
  if (job !== undefined && !isDotnetBlank(job)) return job;
  return stringValue(lastValue(root, 'urn')) ?? job;
}

/** The fields a key fills as the model reads them (by exact key), the `urn` alias included. */
const TYPED_REPEATS = typedRepeats((scope, key) => (TYPED_FIELDS[scope].includes(key) || (scope === 'root' && key === 'urn') ? key : undefined));

/** What the .NET SDK writes when it decodes this envelope and encodes it again (UNVERIFIED). */
export const encodeDotnet: SdkEncoder = ({ root, depth }) => {
  const refused = tooDeep('dotnet', depth,
    DOTNET_MAX_DEPTH,
    `.NET's JsonDocument stops at ${DOTNET_MAX_DEPTH} levels (JsonDocumentOptions.MaxDepth), so Decode returns an empty envelope that Accepts rejects.`,
  );
  if (refused) return refused;
  const notes = new Notes();
  noteDuplicates(root, notes, TYPED_REPEATS);

  // Decode: dotnetDecodedJob's reading, with a note when the alias is taken.
  let job = stringValue(lastValue(root, 'job'));
  if (job === undefined || isDotnetBlank(job)) {
    const alias = stringValue(lastValue(root, 'urn'));
    if (alias !== undefined) {
      job = alias;
      notes.add('representation', '.NET resolves the inbound alias "urn" into "job" (as is, untrimmed) and does not write "urn", as the contract asks.', 'job');
    }
  }
  const data = asObject(lastValue(root, 'data'));
  const meta = asObject(lastValue(root, 'meta'));
  const deadLetter = asObject(lastValue(root, 'dead_letter'));
  const exact = (scope: 'root' | 'meta' | 'dead_letter', key: string) => (TYPED_FIELDS[scope].includes(key) ? key : undefined);
  noteDropped('dotnet', droppedKeys(root, exact, (key) => key === 'urn', meta ? [meta] : [], deadLetter ? [deadLetter] : []), notes);
  if (!data) notes.add('contract', '.NET writes "data":null: data is absent or not an object (the contract says data is an object).', 'data');

  const integer = (object: ObjectNode | undefined, key: string, bits: 32 | 64, path: string): Out => {
    const value = tryGetInteger(object, key, bits);
    noteIntegral('.NET', lastValue(object, key), value, bits === 32 ? 'int' : 'long', path, notes);
    return { kind: 'raw', text: value.toString() };
  };
  const text = (object: ObjectNode | undefined, key: string, path: string, fallback?: string): Out => {
    const value = stringValue(lastValue(object, key)) ?? fallback;
    return value === undefined ? { kind: 'raw', text: 'null' } : { kind: 'string', value, path: dottedPath(path) };
  };

  const entries: OutEntry[] = [
    { key: 'job', value: job === undefined ? { kind: 'raw', text: 'null' } : { kind: 'string', value: job, path: dottedPath('job') } },
    { key: 'trace_id', value: text(root, 'trace_id', 'trace_id') },
    { key: 'data', value: data ? { kind: 'node', node: data, path: child(undefined, 'data') } : { kind: 'raw', text: 'null' } },
    {
      key: 'meta',
      value: {
        kind: 'object',
        path: child(undefined, 'meta'),
        // A missing meta is written with nulls and zeros (meta?.Id, meta?.SchemaVersion ?? 0, …).
        entries: [
          { key: 'id', value: text(meta, 'id', 'meta.id') },
          { key: 'queue', value: text(meta, 'queue', 'meta.queue') },
          { key: 'lang', value: text(meta, 'lang', 'meta.lang') },
          { key: 'schema_version', value: integer(meta, 'schema_version', 32, 'meta.schema_version') },
          { key: 'created_at', value: integer(meta, 'created_at', 64, 'meta.created_at') },
        ],
      },
    },
    { key: 'attempts', value: integer(root, 'attempts', 32, 'attempts') },
  ];
  if (deadLetter) {
    entries.push({
      key: 'dead_letter',
      value: {
        kind: 'object',
        path: child(undefined, 'dead_letter'),
        entries: [
          { key: 'reason', value: text(deadLetter, 'reason', 'dead_letter.reason', '') },
          { key: 'error', value: text(deadLetter, 'error', 'dead_letter.error') },
          { key: 'exception', value: text(deadLetter, 'exception', 'dead_letter.exception') },
          { key: 'failed_at', value: integer(deadLetter, 'failed_at', 64, 'dead_letter.failed_at') },
          { key: 'original_queue', value: text(deadLetter, 'original_queue', 'dead_letter.original_queue', '') },
          { key: 'attempts', value: integer(deadLetter, 'attempts', 32, 'dead_letter.attempts') },
          { key: 'lang', value: text(deadLetter, 'lang', 'dead_letter.lang', '') },
        ],
      },
    });
  }
  return finish({ kind: 'object', entries, path: undefined }, dotnetModel, notes);
};
