/**
 * One token, one finding: where two codes fire on exactly the same token for one cause, the
 * stronger one is shown and carries the other as related information (its message, and its
 * quick fixes: core/language/code-actions.ts offers them too). A user who turned the stronger
 * code off still sees the other one, since this runs after the settings; one whose settings put
 * the other code's severity above the stronger one's (raising the one, or lowering the other) sees
 * that one shown, carrying the first: the finding shown on a token has the highest severity found
 * there, which is what `babelq lint`'s exit status and --max-warnings count.
 */
import { TRAILING_TEXT_MESSAGE } from '../parse/parser';
import type { Code } from './code-names';
import type { CoreDiagnostic, RelatedFinding, Severity } from './diagnostic';

const STRENGTH: Record<Severity, number> = { error: 3, warning: 2, information: 1, hint: 0 };

/**
 * [shown, carried] (swapped where the settings raise the second above the first): the number beyond 2^53 (and so written differently; beyond the double range, also
 * relayed by Python as bare Infinity), the URN that is malformed
 * (and so unknown), the boolean written as 0/1 or "false" (and so failing the schema), the extra
 * meta key (which the typed SDKs drop on relay, and which the contract advises under meta.ext), the
 * key that differs from a core key only in case (which Go reads as that field and the typed SDKs
 * drop on relay; where the field itself is missing, the missing field on that key), the
 * core field that consumers reject (and so also reject after a relay), the number that is no JSON
 * (a leading zero: so no integer literal either), the money written as a float whose literal the
 * encoders also write differently (`10.0`, `1e3`, `-0.0`: minor units or a string end both), the
 * object a syntax error left open (an inner object's missing `}` makes the keys after it its own,
 * so the envelope lacks them only because of that one error), the value a syntax error is in (a
 * string broken across two lines holds a line break its schema does not expect), the data value
 * a data rule explains and the payload schema refuses for that reason (a time without its "Z" is
 * shorter than the schema's minLength, or fails its format or pattern; money in a float is no
 * integer; a number beyond 2^53 where the schema wants the string both advise): the schema's
 * finding is shown, carrying the data rule's, whose fix ends both.
 */
export const SAME_CAUSE: readonly (readonly [Code, Code])[] = [
  ['unsafe-integer', 'encoding-divergence'],
  ['unsafe-integer', 'consumer-rejects'],
  ['invalid-urn', 'unknown-urn'],
  ['payload-schema', 'non-json-boolean'],
  ['encoding-divergence', 'extension-key'],
  ['missing-field', 'encoding-divergence'],
  ['missing-field', 'case-mismatch'],
  ['encoding-divergence', 'case-mismatch'],
  ['invalid-value', 'consumer-rejects'],
  ['json-syntax', 'wrong-type'],
  ['json-syntax', 'missing-field'],
  ['json-syntax', 'payload-schema'],
  ['float-currency', 'encoding-divergence'],
  // After the pairs above: what these data rules already carry goes along into the schema's finding.
  ['payload-schema', 'non-iso-time'],
  ['payload-schema', 'float-currency'],
  ['payload-schema', 'unsafe-integer'],
];

/**
 * The payload-schema refusals each data rule explains, by the schema keyword the value fails: a
 * time without its "Z" is too short, or fails the format or pattern; money in a float is no integer
 * (or no multiple); a number beyond 2^53 is no string. Refused for another reason (Unix seconds as
 * a number where a string is wanted, an integer below the minimum), the data rule's fix would not
 * end the schema's finding, so both are shown.
 */
const EXPLAINED_REFUSALS: Partial<Record<Code, ReadonlySet<string>>> = {
  'non-iso-time': new Set(['minLength', 'maxLength', 'format', 'pattern']),
  'float-currency': new Set(['type', 'multipleOf']),
  'unsafe-integer': new Set(['type']),
};

/** Whether `one` (of the pair's first code) and `other` have one cause: for payload-schema and a data rule, a refusal that rule explains. */
function sameCause(one: CoreDiagnostic, other: CoreDiagnostic): boolean {
  const explained = one.code === 'payload-schema' ? EXPLAINED_REFUSALS[other.code] : undefined;
  return explained === undefined || (one.schemaKeyword !== undefined && explained.has(one.schemaKeyword));
}

/**
 * The diagnostics (sorted by position) with each carried finding folded into the one shown on its
 * token; `setByUser` tells the codes whose severity the settings chose.
 */
