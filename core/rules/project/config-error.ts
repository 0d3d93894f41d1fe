/**
 * config-error: babelq.json (or babelq-suppressions.json) says something that cannot be used as
 * written: not JSON with comments, an unknown key, a value of the wrong shape, a glob that leaves
 * its folder. The finding sits on the key or value in that file; the rest of the file still applies.
 * The files are read by core/rules/settings/project-config.ts and core/rules/settings/suppressions-file.ts,
 * which note each problem where it is; envelopes have nothing to check.
 */
import { defineRule, type FileReport } from '../definition';
import type { ConfigProblem } from '../settings/project-config';

export const rule = defineRule<'config-error'>({
  codes: [
    {
      code: 'config-error',
      family: 'project',
      severity: 'error',
      summary: 'babelq.json or babelq-suppressions.json holds something that cannot be used as written.',
      docs: {
        fires:
          'In `babelq.json` or `babelq-suppressions.json`: a syntax error (comments and trailing commas are fine), an unknown key (a misspelt key would otherwise be ignored and CI would pass on defaults), a value of the wrong shape, an unknown diagnostic code or level, a glob that is absolute or climbs out with `..`, a suppression without `file`, `code` or `pointer`, an `until` that is not a `YYYY-MM-DD` date. What can be used still applies.',
        instead: 'The keys of the documented format: `root`, `severity`, `moneyKeyPatterns`, `registry`, `validator`, `ignore`, `overrides` (`files` and `severity`, `moneyKeyPatterns`, `validator`); suppressions as `{ "file", "code", "pointer", "reason", "until"? }`.',
        example: { fires: '{ "severty": { "extension-key": "off" } }', clean: '{ "severity": { "extension-key": "off" } }' },
      },
    },
  ],
  files: {
    configFile: (config, report) => reportProblems(config.problems, report),
    suppressionsFile: ({ file }, report) => reportProblems(file.problems, report),
  },
});

function reportProblems(problems: readonly ConfigProblem[], report: FileReport<'config-error'>): void {
  for (const problem of problems) report('config-error', problem, problem.message);
}
