/**
 * The URN, as the contract and the fleet see it: which one an envelope routes on (as the SDK
 * decoders resolve it), its naming rules (`urn:babel:<context>:<event>`, lowercase ASCII, no class
 * names, no payload) and its parts.
 */
import { getProperty, type ObjectNode, type PropertyNode, type StringNode } from '../model/tree';
import { trimEnds } from '../model/trim-ends';
import { isBlank } from './envelope';
import { shortened } from '../model/describe-value';

/**
 * The longest URN a message or a fix's title quotes whole (a real one is tens of characters, and
 * is copied from the message); a longer one by its start and `…`. A URN of 100,000 characters in
 * a fixture or registry.json made a 100 KB finding.
 */
const MAX_QUOTED_URN = 200;

/** A URN as a message quotes it: whole up to 200 characters, else its start and `…`. */
export function quotedUrn(urn: string): string {
  return shortened(urn, MAX_QUOTED_URN);
}


export interface UrnProblem {
  /** Which rule the URN breaks, in a user's words. */
  readonly message: string;
}

const CONTEXT = /^[a-z0-9-]+$/;
const EVENT_PART = /^[a-z0-9_-]+$/;
/** A URN that keeps every naming rule below, told in one match: what nearly every fixture holds. */
const WELL_FORMED = /^urn:babel:[a-z0-9-]+:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/**
 * A character by its code point, and itself too when it is seen as written (a letter, digit,
 * punctuation or symbol): a look-alike letter (Cyrillic `а` in `orders`) is then found, and an
 * invisible or reordering one (a bidirectional override, a combining mark) is named, not applied.
 */
function describeCharacter(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const character = String.fromCodePoint(code);
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character) ? `${hex} "${character}"` : hex;
}

/**
 * Checks a URN against the naming rules; returns the first rule it breaks, or undefined. `from`
 * says which envelope key holds it, when it comes from one: the SDKs trim `job` and the `urn`
 * alias differently.
 */
export function checkUrnNaming(urn: string, from?: 'job' | 'urn'): UrnProblem | undefined {
  return WELL_FORMED.test(urn) ? undefined : checkUrnNamingRuleByRule(urn, from);
}

/** checkUrnNaming without its one-match shortcut for a well-formed URN: the rules in turn. */
export function checkUrnNamingRuleByRule(urn: string, from?: 'job' | 'urn'): UrnProblem | undefined {
  if (urn !== urn.trim()) return { message: `${paddingMessage(urn, from)}${repairedAdvice(urn)}` };
  if (/\s/.test(urn)) return { message: 'The URN contains whitespace; use lowercase letters, digits, `-`, `_` and `.` only.' };
  const nonAscii = urn.search(/[^\x00-\x7f]/);
  if (nonAscii >= 0) return { message: `The URN contains a non-ASCII character, ${describeCharacter(urn.codePointAt(nonAscii)!)}, ${nonAscii === 0 ? 'at its start' : `after \`${urn.slice(0, nonAscii)}\``}; URNs are lowercase ASCII from [a-z0-9:._-].` };
  if (urn.includes('\\')) return { message: 'This looks like a PHP class name; the URN is language-agnostic: write `urn:babel:<context>:<event>`.' };
  if (!urn.toLowerCase().startsWith('urn:babel:')) {
    if (/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+$/.test(urn) && /[A-Z]/.test(urn)) {
      return { message: 'This looks like a Java/.NET class name; the URN is language-agnostic: write `urn:babel:<context>:<event>`.' };
    }
    return { message: 'A URN starts with `urn:babel:` followed by `<context>:<event>`.' };
  }
  if (/[A-Z]/.test(urn)) return { message: `The URN contains uppercase letters; URNs are lowercase.${repairedAdvice(urn)}` };
  const parts = urn.split(':');
  if (parts.length !== 4) return { message: `A URN has exactly four parts, \`urn:babel:<context>:<event>\`; this one has ${parts.length}.` };
  const [, , context, event] = parts;
  if (context === '') return { message: 'The bounded context (third part) is empty.' };
  if (!CONTEXT.test(context)) return { message: `The context \`${context}\` may only use [a-z0-9-].` };
  if (event === '') return { message: 'The event or command (fourth part) is empty.' };
  const eventParts = event.split('.');
  if (eventParts.some((part) => part === '')) return { message: `The event \`${event}\` has an empty dot-separated part.` };
  const bad = eventParts.find((part) => !EVENT_PART.test(part));
  if (bad !== undefined) return { message: `The event part \`${bad}\` may only use [a-z0-9_-] (dots separate parts).` };
  return undefined;
}

/** " Write "…"." with the URN trimmed and lowercased, where that makes it well-formed (what invalid-urn's quick fix writes); else nothing. */
function repairedAdvice(urn: string): string {
  const repaired = urn.trim().toLowerCase();
  // Up to 120 characters quoted whole: a URN cut short would not be the one to write.
  return WELL_FORMED.test(repaired) && repaired.length <= 120 ? ` Write ${JSON.stringify(repaired)}.` : '';
}

