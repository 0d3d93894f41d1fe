/**
 * Message verdicts from the language server (`babelqueue/judgeMessages`) for the editor's Peek
 * Queue and Dead Letters lists and its redrives: judged with the first workspace folder's
 * babelq.json and registry, as a message opened from the list is, so a `data` that fails its
 * URN's schema is an error in the row, in the opened message and in the redrive's question.
 */
import { JUDGE_MESSAGES_METHOD, MAX_JUDGED_MESSAGES, type JudgeMessagesParams, type JudgeMessagesResult } from '../core/language/protocol';
import type { MessageVerdict } from '../core/language/message-rows';
import { requestWithin, type LanguageServer } from './server-request';

/** A thousand large messages are judged well within it; a server that takes longer is stuck or gone. */
const ANSWER_TIMEOUT_MS = 10_000;

/**
 * The verdicts of `texts`, in order (null for a text the server did not judge); or why there are
 * none: the server is not running, did not answer in time, or failed. The caller then judges
 * without the registry, and says so.
 */
export type MessageJudge = (texts: readonly string[]) => Promise<{ readonly verdicts: readonly (MessageVerdict | null)[]; readonly notUtf8?: MessageVerdict } | { readonly unjudged: string }>;

export function serverJudge(server: () => LanguageServer | undefined, timeoutMs = ANSWER_TIMEOUT_MS): MessageJudge {
  return async (texts) => {
    const running = server();
    if (!running?.isRunning()) return { unjudged: 'the BabelQueue language server is not running' };
    const verdicts: (MessageVerdict | null)[] = [];
    let notUtf8: MessageVerdict | undefined;
    try {
      // A list reads at most as many as one request judges; a larger redrive asks in turns. Asked
      // once with no text too: the answer says how a body that is not UTF-8 is judged.
      for (let start = 0; start === 0 || start < texts.length; start += MAX_JUDGED_MESSAGES) {
        const chunk = texts.slice(start, start + MAX_JUDGED_MESSAGES);
        const result = await requestWithin<JudgeMessagesResult>(running, JUDGE_MESSAGES_METHOD, { texts: chunk } satisfies JudgeMessagesParams, timeoutMs);
        // An answer of another length is the server's empty answer to a request it failed on.
        if (result?.verdicts?.length !== chunk.length) return { unjudged: 'the BabelQueue language server could not judge them (see its output)' };
        verdicts.push(...result.verdicts);
        notUtf8 ??= result.notUtf8;
      }
    } catch (error) {
      return { unjudged: `the BabelQueue language server did not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
    return notUtf8 ? { verdicts, notUtf8 } : { verdicts };
  };
}
