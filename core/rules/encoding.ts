/** encoding-divergence: values the six SDK encoders would not write as the same bytes. */
import { findDivergences } from '../encode/divergence';
import type { Rule } from './context';

/** Reports where the SDK encoders disagree in a way a consumer can notice (never key order alone). */
export const checkEncodingDivergence: Rule = (context) => {
  if (!context.envelope.root || context.doc.syntaxProblems.length > 0) return;
  for (const divergence of findDivergences(context.doc)) {
    context.report('encoding-divergence', divergence, divergence.message, divergence.severity === 'warning' ? { severity: 'warning' } : undefined);
  }
};