/** ASCII white space: \t, \n, \v, \f, \r and the space. */
const isAsciiSpace = (code: number): boolean => code === 0x20 || (code >= 0x09 && code <= 0x0d);

/**
 * Who keeps a padded URN padded. Go's Decode trims only the `urn` alias (strings.TrimSpace), and
 * routes on `job` as written; Node's, Java's and .NET's urn() trim either (Java's and .NET's relays
 * still write it padded); PHP and Python never trim. Java's strip() keeps NBSP, so the lists hold
 * for ASCII padding only.
 */
function paddingMessage(urn: string, from: 'job' | 'urn' | undefined): string {
  const start = 'The URN has leading or trailing whitespace';
  const asciiPadding = trimEnds(urn, isAsciiSpace) === urn.trim();
  if (from === 'job' && asciiPadding) return `${start}: PHP, Python and Go route on it padded (no handler has that URN); Node, Java and .NET (by its code) trim it.`;
  if (from === 'urn' && asciiPadding) return `${start}: PHP and Python keep it padded; Node, Go, Java and .NET (by its code) trim it.`;
  return `${start}; SDKs trim it differently (PHP and Python keep it padded).`;
}

/** A URN segment that carries an identifier, with its position inside the URN string. */
export interface UrnIdentifier {
  readonly segment: string;
  readonly start: number;
  readonly end: number;
  readonly kind: 'number' | 'uuid' | 'hex id';
}

const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Finds the first context or event segment that is an identifier (digits, a UUID, a hex id). */
export function findUrnIdentifier(urn: string): UrnIdentifier | undefined {
  const parts = urn.split(':');
  if (parts.length < 3 || parts[0] !== 'urn' || parts[1] !== 'babel') return undefined;
  let cursor = parts[0].length + 1 + parts[1].length + 1;
  for (let index = 2; index < parts.length; index++) {
    const part = parts[index];
    const segments = index === 2 ? [part] : part.split('.');
    let inner = cursor;
    for (const segment of segments) {
      const kind = identifierKind(segment);
      if (kind) return { segment, start: inner, end: inner + segment.length, kind };
      inner += segment.length + 1;
    }
    cursor += part.length + 1;
  }
  return undefined;
}

function identifierKind(segment: string): UrnIdentifier['kind'] | undefined {
  if (/^[0-9]+$/.test(segment)) return 'number';
  if (UUID_SEGMENT.test(segment)) return 'uuid';
  if (/^[0-9a-f]{8,}$/i.test(segment) && /[0-9]/.test(segment) && /[a-f]/i.test(segment)) return 'hex id';
  return undefined;
}

/** The URN the decoders would route on, and the property it came from. */
export interface ResolvedUrn {
  readonly node: StringNode;
  readonly from: 'job' | 'urn';
}

/** Resolves the routing URN as the SDK decoders do; undefined when there is none. */
export function resolveUrn(job: PropertyNode | undefined, urn: PropertyNode | undefined): ResolvedUrn | undefined {
  if (job?.value?.kind === 'string' && !isBlank(job.value.value)) return { node: job.value, from: 'job' };
  if (urn?.value?.kind === 'string' && !isBlank(urn.value.value)) return { node: urn.value, from: 'urn' };
  return undefined;
}

/** The URN an envelope's root routes on (`job`, else the `urn` alias); undefined when there is none. */
export function routingUrn(root: ObjectNode | undefined): ResolvedUrn | undefined {
  return resolveUrn(getProperty(root, 'job'), getProperty(root, 'urn'));
}

/** The bounded context of a URN (`urn:babel:orders:created` → `orders`), if it has one. */
export function urnContext(urn: string): string | undefined {
  const parts = urn.trim().split(':');
  if (parts.length < 4 || parts[0] !== 'urn' || parts[1] !== 'babel' || parts[2] === '') return undefined;
  return parts[2];
}

/**
 * The parts of a URN after `urn:babel:` (`urn:babel:orders:created` → `orders`, `created`), read
 * leniently (any case, trimmed) for names made from a URN a queue handed over; none without that prefix.
 */
export function urnNameParts(urn: string): string[] {
  return /^urn:babel:(.+)$/i.exec(urn.trim())?.[1]?.split(':') ?? [];
}

/**
 * The URN of the next version of a message type, as BabelQueue's versioning rule mints it for a
 * breaking change: `…:created` → `…:created.v2`, `…:created.v2` → `…:created.v3`.
 */
export function nextVersion(urn: string): string {
  const match = /^(.*)\.v(\d+)$/.exec(urn);
  return match ? `${match[1]}.v${Number(match[2]) + 1}` : `${urn}.v2`;
}
