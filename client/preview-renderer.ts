/**
 * Renders previews: a small envelope's at once in the extension host, a large one's by the
 * language server (its `babelqueue/preview` request), which holds the document's current parse
 * already: the extension host neither copies nor parses megabytes, and stays free for every
 * other extension meanwhile (the language client lives there too). Per source, one render runs at
 * a time and only the newest request waits behind it: a pause in typing while a render runs does
 * not queue another for every keystroke, and every caller gets the newest preview, never an older
 * one after a newer. What the server cannot answer (not running, not answering in time, not
 * holding the document) is rendered in place.
 * No `vscode` import: the tests drive it with a real server over a connection.
 */
import { renderPreview, type PreviewOptions } from '../core/message/preview';
import { parseJson } from '../core/parse/parser';

/** Below this size the preview renders in milliseconds in place: no round trip. */
const REMOTE_FROM_CHARS = 256 * 1024;

/** The server's preview of a source, or undefined when it has none to give (then it is rendered in place). */
export type RemoteRender = (key: string, options: PreviewOptions) => Promise<string | undefined>;

/**
 * A source of at least this many lines is rendered by the server without its length measured:
 * the editor measures a length by computing every line's start, 25 ms for the 230,000 lines of a
 * 5 MB fixture in the extension host, paid on the click that opens its preview. The server
 * renders a shorter document as well; only the round trip is spared below REMOTE_FROM_CHARS.
 */
export const REMOTE_FROM_LINES = 20_000;

/** The envelope to preview: its lines, its length (measured when asked), and its text, read only when it is rendered in place. */
export interface PreviewSource {
  readonly lineCount: number;
  length(): number;
  text(): string;
}

interface Waiting {
  source: PreviewSource;
  options: PreviewOptions;
  readonly waiters: ((text: string) => void)[];
}

export class PreviewRenderer {
  private readonly running = new Set<string>();
  private readonly queued = new Map<string, Waiting>();
  /** Per source, when its last render ended and how long it took (performance.now() milliseconds). */
  private readonly lastRenders = new Map<string, { readonly ended: number; readonly duration: number }>();

  /** `remote`: the language server's render; `onProblem` hears why one fell back to rendering in place. */
  constructor(
    private readonly remote: RemoteRender,
    private readonly onProblem: (message: string) => void = () => undefined,
  ) {}

  /**
   * How long a render of `key` asked for now should wait, so that rendering takes at most half
   * the time of someone typing without a pause: none when the last render ended at least its own
   * duration ago (the first keystroke after a pause is previewed at once), else until then; while
   * one runs, its duration after it (at most `maxMs`).
   */
  waitBeforeRender(key: string, maxMs: number): number {
    const last = this.lastRenders.get(key);
    if (!last) return 0;
    const gap = Math.min(maxMs, last.duration);
    if (this.running.has(key)) return gap;
    return Math.max(0, last.ended + gap - performance.now());
  }

  /** The preview of `source` for the source `key`: the newest asked for, once every render before it is done. */
  render(key: string, source: PreviewSource, options: PreviewOptions): Promise<string> {
    if (!renderedByServer(source) && !this.running.has(key)) return Promise.resolve(this.timed(key, () => inPlace(source, options)));
    return new Promise((resolve) => {
      const waiting = this.queued.get(key);
      if (waiting) {
        // A newer request replaces the one that was waiting; both callers get its preview.
        waiting.source = source;
        waiting.options = options;
        waiting.waiters.push(resolve);
      } else {
        this.queued.set(key, { source, options, waiters: [resolve] });
      }
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let next = this.queued.get(key); next; next = this.queued.get(key)) {
        this.queued.delete(key);
        const started = performance.now();
        const text = await this.renderOne(key, next.source, next.options);
        this.rendered(key, started);
        for (const resolve of next.waiters) resolve(text);
      }
    } finally {
      this.running.delete(key);
    }
  }

  private async renderOne(key: string, source: PreviewSource, options: PreviewOptions): Promise<string> {
    if (!renderedByServer(source)) return inPlace(source, options);
    try {
      const text = await this.remote(key, options);
      if (text !== undefined) return text;
    } catch (error) {
      this.onProblem(`The language server did not render the preview (${error instanceof Error ? error.message : String(error)}); rendering it in place.`);
    }
    return inPlace(source, options);
  }

  private timed(key: string, render: () => string): string {
    const started = performance.now();
    const text = render();
    this.rendered(key, started);
    return text;
  }

  /** Notes that a render of `key` begun at `started` has ended now. */
  private rendered(key: string, started: number): void {
    const ended = performance.now();
    this.lastRenders.set(key, { ended, duration: ended - started });
  }
}

/** A large source: many lines (not measured), or a long text. */
function renderedByServer(source: PreviewSource): boolean {
  return source.lineCount >= REMOTE_FROM_LINES || source.length() >= REMOTE_FROM_CHARS;
}

function inPlace(source: PreviewSource, options: PreviewOptions): string {
  try {
    return renderPreview(parseJson(source.text()), options);
  } catch (error) {
    // Every caller waiting for this render gets an answer, never a preview that stays blank.
    return `The preview could not be rendered: ${error instanceof Error ? error.message : String(error)}\n`;
  }
}