export function foldSameCause(diagnostics: readonly CoreDiagnostic[], setByUser: (code: Code) => boolean = () => false): CoreDiagnostic[] {
  const result: CoreDiagnostic[] = [];
  let index = 0;
  while (index < diagnostics.length) {
    // Sorted by offset, then end: one token's findings are neighbours.
    let last = index + 1;
    while (last < diagnostics.length && diagnostics[last].offset === diagnostics[index].offset && diagnostics[last].end === diagnostics[index].end) last++;
    if (last - index === 1) result.push(diagnostics[index]);
    else result.push(...foldToken(diagnostics.slice(index, last), setByUser));
    index = last;
  }
  return result;
}

function foldToken(token: readonly CoreDiagnostic[], setByUser: (code: Code) => boolean): CoreDiagnostic[] {
  const carried = new Map<CoreDiagnostic, RelatedFinding[]>();
  const folded = new Set<CoreDiagnostic>();
  for (const [first, second] of SAME_CAUSE) {
    const one = token.find((d) => d.code === first && !folded.has(d));
    const other = token.find((d) => d.code === second && !folded.has(d));
    if (!one || !other || !sameCause(one, other)) continue;
    const raised = (setByUser(second) || setByUser(first)) && STRENGTH[other.severity] > STRENGTH[one.severity];
    const [primary, carriedCode] = raised ? [other, first] : [one, second];
    for (const candidate of token) {
      if (candidate.code !== carriedCode || folded.has(candidate) || candidate === primary) continue;
      folded.add(candidate);
      // A finding folded here may already carry one from an earlier pair (settings can make the
      // later pair's second code the stronger): those go along with it, or they would vanish.
      const alreadyCarried = carried.get(candidate) ?? [];
      carried.delete(candidate);
      carried.set(primary, [...(carried.get(primary) ?? []), { code: candidate.code, severity: candidate.severity, message: candidate.message, offset: candidate.offset, end: candidate.end }, ...alreadyCarried]);
    }
  }
  return token.filter((d) => !folded.has(d)).map((d) => (carried.has(d) ? { ...d, related: [...(d.related ?? []), ...carried.get(d)!] } : d));
}

/**
 * A "}" too many in an inner object closes the envelope early (one after the envelope's last value
 * is reported on itself by the parser, which reads the keys after it): the keys after it are text
 * after the end of the value (json-syntax, on the comma that follows), and the envelope lacks them
 * only because of that one brace. Such a missing-field on the envelope is carried by that json-syntax finding when its key
 * is written in the text after the end and is no stronger than it; a field written nowhere stays
 * a finding of its own.
 */
export function foldIntoEarlyClose(diagnostics: readonly CoreDiagnostic[], text: string, rootOffset: number | undefined): CoreDiagnostic[] {
  const early = diagnostics.find((d) => d.code === 'json-syntax' && d.message === TRAILING_TEXT_MESSAGE && text[d.offset] === ',');
  if (!early || rootOffset === undefined) return [...diagnostics];
  const after = text.slice(early.offset);
  // The envelope's required keys are plain snake_case names: no character of theirs needs escaping.
  const writtenAfter = (field: string) => new RegExp(`"${field}"\\s*:`).test(after);
  // A missing field stronger than the syntax finding (json-syntax lowered in the settings) stays shown: what is shown is what lint's exit status counts.
  const carried = diagnostics.filter((d) => d.code === 'missing-field' && d.offset === rootOffset && STRENGTH[d.severity] <= STRENGTH[early.severity] && d.subject !== undefined && !d.subject.includes('.') && writtenAfter(d.subject));
  if (carried.length === 0) return [...diagnostics];
  const related = carried.map((d) => ({ code: d.code, severity: d.severity, message: d.message, offset: d.offset, end: d.end }));
  return diagnostics.filter((d) => !carried.includes(d)).map((d) => (d === early ? { ...d, related: [...(d.related ?? []), ...related] } : d));
}

/**
 * A finding's message with the findings it carries folded in, where only one line is shown (the
 * CLI's one-line formats, an editor that shows no related information): "… (also unknown-urn: …)".
 */
export function messageWithRelated(finding: { readonly message: string; readonly related?: readonly { readonly code: string; readonly message: string }[] }): string {
  if (!finding.related?.length) return finding.message;
  return `${finding.message} ${finding.related.map((related) => `(also ${related.code}: ${related.message})`).join(' ')}`;
}
