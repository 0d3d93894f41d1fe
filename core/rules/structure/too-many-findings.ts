/**
 * too-many-findings: one document's findings are capped, so a hostile or generated file (50 MB of
 * wrong values) cannot make the server build, hold and send a million diagnostics. The cap is
 * reported once, as information on the document's first character; the findings kept are the
 * first the rules made, then past the cap the errors (a file with one must still fail CI), up to
 * twice the cap in all.
 * core/rules/context.ts enforces it while the rules report.
 */
import { MAX_FINDINGS_PER_DOCUMENT, MAX_LISTED_WITH_ERRORS } from '../context';
import { defineRule } from '../definition';
import { digitGroups } from '../../model/count-words';

export const rule = defineRule({
  codes: [
    {
      code: 'too-many-findings',
      family: 'structure',
      severity: 'information',
      summary: `A document with more than ${digitGroups(MAX_FINDINGS_PER_DOCUMENT)} findings: past them only errors are listed, up to ${digitGroups(MAX_LISTED_WITH_ERRORS)}.`,
      docs: {
        fires: `More than ${digitGroups(MAX_FINDINGS_PER_DOCUMENT)} findings in one document (the editor and \`babelq lint\` alike). The first ${digitGroups(MAX_FINDINGS_PER_DOCUMENT)} are listed, then past them the errors (a file with one still fails CI), up to ${digitGroups(MAX_LISTED_WITH_ERRORS)} in all; this note, on the first character, says how many more there were.`,
        instead: 'Fix the listed findings (most come from one cause repeated, often fixed by one quick fix or `babelq lint --fix`), or split a generated fixture into smaller ones.',
        example: { fires: '{ "data": { "prices": [9.99, 9.99, … 20,000 float amounts] } }', clean: '{ "data": { "prices_cents": [999, 999, …] } }' },
      },
    },
  ],
  reportedBy: 'the analysis itself, once the findings cap is reached (`analyzeDocument`)',
});

/**
 * The note of a capped analysis: `listed` findings kept, `over` more not. It is not a check's
 * finding: the collector (core/rules/context.ts) counts what passes the cap while the rules report,
 * and `analyzeDocument` adds this note once they are done.
 */
export function capNoteMessage(listed: number, over: number): string {
  const total = listed + over;
  return `${digitGroups(total)} findings in this document: ${digitGroups(listed)} are listed (the first ${digitGroups(MAX_FINDINGS_PER_DOCUMENT)}, then only errors, up to ${digitGroups(MAX_LISTED_WITH_ERRORS)}), the other ${digitGroups(over)} are not. Fix the listed ones (often one cause repeated) and check again.`;
}
