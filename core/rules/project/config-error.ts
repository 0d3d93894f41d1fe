/**
 * config-error: babelq.json (or babelq-suppressions.json) says something that cannot be used as
 * written: not JSON with comments, an unknown key, a value of the wrong shape, a glob that leaves
 * its folder. The finding sits on the key or value in that file; the rest of the file still applies.
 * The files are read by core/rules/settings/project-config.ts and core/rules/settings/suppressions-file.ts,
 * which note each problem where it is; envelopes have nothing to check.
 */
import { defineRule, type FileReport } from '../definition';
import { digitGroups } from '../../model/count-words';
import type { ConfigProblem } from '../settings/project-config';
import { PROJECT_CONFIG_FILE, SUPPRESSIONS_FILE } from '../settings/project-file-names';

/**
 * The most problems listed for one babelq.json or suppressions file; the rest are counted and
 * summed up in one after them, as registry.json's past its 1,000. A hand-written file has a few;
 * one of 100,000 unknown keys or globs (under the 1 MiB such a file may be) gave as many
 * diagnostics: 20 MB of babelq lint's output, and a report the editor took seconds to show.
 */
const MAX_CONFIG_PROBLEMS = 1000;

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
    configFile: (config, report) => reportProblems(config.problems, PROJECT_CONFIG_FILE, report),
    suppressionsFile: ({ file }, report) => reportProblems(file.problems, SUPPRESSIONS_FILE, report),
  },
});

function reportProblems(problems: readonly ConfigProblem[], fileName: string, report: FileReport<'config-error'>): void {
  const listed = Math.min(problems.length, MAX_CONFIG_PROBLEMS);
  for (let i = 0; i < listed; i++) report('config-error', problems[i], problems[i].message);
  if (problems.length === listed) return;
  // The summary sits on the earliest problem not listed (a syntax problem is found before the keys around it).
  let first = problems[listed];
  for (let i = listed + 1; i < problems.length; i++) if (problems[i].offset < first.offset) first = problems[i];
  const unlisted = problems.length - listed;
  report('config-error', first, `${fileName} has ${digitGroups(unlisted)} more problems than the ${digitGroups(MAX_CONFIG_PROBLEMS)} listed, the first of them here; the rest are not listed (fix the ones listed, or check this is the file you meant).`);
}
