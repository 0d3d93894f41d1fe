/**
 * A document that differs from an analysed previous version only inside one string value (see
 * `core/parse/incremental.ts`), as the rules that reuse the previous findings see it.
 */
import type { CoreDiagnostic } from './diagnostic';

export interface EditedString {
  /** The string token in the new document (quotes included) and its decoded value. */
  readonly offset: number;
  readonly end: number;
  readonly value: string;
  /** The key of the property the string is the value of, if any. */
  readonly key: string | undefined;
  /** True when the string sits inside the envelope's `data`. */
  readonly inData: boolean;
  /** The length of the previous version's text (a rule whose verdict depends on the size of the document compares it). */
  readonly lengthBefore: number;
  /** True for a finding of the previous version on the edited string itself. */
  wasAt(diagnostic: CoreDiagnostic): boolean;
  /** A finding of the previous version with its range moved to the new text. */
  moved(diagnostic: CoreDiagnostic): CoreDiagnostic;
}
