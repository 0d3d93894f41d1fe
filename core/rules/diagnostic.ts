/**
 * The diagnostic as core produces it: a code of the catalogue, a severity, a message and a range of
 * UTF-16 offsets. Adapters turn offsets into line/character positions.
 */
import type { Code } from './code-names';

export type Severity = 'error' | 'warning' | 'information' | 'hint';
export type SeveritySetting = Severity | 'off';

/** The diagnostic `source` every diagnostic carries. */
export const DIAGNOSTIC_SOURCE = 'babelqueue';

export type DiagnosticTag = 'unnecessary' | 'deprecated';

export interface CoreDiagnostic {
  readonly code: Code;
  readonly severity: Severity;
  readonly message: string;
  /** Start offset (UTF-16 code units, inclusive). */
  readonly offset: number;
  /** End offset (exclusive). */
  readonly end: number;
  readonly tags?: readonly DiagnosticTag[];
  /** The field a finding is about when the range alone cannot say (missing-field: "meta.id"). */
  readonly subject?: string;
  /**
   * payload-schema: the JSON Schema keyword the value fails (`type`, `minLength`), so a data rule's
   * finding is folded only into the refusal it explains (core/rules/same-cause.ts).
   */
  readonly schemaKeyword?: string;
  /** Findings of the same cause on the same token, folded into this one (core/rules/same-cause.ts). */
  readonly related?: readonly RelatedFinding[];
}

/** A finding carried by another one on the same token: shown as related information. */
export interface RelatedFinding {
  readonly code: Code;
  readonly severity: Severity;
  readonly message: string;
  readonly offset: number;
  readonly end: number;
}

/** Orders diagnostics by position, then by code, so output is stable everywhere. */
export function compareDiagnostics(a: CoreDiagnostic, b: CoreDiagnostic): number {
  return a.offset - b.offset || a.end - b.end || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}
