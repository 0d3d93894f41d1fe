/**
 * The preview of a large envelope, rendered off the extension host's thread. Encoding a 5 MB
 * envelope for the preview takes most of a second; in the extension host that second would hold
 * up every hover, completion and keystroke of every extension (the language client lives there
 * too). This worker does only that: text and options in, the preview's text out.
 */
import { parentPort } from 'node:worker_threads';
import { renderPreview } from '../core/message/preview';
import type { ParsedText } from '../core/parse/document';
import { reparse } from '../core/parse/incremental';
import { parseText } from '../core/parse/parser';
import type { PreviewJob, PreviewResult } from './preview-renderer';

/**
 * The last parse per source, so that after a keystroke in a string or number the next version is
 * parsed from it (core/parse/incremental.ts: a few milliseconds instead of a tenth of a second on
 * 5 MB). Two sources at most: the worker lives only while previews are being rendered.
 */
const lastParses = new Map<string, ParsedText>();
const KEPT_PARSES = 2;

function parseOf(key: string, text: string): ParsedText {
  const last = lastParses.get(key);
  const parsed = (last && (last.text === text ? last : reparse(last, text))) ?? parseText(text);
  // Nothing here analyses a version from its predecessor: drop the link, so one parse is kept per source, not two.
  parsed.forgetEdit();
  lastParses.delete(key);
  lastParses.set(key, parsed);
  for (const old of lastParses.keys()) if (lastParses.size > KEPT_PARSES) lastParses.delete(old);
  return parsed;
}

parentPort?.on('message', (job: PreviewJob) => {
  let result: PreviewResult;
  try {
    const { id, now } = job.fresh;
    result = { job: job.job, text: renderPreview(parseOf(job.key, job.text), { ...job.options, fresh: { uuid: () => id, now: () => now } }) };
  } catch (error) {
    result = { job: job.job, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(result);
});
