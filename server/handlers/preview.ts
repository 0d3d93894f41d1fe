/**
 * The byte preview for any editor: the `babelqueue/preview` request and the
 * `babelqueue.preview` command (`workspace/executeCommand`), both answered by core's
 * previewOutput, the function `babelq preview` prints, so an editor shows exactly what the CLI does.
 */
import { ResponseError, ErrorCodes, type CancellationToken, type ExecuteCommandParams } from 'vscode-languageserver/node';
import { SDK_NAMES } from '../../core/encode';
import { PREVIEW_COMMAND, PREVIEW_METHOD, PREVIEW_NOT_OPEN, type PreviewParams, type PreviewRequestOptions, type PreviewResult } from '../../core/language/protocol';
import { DEFAULT_BROKER_URL, type BuildMemo, type EncoderChoice } from '../../core/message/build';
import { previewOutput } from '../../core/message/preview';
import { fixedFresh } from '../../core/model/fresh';
import type { ServerContext } from '../context';
import { guard } from '../guard';
import { envelopes, requestHandler } from '../request';

const SDK_CHOICES: readonly string[] = [...SDK_NAMES, 'auto', 'all'];
const ENCODER_CHOICES: readonly string[] = [...SDK_NAMES, 'auto'];
/** A target is one line the preview shows; a longer one is not a broker URL. */
const MAX_TARGET_CHARS = 2048;
/** How many envelopes keep what their last preview was built from (an editor shows one or two previews). */
const KEPT_MEMOS = 4;
/** Control characters and the Unicode line and paragraph separators: a target must not add lines to the preview. */
const LINE_BREAKING = /[\u0000-\u001f\u007f\u2028\u2029]/;

/** Why options cannot be used, in the words of `babelq preview`'s own checks; undefined when they can. */
export function previewOptionsProblem(options: PreviewRequestOptions): string | undefined {
  if (options.sdk !== undefined && !SDK_CHOICES.includes(options.sdk)) return `sdk must be one of ${SDK_CHOICES.join(', ')}`;
  if (options.layout !== undefined && options.layout !== 'babelqueue' && options.layout !== 'laravel') return 'layout must be babelqueue or laravel';
  if (options.freshIds !== undefined && typeof options.freshIds !== 'boolean') return 'freshIds must be true or false';
  // The queue and the prefix are shown on the preview's lines as the target is: neither may add a line.
  if (options.queue !== undefined && (typeof options.queue !== 'string' || LINE_BREAKING.test(options.queue))) return 'queue must be a string of one line';
  if (options.prefix !== undefined && (typeof options.prefix !== 'string' || LINE_BREAKING.test(options.prefix))) return 'prefix must be a string of one line';
  if (options.published !== undefined && !ENCODER_CHOICES.includes(options.published)) return `published must be one of ${ENCODER_CHOICES.join(', ')}`;
  if (options.fresh !== undefined && !freshUsable(options.fresh)) return 'fresh must be { id: a string of at most 200 characters, createdAt: a finite number }';
  if (options.target !== undefined && (typeof options.target !== 'string' || options.target.length > MAX_TARGET_CHARS || LINE_BREAKING.test(options.target))) {
    return `target must be one line of at most ${MAX_TARGET_CHARS} characters`;
  }
  return undefined;
}

function freshUsable(fresh: unknown): fresh is NonNullable<PreviewRequestOptions['fresh']> {
  if (typeof fresh !== 'object' || fresh === null) return false;
  const { id, createdAt } = fresh as Record<string, unknown>;
  return typeof id === 'string' && id.length <= 200 && typeof createdAt === 'number' && Number.isFinite(createdAt);
}

/** Registers the request; returns the command's handler (server.ts runs each command by its name). */
export function registerPreview(context: ServerContext): (params: ExecuteCommandParams, token: CancellationToken) => Promise<string | ResponseError<void>> {
  const { connection } = context;
  const notOpen: PreviewResult = { ok: false, error: PREVIEW_NOT_OPEN };
  // Per open envelope, what its last preview was built from: the next, after a keystroke in a
  // value, is built around that value (an editor's preview follows typing in a 5 MB fixture).
  // Each holds the body's parse and the document's (the parse cache's, or one made from it), so
  // only the envelopes previewed last keep theirs.
  const memos = new Map<string, BuildMemo>();
  context.documents.onDidClose((event) => memos.delete(event.document.uri));
  const preview = requestHandler(context, PREVIEW_METHOD, envelopes, notOpen, ({ document, parsed }, params: PreviewParams): PreviewResult => {
    const problem = previewOptionsProblem(params);
    if (problem) return { ok: false, error: problem };
    const memo = memos.get(document.uri) ?? {};
    // Most recently used last: the first is the one to drop.
    memos.delete(document.uri);
    memos.set(document.uri, memo);
    for (const uri of memos.keys()) if (memos.size > KEPT_MEMOS) memos.delete(uri);
    return previewOutput(parsed, {
      memo,
      sdk: (params.sdk ?? 'auto') as EncoderChoice | 'all',
      hex: params.hex === true,
      freshIds: params.freshIds ?? true,
      fresh: params.fresh ? fixedFresh(params.fresh.id, params.fresh.createdAt) : context.fresh,
      redisLayout: params.layout ?? 'babelqueue',
      ...(params.queue !== undefined ? { queue: params.queue } : {}),
      ...(params.prefix !== undefined ? { redisPrefix: params.prefix } : {}),
      ...(params.published !== undefined ? { published: params.published } : {}),
      target: params.target ?? DEFAULT_BROKER_URL,
    });
  });
  connection.onRequest(PREVIEW_METHOD, (params: PreviewParams, token) => preview(params, token));

  return guard(connection.console, PREVIEW_COMMAND, async (params: ExecuteCommandParams, token: CancellationToken): Promise<string | ResponseError<void>> => {
    if (params.command !== PREVIEW_COMMAND) return new ResponseError(ErrorCodes.InvalidParams, `Unknown command ${params.command}; this server runs ${PREVIEW_COMMAND}.`);
    const [uri, options] = params.arguments ?? [];
    if (typeof uri !== 'string') return new ResponseError(ErrorCodes.InvalidParams, `${PREVIEW_COMMAND} takes [uri, options?]: the envelope's URI first.`);
    if (options !== undefined && (typeof options !== 'object' || options === null)) return new ResponseError(ErrorCodes.InvalidParams, `${PREVIEW_COMMAND}'s second argument is an options object.`);
    const result = await preview({ ...(options as PreviewRequestOptions | undefined), textDocument: { uri } }, token);
    return result.ok ? result.text : new ResponseError(ErrorCodes.InvalidParams, result.error);
  }, new ResponseError(ErrorCodes.InternalError, 'The preview failed; see the server log.'));
}
