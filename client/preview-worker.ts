/**
 * The preview of a large envelope, rendered off the extension host's thread. Encoding a 5 MB
 * envelope for the preview takes most of a second; in the extension host that second would hold
 * up every hover, completion and keystroke of every extension (the language client lives there
 * too). This worker does only that: text and options in, the preview's text out.
 */
import { parentPort } from 'node:worker_threads';
import { renderPreview } from '../core/message/preview';
import { parseJson } from '../core/parse/parser';
import type { PreviewJob, PreviewResult } from './preview-renderer';

parentPort?.on('message', (job: PreviewJob) => {
  let result: PreviewResult;
  try {
    const { id, now } = job.fresh;
    result = { job: job.job, text: renderPreview(parseJson(job.text), { ...job.options, fresh: { uuid: () => id, now: () => now } }) };
  } catch (error) {
    result = { job: job.job, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(result);
});
