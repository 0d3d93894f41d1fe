/**
 * unexplained-suppression and stale-suppression: entries of babelq-suppressions.json that need their
 * author. A suppression without a reason still hides its finding (one cause, one finding) but is
 * an error of its own, so a baseline cannot be written without saying why; one that matches no
 * finding any more is stale (`babelq lint --prune-suppressions` removes it). An entry whose `until`
 * date has passed hides nothing: its finding fires again, its message naming the expired reason.
 * unchecked-suppressions is the note of a judging that stopped at its budget (the editor's, at each
 * change of the file): the entries it did not reach are not called stale, and the note says how many.
 */
import { defineRule } from '../definition';
import { digitGroups } from '../../model/count-words';
import { quotedEntryText } from '../settings/suppression-entry-text';
import type { UncheckedSuppressions } from '../settings/suppressions-file';

export const rule = defineRule<'unexplained-suppression' | 'stale-suppression' | 'unchecked-suppressions'>({
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
    {
      code: 'unchecked-suppressions',
      family: 'project',
      severity: 'information',
      summary: 'Entries of babelq-suppressions.json the editor did not check for staleness (babelq lint checks them all).',
      docs: {
        fires:
          'In an open `babelq-suppressions.json`, whose entries the editor judges again at each change of the file: once that judging has read as many fixtures, or as much of their text, as it may (a checkout cannot hold the editor for seconds at each keystroke), the entries it did not reach are not called stale, and this note, on the first of them, says how many and which limit stopped it. `babelq lint` checks every entry.',
        instead: 'Nothing in the file is wrong: `babelq lint` checks every entry (`babelq lint --prune-suppressions` removes the stale ones); a baseline naming fewer or smaller fixtures is checked in the editor whole.',
        example: {
          fires: '{ "suppressions": [ … entries naming 3,000 fixtures … ] }',
          clean: '{ "suppressions": [ … entries naming 40 fixtures … ] }',
        },
      },
    },
  ],
  files: {
    suppressionsFile: ({ file, stale, unchecked }, report) => {
      for (const entry of file.entries) {
        if (entry.reason === undefined) report('unexplained-suppression', entry, `This suppression of ${entry.code} at "${quotedEntryText(entry.pointer)}" in ${quotedEntryText(entry.file)} has no reason: say why the finding is accepted (and until when, with "until").`);
      }
      for (const entry of stale) {
        report('stale-suppression', entry, `This suppression matches no finding: ${quotedEntryText(entry.file)} has no ${entry.code} at "${quotedEntryText(entry.pointer)}" any more. Remove it (babelq lint --prune-suppressions).`);
      }
      if (unchecked && unchecked.count > 0) report('unchecked-suppressions', unchecked.first, uncheckedMessage(unchecked));
    },
  },
});

/** `16 MiB`: the budget in the units the README gives limits in. */
function mebibytes(bytes: number): string {
  const count = bytes / (1024 * 1024);
  return `${Number.isInteger(count) ? count : count.toFixed(1)} MiB`;
}

function uncheckedMessage({ count, budget }: UncheckedSuppressions): string {
  const limit = 'fixtures' in budget ? `the entries of at most ${digitGroups(budget.fixtures)} fixtures` : `at most ${mebibytes(budget.bytes)} of fixtures`;
  const these = count === 1 ? '1 suppression was not checked here (this one)' : `${digitGroups(count)} suppressions were not checked here (the first is this one)`;
  return `${these}: at each change of this file the editor judges ${limit}. babelq lint checks them all (babelq lint --prune-suppressions removes the stale ones).`;
}
