/**
 * What a Laravel retry changes in a message's meaning (facts §4.1: Laravel's reservation script,
 * which Python's `laravel=1` mode runs too, decodes the body with Lua cjson, adds one to
 * `attempts` and encodes it again; a release or retry puts those bytes back on the queue):
 * numbers cut to 14 significant digits, and empty lists written as `{}`, since a Lua table cannot
 * tell an empty list from an empty object. Key order and `\/` change only the text, and are left
 * to the byte preview. These are encoding-divergence findings with the laravel Redis layout.
 */
import { Flag, Kind, type Columns } from '../parse/columns';
import { columnsOf } from '../parse/document';
import { asObject, getProperty, type ValueNode } from '../model/tree';
import { CJSON_SIGNIFICANT_DIGITS, cjsonChangedNumber } from './cjson-number';
import type { Divergence } from './divergence';

const RETRY = "a Laravel retry (the laravel Redis layout: Laravel's reservation re-encodes the message through cjson";

/** The finding on a number literal `text[offset..end)` whose value a Laravel retry changes. */
export function laravelRetryNumber(text: string, offset: number, end: number, isIntegerLiteral: boolean): Divergence | undefined {
  // Most literals are short: no slice of the text for them.
  if (end - offset <= CJSON_SIGNIFICANT_DIGITS) return undefined;
  const raw = text.slice(offset, end);
  const written = cjsonChangedNumber(raw, isIntegerLiteral);
  if (written === undefined) return undefined;
  const value = Number(written);
  const plain = /e/.test(written) && Number.isInteger(value) && Math.abs(value) < 1e21 ? `, which is ${String(value)}` : '';
  return {
    offset,
    end,
    severity: 'warning',
    message: `${raw}: ${RETRY}, which keeps ${CJSON_SIGNIFICANT_DIGITS} significant digits) writes it as ${written}${plain}, so a consumer of the retried message reads another number. Write it with at most ${CJSON_SIGNIFICANT_DIGITS} significant digits, or send it as a string`,
  };
}

/**
 * The finding on an empty list at `offset..end`: information, as Laravel's own departure from the
 * contract, which lets a fixture hold an empty list (a number past 14 digits is a warning: the
 * facts' interop advice for a message Laravel may retry is at most 14, and a string keeps it).
 */
function emptyList(offset: number, end: number, literal: string): Divergence {
  return {
    offset,
    end,
    severity: 'information',
    message: `${literal}: ${RETRY}, which cannot tell an empty list from an empty object) writes this empty list as {}, so a consumer expecting a list gets an object. Leave the key out or send null where the consumer allows it; a list with items is kept`,
  };
}

/**
 * Every number and empty list of the envelope a Laravel retry changes, in document order; with
 * `outside`, only those outside that value (data's: after an edit outside it, whose findings
 * stand). `data` itself written as `[]` is no list a consumer expects: cjson's `{}` is what the
 * contract asks, and other findings say what `[]` there does.
 */
export function laravelRetryDivergences(doc: { readonly root: ValueNode | undefined }, outside?: ValueNode): Divergence[] {
  const root = doc.root;
  if (!root) return [];
  const data = getProperty(asObject(root), 'data')?.value;
  const topData = data?.kind === 'array' ? data : undefined;
  const found: Divergence[] = [];
  const parsed = columnsOf(root);
  if (parsed) {
    const skip = outside && columnsOf(outside);
    const top = topData && columnsOf(topData);
    scanColumns(parsed.columns, parsed.text, parsed.slot, skip ? skip.slot : -1, top ? top.slot : -1, found);
  } else {
    scanTree(root, outside, topData, found);
  }
  return found;
}

function scanColumns(columns: Columns, text: string, slot: number, skipped: number, topData: number, found: Divergence[]): void {
  const { info, start, end, next } = columns;
  const last = next[slot];
  for (let at = slot; at < last; at++) {
    if (at === skipped) {
      at = next[at] - 1;
      continue;
    }
    const flags = info[at];
    const kind = flags & Flag.KindMask;
    if (kind === Kind.Number) {
      if (end[at] - start[at] <= CJSON_SIGNIFICANT_DIGITS) continue;
      const divergence = laravelRetryNumber(text, start[at], end[at], (flags & Flag.Integer) !== 0);
      if (divergence) found.push(divergence);
    } else if (kind === Kind.Array && next[at] === at + 1 && at !== topData) {
      found.push(emptyList(start[at], end[at], text.slice(start[at], end[at])));
    }
  }
}

/** The same walk over a tree that has no columns. */
function scanTree(root: ValueNode, outside: ValueNode | undefined, topData: ValueNode | undefined, found: Divergence[]): void {
  const stack: ValueNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === outside) continue;
    if (node.kind === 'number') {
      const divergence = laravelRetryNumber(node.raw, 0, node.raw.length, node.isIntegerLiteral);
      if (divergence) found.push({ ...divergence, offset: node.offset, end: node.end });
    } else if (node.kind === 'array') {
      if (node.items.length === 0 && node !== topData) found.push(emptyList(node.offset, node.end, '[]'));
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    } else if (node.kind === 'object') {
      for (let i = node.properties.length - 1; i >= 0; i--) {
        const value = node.properties[i].value;
        if (value) stack.push(value);
      }
    }
  }
}

/**
 * `found` (sorted by place) with the Laravel retry's findings joined in: on a token that already
 * has a finding, one finding saying both, a warning if either is (one token, one finding); the rest added.
 */
export function withLaravelRetry(found: readonly Divergence[], retry: readonly Divergence[]): Divergence[] {
  if (retry.length === 0) return [...found];
  const merged: Divergence[] = [];
  let next = 0;
  for (const divergence of found) {
    while (next < retry.length && (retry[next].offset < divergence.offset || (retry[next].offset === divergence.offset && retry[next].end < divergence.end))) merged.push(retry[next++]);
    if (next < retry.length && retry[next].offset === divergence.offset && retry[next].end === divergence.end) {
      const severity = divergence.severity === 'warning' || retry[next].severity === 'warning' ? 'warning' : 'information';
      merged.push({ ...divergence, severity, message: `${divergence.message.replace(/\.$/, '')}; and ${retry[next].message.slice(retry[next].message.indexOf(': ') + 2)}` });
      next++;
    } else {
      merged.push(divergence);
    }
  }
  while (next < retry.length) merged.push(retry[next++]);
  return merged;
}
