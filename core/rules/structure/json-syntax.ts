/** json-syntax: the problems the strict parser found (it reports each once and keeps going). */
import { defineRule } from '../definition';

export const rule = defineRule({
  codes: [
    {
      code: 'json-syntax',
      family: 'structure',
      severity: 'error',
      summary: 'The text is not strict UTF-8 JSON (RFC 8259).',
      docs: {
        fires:
          'The text is not strict JSON (RFC 8259): comments, trailing commas, single quotes, `NaN`/`Infinity`, unquoted keys, leading zeros, a byte-order mark, raw control characters or bad escapes in strings, unterminated tokens, text after the value. One diagnostic per problem; analysis goes on with what parsed. One typing mistake is one diagnostic, on the token it is in, and the rest of the file is read as meant: a key or string that lacks its opening or closing quote (also on a one-line envelope, where the missing quote pairs with the next one; a string without its opening quote may hold backslashes alone, as a pasted Windows path does, and the diagnostic writes them escaped), a string between its quotes holding several backslashes that start no escape (a pasted path, `"C:\\orders\\in"`: one diagnostic on the string, which writes them escaped and reads them as backslashes), a stray quote after a number (the number stands; the diagnostic also names the string it would be), a string broken across two lines (the diagnostic covers the string and carries its `payload-schema` finding), a missing comma, colon or object `{`, a `;` or `:` typed for a comma, an `=` typed for a colon, a `,` typed for a colon, a letter or `]` typed for a comma at a line\'s end, a colon or comma typed twice after a key, a key and its value typed into an array, a stray word before or after a key or a value, a stray `,`, quote or bracket before a colon, a `{` typed before a string value, a `}` too many before the envelope\'s next key or, pretty-printed, before an inner object\'s next key on the next line. A byte-order mark is reported empty at 1:1 and takes no column, in the editor too, which hides it (the server looks at the file\'s first bytes when it is opened, saved or changed on disk). The CLI and the report of the files on disk also report bytes that are not UTF-8 (one diagnostic, where the first invalid byte is).',
        instead: 'Strict JSON, saved as UTF-8 without a byte-order mark: most SDK decoders reject the rest, and the others read it their own way (Python reads NaN and Infinity, Java a raw tab and a leading zero), so consumers disagree on the message.',
        example: { fires: '{ "attempts": 0, }', clean: '{ "attempts": 0 }' },
        fixes:
          'Where the parser knows the one repair, a quick fix makes it, titled with what it writes: remove a trailing comma, a comment, a stray word, quote or bracket (`Remove \'}\'`); insert a missing comma, colon, quote, bracket or brace (`Insert \',\'`); write a key or string in double quotes, with the quote it lacks or the backslashes it needs escaped (`Write "orders"`, `Write "C:\\\\orders\\\\in"`; a single backslash that starts no escape: `Write \\\\o`), a mistyped separator as `:` or `,`, a control character as its escape. Where the message offers two readings (a quote after a number: remove it, or quote the number; `NaN`: `null` or a string; a stray word that may start a string), both are offered and neither is preferred. `babelq lint --fix` and fix all leave a file with syntax errors as written: these fixes are the editor\'s, one at a time.',
      },
      fixes: ({ doc, diagnostic }) => {
        // The problem this finding reports, found by its place and words; its repairs are the parser's own.
        const problem = doc.syntaxProblems.find((p) => p.offset === diagnostic.offset && p.end === diagnostic.end && p.message === diagnostic.message);
        return (problem?.repairs ?? []).map((repair) => ({ title: repair.title, edits: [{ offset: repair.offset, end: repair.end, newText: repair.text }] }));
      },
    },
  ],
  check: (context) => {
    for (const problem of context.doc.syntaxProblems) context.report('json-syntax', problem, problem.message);
  },
});

/**
 * The finding for bytes that are not UTF-8, which the parser never sees (`babelq lint`, `preview`
 * and `send` decode strictly and stop there); `where` says where decoding failed.
 */
export function notUtf8Message(where: string): string {
  return `The file is not valid UTF-8 (${where}); strict JSON is UTF-8. Save it as UTF-8 without BOM.`;
}
