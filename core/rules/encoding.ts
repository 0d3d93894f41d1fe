/** encoding-divergence: values the six SDK encoders would not write as the same bytes. */
import type { CoreDiagnostic } from './diagnostic';
import { findDivergences, stringValueDivergence, type Divergence } from '../encode/divergence';
import type { RuleContext, Rule } from './context';
import type { EditedString } from './edit';

/** Reports where the SDK encoders disagree in a way a consumer can notice (never key order alone). */
export const checkEncodingDivergence: Rule = (context) => {
  if (!context.envelope.root || context.doc.syntaxProblems.length > 0) return;
  for (const divergence of findDivergences(context.doc)) report(context, divergence);
};

function report(context: RuleContext, divergence: Divergence): void {
  context.report('encoding-divergence', divergence, divergence.message, divergence.severity === 'warning' ? { severity: 'warning' } : undefined);
}

/**
 * The same findings for a document that differs from the analysed previous version only inside
 * one string value: the previous findings (moved), but the edited string's own checked again.
 */
export function checkEncodingDivergenceAfterEdit(context: RuleContext, previous: readonly CoreDiagnostic[], edit: EditedString, keep: (diagnostic: CoreDiagnostic) => void): void {
  for (const diagnostic of previous) if (!edit.wasAt(diagnostic)) keep(edit.moved(diagnostic));
  if (!edit.inData) return;
  const divergence = stringValueDivergence(edit.value, edit.offset, edit.end);
  if (divergence) report(context, divergence);
}
