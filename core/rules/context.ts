/**
 * What every rule receives: the parsed document, the envelope's main blocks found once, the
 * settings, and one `report` function. Rules never see a parser's own types.
 */
import type { Code } from './code-names';
import type { CoreDiagnostic, DiagnosticTag, Severity } from './diagnostic';
import type { RegistryState } from '../registry/types';
import type { Settings } from './settings/settings';
import { asObject, getProperty, type ObjectNode, type ParsedDocument, type PropertyNode } from '../model/tree';

export interface Range {
  readonly offset: number;
  readonly end: number;
}

/** The envelope's blocks, located once per analysis. Each is undefined when absent or not an object. */
export interface EnvelopeView {
  readonly root: ObjectNode | undefined;
  readonly meta: ObjectNode | undefined;
  readonly data: ObjectNode | undefined;
  readonly deadLetter: ObjectNode | undefined;
  readonly metaProperty: PropertyNode | undefined;
  readonly deadLetterProperty: PropertyNode | undefined;
}

/** What a check sees; `report` takes the codes its module defines (`C`), and no others. */
export interface RuleContext<C extends Code = Code> {
  readonly doc: ParsedDocument;
  readonly envelope: EnvelopeView;
  readonly settings: Settings;
  readonly registry: RegistryState;
  /** Records a finding; `severity` only where a code has two levels (unsafe-integer). */
  report(code: C, range: Range, message: string, options?: { severity?: Severity; tags?: DiagnosticTag[]; subject?: string; schemaKeyword?: string }): void;
}

/** Locates the envelope's blocks in a parsed document. */
export function viewEnvelope(doc: ParsedDocument): EnvelopeView {
  const root = asObject(doc.root);
  const metaProperty = getProperty(root, 'meta');
  const deadLetterProperty = getProperty(root, 'dead_letter');
  return {
    root,
    meta: asObject(metaProperty?.value),
    data: asObject(getProperty(root, 'data')?.value),
    deadLetter: asObject(deadLetterProperty?.value),
    metaProperty,
    deadLetterProperty,
  };
}

/** The range of a property's key token. */
export function keyRange(property: PropertyNode): Range {
  return { offset: property.keyOffset, end: property.keyEnd };
}

/** The most findings one document reports (too-many-findings); VS Code's Problems panel shows this many at ease. */
export const MAX_FINDINGS_PER_DOCUMENT = 10_000;
/**
 * Past the cap, errors are still listed (a file with one must not pass CI because warnings came
 * first), up to this many findings in all: 130,000 duplicate keys in a 780 KB file would otherwise
 * be built, held and sent, and take the server seconds per keystroke.
 */
export const MAX_LISTED_WITH_ERRORS = 2 * MAX_FINDINGS_PER_DOCUMENT;

/** Whether a finding of this severity is kept when `listed` findings are already. */
export function keptUnderCap(listed: number, severity: Severity | 'off'): boolean {
  return listed < MAX_FINDINGS_PER_DOCUMENT || (severity === 'error' && listed < MAX_LISTED_WITH_ERRORS);
}

/** Collects findings into diagnostics with the catalogue's default severity. */
export function createCollector(doc: ParsedDocument, settings: Settings, registry: RegistryState, defaults: (code: Code) => Severity) {
  const diagnostics: CoreDiagnostic[] = [];
  /** Findings past the cap (too-many-findings), counted and not kept. */
  const over = { count: 0 };
  const context: RuleContext = {
    doc,
    envelope: viewEnvelope(doc),
    settings,
    registry,
    report(code, range, message, options) {
      // A code turned off takes no room under the cap.
      const override = settings.severityOverrides.get(code);
      if (override === 'off') return;
      const severity = options?.severity ?? defaults(code);
      // Errors past the cap are kept (a file with one must not pass CI), up to MAX_LISTED_WITH_ERRORS.
      if (!keptUnderCap(diagnostics.length, override ?? severity)) {
        over.count++;
        return;
      }
      diagnostics.push({
        code,
        severity,
        message,
        offset: range.offset,
        end: range.end,
        ...(options?.tags ? { tags: options.tags } : {}),
        ...(options?.subject ? { subject: options.subject } : {}),
        ...(options?.schemaKeyword ? { schemaKeyword: options.schemaKeyword } : {}),
      });
    },
  };
  return { context, diagnostics, over };
}
