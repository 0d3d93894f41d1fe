/** Every fixture's problems in the editor: workspace/diagnostic on 10,000 fixtures, a schema edit, and find references. */
import { join } from 'node:path';
import { info, log, OUT, QUICK, SHIPPED_CLI, SHIPPED_SERVER, target, WORKSPACE_FILES } from '../context';
import { range, stats } from '../measure';
import { BROKEN_COUNT, measureWorkspace, URN_COUNT, writeRegisteredWorkspace } from '../workspace-diagnostics';

export async function workspaceScenario(): Promise<void> {
  log(`\nworkspace/diagnostic on ${WORKSPACE_FILES.toLocaleString('en')} fixtures over ${URN_COUNT} registered URNs (production server over stdio)`);
  const dir = join(OUT, 'workspace-registered-10k');
  writeRegisteredWorkspace(dir, WORKSPACE_FILES);
  const cli = SHIPPED_CLI;
  const runs = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) runs.push(await measureWorkspace(dir, SHIPPED_SERVER, cli));
  const last = runs[runs.length - 1];
  if (last.reported !== WORKSPACE_FILES || last.withProblems !== BROKEN_COUNT || last.cliWithProblems !== BROKEN_COUNT) {
    throw new Error(`the workspace report is wrong: ${JSON.stringify(last)}`);
  }
  // The edited schema is URN number 7's: every fixture i with i % URN_COUNT === 7.
  let expectedRejected = 0;
  for (let i = 0; i < WORKSPACE_FILES; i++) if (i % URN_COUNT === 7) expectedRejected++;
  if (last.rejectedAfterEdit !== expectedRejected || last.reportedAfterEdit !== expectedRejected) throw new Error(`the report after the schema edit is wrong: ${JSON.stringify(last)} (expected ${expectedRejected})`);
  const first = stats(runs.map((run) => run.startToFirstReport));
  const edit = stats(runs.map((run) => run.schemaEditToReport));
  info('babelq lint . on the same folder (the anchor: the same findings, cold process)', `${(stats(runs.map((run) => run.cliLint)).median / 1000).toFixed(2)} s, ${last.cliWithProblems} files with problems`);
  target(`server start → first full workspace report (${last.reported.toLocaleString('en')} fixtures, ${last.withProblems} with problems)`, range(first), '< 2 s', first.median < 2000);
  target(`unsaved schema edit → report of the ${last.rejectedAfterEdit} fixtures it now rejects (only those sent)`, range(edit), '< 300 ms', edit.median < 300);
  let expectedReferences = 0;
  for (let i = 0; i < WORKSPACE_FILES; i++) if (i % URN_COUNT === 3) expectedReferences++;
  if (last.referencesFound !== expectedReferences) throw new Error(`find references found ${last.referencesFound} fixtures, expected ${expectedReferences}`);
  const warm = stats(runs.map((run) => run.referencesWarm));
  const cold = stats(runs.map((run) => run.referencesCold));
  target(`find references of a URN used by ${expectedReferences} of the ${WORKSPACE_FILES.toLocaleString('en')} fixtures, after the workspace report (server)`, range(warm), '≤ 300 ms', warm.median <= 300);
  target(`find references of the same URN from a server that has not reported the workspace: the files walked and read (server)`, range(cold), '≤ 1 s', cold.median <= 1000);
}
