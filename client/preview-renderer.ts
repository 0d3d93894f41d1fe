/**
 * Renders previews, a large envelope's in a worker thread (client/preview-worker.ts), a small one
 * at once. Per source, one render runs at a time and only the newest text waits behind it: a
 * pause in typing while a render runs does not queue another for every keystroke, and every
 * caller gets the newest preview, never an older one after a newer.
 * No `vscode` import: the tests drive it with the built worker.
 */
import { Worker } from 'node:worker_threads';
import { renderPreview, type PreviewOptions } from '../core/message/preview';
import { parseJson } from '../core/parse/parser';

/** Below this size the preview renders in milliseconds: no worker. */
const WORKER_FROM_CHARS = 256 * 1024;

/**
 * An idle worker is ended after this long: its heap still holds the last large render (on a 5 MB
 * envelope some 200 MB of the extension host's memory), while starting one again costs about a
 * tenth of a second beside a render of most of a second. Typing with pauses shorter than this
 * keeps it.
 */
const WORKER_IDLE_MS = 5_000;

/** What the worker is given: the options without the fresh-id functions, which do not cross threads. */
export interface PreviewJob {
  readonly job: number;
  /** The source document: the worker parses its next version from the last one it parsed. */
  readonly key: string;
  readonly text: string;
  readonly options: Omit<PreviewOptions, 'fresh'>;
  readonly fresh: { readonly id: string; readonly now: number };
}

export type PreviewResult = { readonly job: number; readonly text: string } | { readonly job: number; readonly error: string };

interface Waiting {
  text: string;
  options: PreviewOptions;
  readonly waiters: ((text: string) => void)[];
}

export class PreviewRenderer {
  private worker: Worker | undefined;
  private nextJob = 0;
  /** The renders owed, each by the worker it was posted to (an ended worker fails only its own). */
  private readonly replies = new Map<number, { readonly worker: Worker; readonly reply: (result: PreviewResult) => void }>();
  private readonly running = new Set<string>();
  private readonly queued = new Map<string, Waiting>();
  private idleTimer: NodeJS.Timeout | undefined;

  /**
   * `workerPath`: the bundled worker (dist/preview-worker.js); `onProblem` hears why one fell back
   * to rendering in place; `idleMs`: how long an idle worker is kept.
   */
  constructor(
    private readonly workerPath: string,
    private readonly onProblem: (message: string) => void = () => undefined,
    private readonly idleMs = WORKER_IDLE_MS,
  ) {}

  /** Whether a worker is running (tests: it is ended once idle). */
  get hasWorker(): boolean {
    return this.worker !== undefined;
  }

  /** The preview of `text` for the source `key`: the newest asked for, once every render before it is done. */
  render(key: string, text: string, options: PreviewOptions): Promise<string> {
    if (text.length < WORKER_FROM_CHARS && !this.running.has(key)) return Promise.resolve(renderPreview(parseJson(text), options));
    return new Promise((resolve) => {
      const waiting = this.queued.get(key);
      if (waiting) {
        // A newer text replaces the one that was waiting; both callers get its preview.
        waiting.text = text;
        waiting.options = options;
        waiting.waiters.push(resolve);
      } else {
        this.queued.set(key, { text, options, waiters: [resolve] });
      }
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private async drain(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let next = this.queued.get(key); next; next = this.queued.get(key)) {
        this.queued.delete(key);
        const text = await this.renderOne(key, next.text, next.options);
        for (const resolve of next.waiters) resolve(text);
      }
    } finally {
      this.running.delete(key);
    }
  }

  private async renderOne(key: string, text: string, options: PreviewOptions): Promise<string> {
    if (text.length < WORKER_FROM_CHARS) return renderPreview(parseJson(text), options);
    const { fresh, ...plain } = options;
    const job: PreviewJob = { job: ++this.nextJob, key, text, options: plain, fresh: { id: fresh.uuid(), now: fresh.now() } };
    try {
      const result = await this.post(job);
      if ('text' in result) return result.text;
      this.onProblem(`The preview could not be rendered in its worker: ${result.error}`);
    } catch (error) {
      this.onProblem(`The preview worker stopped (${error instanceof Error ? error.message : String(error)}); rendering in place.`);
    }
    return renderPreview(parseJson(text), options);
  }

  private post(job: PreviewJob): Promise<PreviewResult> {
    const worker = this.started();
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        this.replies.delete(job.job);
        reject(error);
      };
      worker.once('error', failed);
      this.replies.set(job.job, {
        worker,
        reply: (result) => {
          worker.off('error', failed);
          if (this.replies.size === 0) {
            worker.unref();
            this.endWhenIdle(worker);
          }
          resolve(result);
        },
      });
      // Held while a render is owed; an idle worker keeps nothing (the extension host, a test) alive.
      clearTimeout(this.idleTimer);
      worker.ref();
      worker.postMessage(job);
    });
  }

  /** Ends `worker` once it has had nothing to render for idleMs (its heap is the memory it holds). */
  private endWhenIdle(worker: Worker): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.worker !== worker || this.replies.size > 0) return;
      this.worker = undefined;
      void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerPath);
    worker.on('message', (result: PreviewResult) => {
      const owed = this.replies.get(result.job);
      this.replies.delete(result.job);
      owed?.reply(result);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      // An idle worker ended while a new one already took a render: that render is not this one's.
      for (const [job, owed] of this.replies) {
        if (owed.worker !== worker) continue;
        this.replies.delete(job);
        owed.reply({ job, error: 'the worker exited' });
      }
    });
    this.worker = worker;
    return worker;
  }
}
