/**
 * Message verdicts from the language server (`babelqueue/judgeMessages`) for the editor's Peek
 * Queue and Dead Letters lists and its redrives: judged with the first workspace folder's
 * babelq.json and registry, as a message opened from the list is, so a `data` that fails its
 * URN's schema is an error in the row, in the opened message and in the redrive's question.
 */
import { JUDGE_MESSAGES_METHOD, MAX_JUDGED_CHARACTERS, MAX_JUDGED_MESSAGES, type JudgeMessagesParams, type JudgeMessagesResult } from '../core/language/protocol';
import type { MessageVerdict } from '../core/language/message-rows';
import { acceptsRequests, requestWithin, type LanguageServer } from './server-request';

/**
 * A thousand large messages are judged well within it, and a server starting as the list is made
 * starts well within it too; a server that takes longer is stuck or gone.
 */
const ANSWER_TIMEOUT_MS = 10_000;

/**
 * The verdicts of `texts`, in order (null for a text the server did not judge); or why there are
 * none: the server is not running, did not answer in time, or failed. The caller then judges
 * without the registry, and says so.
 */
export type MessageJudge = (texts: readonly string[]) => Promise<{ readonly verdicts: readonly (MessageVerdict | null)[]; readonly notUtf8?: MessageVerdict } | { readonly unjudged: string }>;

/**
 * The most characters one request's texts take as JSON (one text longer than it goes alone): a
 * list of large messages is judged in several requests, so neither side holds every text again as
 * JSON at once. Counted as written in the request, escapes included: a message of control
 * characters is six times as long there (`\u0000`).
 */
const MAX_REQUEST_CHARACTERS = 16 * 1024 * 1024;

export function serverJudge(server: () => LanguageServer | undefined, timeoutMs = ANSWER_TIMEOUT_MS): MessageJudge {
  return async (texts) => {
    const running = server();
    if (!acceptsRequests(running)) return { unjudged: 'the BabelQueue language server is not running' };
    // A text the server would not judge is not sent: its verdict is null.
    const verdicts: (MessageVerdict | null)[] = texts.map(() => null);
    let notUtf8: MessageVerdict | undefined;
    try {
      // Asked at least once, with no text too: the answer says how a body that is not UTF-8 is judged.
      for (const batch of requestBatches(texts)) {
        const sent = batch.map((index) => texts[index]!);
        const result = await requestWithin<JudgeMessagesResult>(running, JUDGE_MESSAGES_METHOD, { texts: sent } satisfies JudgeMessagesParams, timeoutMs);
        // An answer of another length is the server's empty answer to a request it failed on.
        if (result?.verdicts?.length !== sent.length) return { unjudged: 'the BabelQueue language server could not judge them (see its output)' };
        batch.forEach((index, at) => (verdicts[index] = result.verdicts[at] ?? null));
        notUtf8 ??= result.notUtf8;
      }
    } catch (error) {
      return { unjudged: `the BabelQueue language server did not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
    return notUtf8 ? { verdicts, notUtf8 } : { verdicts };
  };
}

/**
 * The indexes of the texts to send, in requests of at most MAX_JUDGED_MESSAGES texts and
 * MAX_REQUEST_CHARACTERS characters, in order; a text longer than the server judges is left out.
 * At least one request, empty when there is nothing to send.
 */
export function requestBatches(texts: readonly string[]): number[][] {
  const batches: number[][] = [[]];
  let characters = 0;
  texts.forEach((text, index) => {
    if (text.length > MAX_JUDGED_CHARACTERS) return;
    const length = jsonLength(text);
    let batch = batches.at(-1)!;
    if (batch.length > 0 && (batch.length === MAX_JUDGED_MESSAGES || characters + length > MAX_REQUEST_CHARACTERS)) {
      batch = [];
      batches.push(batch);
      characters = 0;
    }
    batch.push(index);
    characters += length;
  });
  return batches;
}

/** What JSON escapes, and how many characters each escape adds: `\"`, `\\`, `\n` and its kind add one, `\u0000` five. */
const ESCAPED = /["\\\b\f\n\r\t]|[\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SHORT_ESCAPES = '"\\\b\f\n\r\t';

/** The characters `text` takes as a JSON string's contents (JSON.stringify escapes a lone surrogate as `\udXXX`). */
export function jsonLength(text: string): number {
  let length = text.length;
  for (const [escaped] of text.matchAll(ESCAPED)) length += SHORT_ESCAPES.includes(escaped) ? 1 : 5;
  return length;
}
