/**
 * How a message quotes a suppression entry's file, pointer or reason. Its own module, without the
 * suppressions file's reader: the rules that word findings about entries (rules/project/suppressions.ts)
 * run in every analysis, and the reader brings jsonc-parser with it.
 */
import { MAX_QUOTED_PATH, shortened } from '../../model/describe-value';

/**
 * The most characters of an entry's file, pointer or reason that a message about it quotes (then
 * `…`): the suppressions file is the checkout's, and a reason of a megabyte quoted whole made each
 * finding it had expired for a megabyte long, in the editor and in every line of babelq's table.
 */
const MAX_QUOTED_ENTRY_TEXT = MAX_QUOTED_PATH;

/** An entry's file, pointer or reason as a message quotes it. */
export function quotedEntryText(text: string): string {
  return shortened(text, MAX_QUOTED_ENTRY_TEXT);
}
