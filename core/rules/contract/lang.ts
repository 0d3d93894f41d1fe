/** unknown-lang on meta.lang and dead_letter.lang. */
import { SDK_LANGS } from '../../contract/envelope';
import { replaceValue } from '../../model/property-edits';
import { getValue } from '../../model/tree';
import { literal } from '../../model/describe-value';
import { defineRule } from '../definition';

export const rule = defineRule({
  codes: [
    {
      code: 'unknown-lang',
      family: 'contract',
      severity: 'warning',
      summary: 'meta.lang is not one of the six SDK languages.',
      docs: {
        fires: '`meta.lang` (or `dead_letter.lang`) is not `php`, `go`, `python`, `java`, `dotnet` or `node`.',
        instead: 'The producing SDK\'s language, lowercase. Consumers accept and forward an unknown value, but a producer may not emit one.',
        example: { fires: '"lang": "PHP"', clean: '"lang": "php"' },
        fixes: 'Lowercase a known language (`"PHP"` → `"php"`).',
      },
      fixes: ({ valueAt }) => {
        const value = valueAt();
        if (value?.kind !== 'string') return [];
        const lower = value.value.trim().toLowerCase();
        if (!(SDK_LANGS as readonly string[]).includes(lower)) return [];
        return [{ title: `Write "${lower}"`, edits: [replaceValue(value, JSON.stringify(lower))] }];
      },
    },
  ],
  check: (context) => {
    const { meta, deadLetter } = context.envelope;
    for (const [name, value] of [['meta.lang', getValue(meta, 'lang')], ['dead_letter.lang', getValue(deadLetter, 'lang')]] as const) {
      if (value?.kind !== 'string' || (SDK_LANGS as readonly string[]).includes(value.value)) continue;
      const lower = value.value.trim().toLowerCase();
      // Without a known language to suggest, what to write: the SDK that wrote the block.
      const write = name === 'meta.lang' ? ' Write the language of the SDK that produced the message (Laravel and Symfony stamp "php").' : ' Write the language of the SDK that dead-lettered the message.';
      const hint = (SDK_LANGS as readonly string[]).includes(lower) ? ` Did you mean "${lower}"?` : write;
      context.report(
        'unknown-lang',
        value,
        `"${name}" ${literal(value.value)} is not one of ${SDK_LANGS.join(', ')}. Consumers accept and forward it, but a producer may not emit it.${hint}`,
      );
    }
  },
});
