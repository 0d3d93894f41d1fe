/**
 * The language server's rendering of a large envelope's preview (`babelqueue/preview` with the
 * full comparison), for client/preview-renderer.ts: the server holds the document's current
 * parse, so the preview costs it the encoding alone. Undefined when the server cannot answer: it
 * is not running, or the document is not one it holds; a server that does not answer in time is
 * an error (the caller then renders in place and says why).
 */
import { PREVIEW_METHOD, PREVIEW_NOT_OPEN, type PreviewParams, type PreviewResult } from '../core/language/protocol';
import type { PreviewOptions } from '../core/message/preview';
import type { RemoteRender } from './preview-renderer';
import { requestWithin, type LanguageServer } from './server-request';

/** Longer than any render of a 20 MB envelope here; a server that takes longer is stuck or gone. */
const ANSWER_TIMEOUT_MS = 10_000;

export function serverPreview(server: () => LanguageServer | undefined, timeoutMs = ANSWER_TIMEOUT_MS): RemoteRender {
  return async (key: string, options: PreviewOptions) => {
    const running = server();
    if (!running?.isRunning()) return undefined;
    const params: PreviewParams = {
      textDocument: { uri: key },
      sdk: 'all',
      published: options.sdk,
      freshIds: options.freshIds,
      fresh: { id: options.fresh.uuid(), createdAt: options.fresh.now() },
      layout: options.redisLayout,
      ...(options.redisPrefix !== undefined ? { prefix: options.redisPrefix } : {}),
      ...(options.queue !== undefined ? { queue: options.queue } : {}),
      target: options.target,
    };
    const result = await requestWithin<PreviewResult>(running, PREVIEW_METHOD, params, timeoutMs);
    if (result.ok) return result.text;
    // A document the server does not hold is rendered in place; one it cannot publish (a syntax
    // error while a key is typed) says why, as the preview does, without parsing megabytes here.
    return result.error === PREVIEW_NOT_OPEN ? undefined : `Nothing to publish: ${result.error}\n`;
  };
}
