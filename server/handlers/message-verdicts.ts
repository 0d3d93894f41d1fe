/**
 * `babelqueue/judgeMessages`: the editor's Peek Queue and Dead Letters lists, and its redrives,
 * judged here, where the registry and babelq.json are. Each text is judged as a message opened
 * from a broker is (server/registry.ts's judgedPath: a stand-in at the top of the first workspace
 * folder), so a row's verdict, the opened message's squiggles and a redrive's question about
 * errors agree, and agree with `babelq peek` and `babelq dlq` run at the top of that folder.
 */
import { CancellationToken } from 'vscode-languageserver/node';
import { judgedText, verdictOf } from '../../core/language/message-rows';
import { notUtf8Diagnostics } from '../../core/rules/not-utf8';
import { JUDGE_MESSAGES_METHOD, MAX_JUDGED_CHARACTERS, MESSAGE_SCHEME, type JudgeMessagesParams, type JudgeMessagesResult } from '../../core/language/protocol';
import type { ServerContext } from '../context';
import { guard } from '../guard';
import { refuseMalformed } from '../request';
import { malformedJudgeMessagesParams } from '../request-shape';

/** Stands for every message judged: a document with no file, judged where any such document is. */
const JUDGED_MESSAGE_URI = `${MESSAGE_SCHEME}:/judged-message`;

/** How long judging runs before other requests (a keystroke's diagnostics) get a turn. */
const SLICE_MS = 20;

const NOT_JUDGED: JudgeMessagesResult = { verdicts: [] };

export function registerMessageVerdicts(context: ServerContext): void {
  const judge = guard(
    context.connection.console,
    JUDGE_MESSAGES_METHOD,
    async (params: JudgeMessagesParams, token: CancellationToken = CancellationToken.None): Promise<JudgeMessagesResult> => {
      const settings = await context.settings.forDocument(JUDGED_MESSAGE_URI);
      // A registry not loaded yet loads in time slices, as for an opened document.
      const registry = await context.registries.stateWhenLoaded(JUDGED_MESSAGE_URI, settings);
      const verdicts: JudgeMessagesResult['verdicts'][number][] = [];
      let sliceStarted = Date.now();
      for (const text of params.texts) {
        if (token.isCancellationRequested) return NOT_JUDGED;
        verdicts.push(text.length > MAX_JUDGED_CHARACTERS ? null : judgedText(text, settings, registry));
        if (Date.now() - sliceStarted >= SLICE_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStarted = Date.now();
        }
      }
      // Where the finding is (the text before the bad byte) changes nothing the verdict counts.
      return token.isCancellationRequested ? NOT_JUDGED : { verdicts, notUtf8: verdictOf(notUtf8Diagnostics('', settings)) };
    },
    NOT_JUDGED,
  );
  context.connection.onRequest(JUDGE_MESSAGES_METHOD, (params: JudgeMessagesParams, token?: CancellationToken) => {
    const problem = malformedJudgeMessagesParams(params);
    return problem === undefined ? judge(params, token) : refuseMalformed(context, JUDGE_MESSAGES_METHOD, problem);
  });
}
