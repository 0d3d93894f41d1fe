/**
 * The byte preview for any editor: the `babelqueue/preview` request and the
 * `babelqueue.preview` command (`workspace/executeCommand`), both answered by core's
 * previewOutput, the function `babelq preview` prints, so an editor shows exactly what the CLI does.
 */
import { ResponseError, ErrorCodes } from 'vscode-languageserver/node';
import { SDK_NAMES } from '../../core/encode';
import { PREVIEW_COMMAND, PREVIEW_METHOD, type PreviewParams, type PreviewRequestOptions, type PreviewResult } from '../../core/language/protocol';
import { DEFAULT_BROKER_URL, type EncoderChoice } from '../../core/message/build';
import { previewOutput } from '../../core/message/preview';
import type { ServerContext } from '../context';
import { guard } from '../guard';
import { envelopes, requestHandler } from '../request';

const SDK_CHOICES: readonly string[] = [...SDK_NAMES, 'auto', 'all'];

/** Why options cannot be used, in the words of `babelq preview`'s own checks; undefined when they can. */
export function previewOptionsProblem(options: PreviewRequestOptions): string | undefined {
  if (options.sdk !== undefined && !SDK_CHOICES.includes(options.sdk)) return `sdk must be one of ${SDK_CHOICES.join(', ')}`;
  if (options.layout !== undefined && options.layout !== 'babelqueue' && options.layout !== 'laravel') return 'layout must be babelqueue or laravel';
  if (options.freshIds !== undefined && typeof options.freshIds !== 'boolean') return 'freshIds must be true or false';
  if (options.queue !== undefined && typeof options.queue !== 'string') return 'queue must be a string';
  if (options.prefix !== undefined && typeof options.prefix !== 'string') return 'prefix must be a string';
  return undefined;
}

export function registerPreview(context: ServerContext): void {
  const { connection } = context;
  const notOpen: PreviewResult = { ok: false, error: 'The document is not open as a BabelQueue envelope (*.babel.json).' };
  const preview = requestHandler(context, PREVIEW_METHOD, envelopes, notOpen, ({ parsed }, params: PreviewParams): PreviewResult => {
    const problem = previewOptionsProblem(params);
    if (problem) return { ok: false, error: problem };
    return previewOutput(parsed, {
      sdk: (params.sdk ?? 'auto') as EncoderChoice | 'all',
      hex: params.hex === true,
      freshIds: params.freshIds ?? true,
      fresh: context.fresh,
      redisLayout: params.layout ?? 'babelqueue',
      ...(params.queue !== undefined ? { queue: params.queue } : {}),
      ...(params.prefix !== undefined ? { redisPrefix: params.prefix } : {}),
      target: DEFAULT_BROKER_URL,
    });
  });
  connection.onRequest(PREVIEW_METHOD, (params: PreviewParams, token) => preview(params, token));

  connection.onExecuteCommand(
    guard(connection.console, PREVIEW_COMMAND, async (params, token): Promise<string | ResponseError<void>> => {
      if (params.command !== PREVIEW_COMMAND) return new ResponseError(ErrorCodes.InvalidParams, `Unknown command ${params.command}; this server runs ${PREVIEW_COMMAND}.`);
      const [uri, options] = params.arguments ?? [];
      if (typeof uri !== 'string') return new ResponseError(ErrorCodes.InvalidParams, `${PREVIEW_COMMAND} takes [uri, options?]: the envelope's URI first.`);
      if (options !== undefined && (typeof options !== 'object' || options === null)) return new ResponseError(ErrorCodes.InvalidParams, `${PREVIEW_COMMAND}'s second argument is an options object.`);
      const result = await preview({ ...(options as PreviewRequestOptions | undefined), textDocument: { uri } }, token);
      return result.ok ? result.text : new ResponseError(ErrorCodes.InvalidParams, result.error);
    }, new ResponseError(ErrorCodes.InternalError, 'The preview failed; see the server log.')),
  );
}
