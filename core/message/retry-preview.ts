/**
 * The byte preview's account of a Laravel retry (the laravel Redis layout): the bytes Laravel's
 * reservation script leaves on the queue after a release or retry (../encode/cjson.ts), and in
 * words which of its changes alter what a consumer reads (numbers cut to 14 significant digits,
 * empty lists written as objects) and which are only text (key order, `\/`, a number spelt
 * otherwise with the same value).
 */
import { cjsonRetry, type CjsonRetry } from '../encode/cjson';
import { digitGroups, plural } from '../model/count-words';
import { numberLiteral, shortened } from '../model/describe-value';
import { utf8Length } from '../model/utf8';

/** The changes listed by name; the rest are counted. */
const LISTED = 5;

type RetryDone = Extract<CjsonRetry, { ok: true }>;

/**
 * The preview's section for a published body; `shown` turns a long re-encoded body into the
 * lines shown for it (the preview shows a long body by its ends).
 */
export function retrySectionLines(body: string, shown: (text: string) => string[]): string[] {
  const lines = ['── After a Laravel retry (laravel layout) ──'];
  const retry = cjsonRetry(body);
  if (!retry.ok) {
    lines.push(`Laravel's reservation script decodes the body with cjson and encodes it again; here it cannot: ${retry.reason}.`);
    return lines;
  }
  lines.push(`Laravel's reservation script decodes the body with cjson, adds 1 to attempts and encodes it again; a release or retry leaves these ${digitGroups(utf8Length(retry.text))} bytes on the queue:`);
  lines.push(...shown(retry.text));
  lines.push(`Changes what a consumer reads: ${meaningChanges(retry) ?? 'nothing but attempts'}.`);
  if (retry.attempts) lines.push(`attempts: ${retry.attempts.from} becomes ${retry.attempts.to} (the reservation counts the attempt).`);
  else lines.push('attempts: not a number here, so what Laravel\'s script makes of it is not shown.');
  lines.push(`Text only: ${textChanges(retry)}.`);
  return lines;
}

/** One line for the single-encoder preview (`babelq preview --sdk <name> --layout laravel`), when a retry changes what a consumer reads. */
export function retryNote(body: string): string | undefined {
  const retry = cjsonRetry(body);
  if (!retry.ok) return `a Laravel retry: ${retry.reason}`;
  const changes = meaningChanges(retry);
  return changes ? `a Laravel retry (cjson re-encoding) changes what a consumer reads: ${changes} (\`--sdk all\` shows the bytes)` : undefined;
}

/** The changes of meaning in words, or undefined when there are none. */
function meaningChanges(retry: RetryDone): string | undefined {
  const parts: string[] = [];
  if (retry.changedNumbers.length > 0) {
    const named = retry.changedNumbers.slice(0, LISTED).map((n) => `${shortened(n.path)} ${numberLiteral(n.raw)} becomes ${numberLiteral(n.written)}`);
    parts.push(`${plural(retry.changedNumbers.length, 'number')} cut to 14 significant digits (${named.join(', ')}${more(retry.changedNumbers.length)})`);
  }
  if (retry.emptyLists.length > 0) {
    const named = retry.emptyLists.slice(0, LISTED).map((path) => shortened(path));
    parts.push(`${plural(retry.emptyLists.length, 'empty list')} written as {}, an object, where a consumer expects a list (${named.join(', ')}${more(retry.emptyLists.length)})`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function more(count: number): string {
  return count > LISTED ? `, and ${digitGroups(count - LISTED)} more` : '';
}

/** The changes that leave every value as it was. */
function textChanges(retry: RetryDone): string {
  const parts = ['keys in no fixed order (cjson writes a Lua table\'s order; shown here in the body\'s order)'];
  if (retry.escapedSlashes > 0) parts.push(`/ written as \\/ (${digitGroups(retry.escapedSlashes)})`);
  if (retry.respeltNumbers > 0) parts.push(`${plural(retry.respeltNumbers, 'number')} spelt otherwise with the same value (as "%.14g" writes it: 1.0 as 1, 1e-5 as 1e-05)`);
  return parts.join(', ');
}
