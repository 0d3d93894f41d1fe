/**
 * A document that differs from an analysed previous version only inside one string value or one
 * number literal (see `core/parse/incremental.ts`), as the rules that reuse the previous findings
 * see it.
 */
import type { CoreDiagnostic } from './diagnostic';

export interface EditedValue {
  /** A string value (it was a string before too), or a number literal (it was a number). */
  readonly kind: 'string' | 'number';
  /** The token in the new document (a string's quotes included) and its value: a string's decoded value, a number's literal text. */
  readonly offset: number;
  readonly end: number;
  readonly value: string;
  /** A number literal without fraction or exponent. */
  readonly isIntegerLiteral: boolean;
  /** The key of the property the value belongs to, if any (none for an array item). */
  readonly key: string | undefined;
  /** True when the value sits inside the envelope's `data`. */
  readonly inData: boolean;
  /** The length of the previous version's text (a rule whose verdict depends on the size of the document compares it). */
  readonly lengthBefore: number;
  /** True for a finding of the previous version on the edited value itself. */
  wasAt(diagnostic: CoreDiagnostic): boolean;
  /** A finding of the previous version with its range moved to the new text. */
  moved(diagnostic: CoreDiagnostic): CoreDiagnostic;
}
