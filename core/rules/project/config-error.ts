/**
 * config-error: babelq.json (or babelq-suppressions.json) says something that cannot be used as
 * written: not JSON with comments, an unknown key, a value of the wrong shape, a glob that leaves
 * its folder. The finding sits on the key or value in that file; the rest of the file still applies.
 * Found by core/rules/settings/project-config.ts and core/rules/settings/suppressions-file.ts; envelopes have nothing to check.
 */
import { defineRule } from '../definition';

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
  check: () => {
    // Envelopes hold no project config; the config files are checked by core/rules/project-file-diagnostics.ts.
  },
});
