/**
 * unexplained-suppression and stale-suppression: entries of babelq-suppressions.json that need their
 * author. A suppression without a reason still hides its finding (one cause, one finding) but is
 * an error of its own, so a baseline cannot be written without saying why; one that matches no
 * finding any more is stale (`babelq lint --prune-suppressions` removes it). An entry whose `until`
 * date has passed hides nothing: its finding fires again, its message naming the expired reason.
 */
import { defineRule } from '../definition';
import { quotedEntryText } from '../settings/suppression-entry-text';

export const rule = defineRule<'unexplained-suppression' | 'stale-suppression'>({
  codes: [
    {
      code: 'unexplained-suppression',
      family: 'project',
      severity: 'error',
      summary: 'A suppression in babelq-suppressions.json without a reason.',
      docs: {
        fires: 'On an entry of `babelq-suppressions.json` whose `reason` is missing or empty. The finding it names stays hidden.',
        instead: 'A `reason` a reader can act on: who produces the value, when it goes away; add `until` (`YYYY-MM-DD`) to make it fire again then.',
        example: {
          fires: '{ "file": "fixtures/a.babel.json", "code": "forbidden-key", "pointer": "/meta/ts" }',
          clean: '{ "file": "fixtures/a.babel.json", "code": "forbidden-key", "pointer": "/meta/ts", "reason": "legacy producer, removed in 2027", "until": "2027-06-30" }',
        },
      },
    },
    {
      code: 'stale-suppression',
      family: 'project',
      severity: 'warning',
      summary: 'A suppression that matches no finding any more.',
      docs: {
        fires: 'On an entry of `babelq-suppressions.json` whose file, code and pointer match no finding of a file that was checked (the file was fixed, moved or deleted).',
        instead: 'Remove the entry: `babelq lint --prune-suppressions` removes every stale one.',
        example: {
          fires: '{ "file": "fixtures/gone.babel.json", "code": "forbidden-key", "pointer": "/meta/ts", "reason": "legacy" }',
          clean: '{ "suppressions": [] }',
        },
      },
    },
  ],
  files: {
    suppressionsFile: ({ file, stale }, report) => {
      for (const entry of file.entries) {
        if (entry.reason === undefined) report('unexplained-suppression', entry, `This suppression of ${entry.code} at "${quotedEntryText(entry.pointer)}" in ${quotedEntryText(entry.file)} has no reason: say why the finding is accepted (and until when, with "until").`);
      }
      for (const entry of stale) {
        report('stale-suppression', entry, `This suppression matches no finding: ${quotedEntryText(entry.file)} has no ${entry.code} at "${quotedEntryText(entry.pointer)}" any more. Remove it (babelq lint --prune-suppressions).`);
      }
    },
  },
});
