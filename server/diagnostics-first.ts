/**
 * Squiggles before the outline. On opening or editing a large fixture the client asks for code
 * actions, the outline and folding ranges in the same breath as the diagnostics, and the
 * diagnostics request usually comes last; answered in arrival order, the user waits for a
 * megabyte of outline to be built and sent before seeing a squiggle. So the outline and folding
 * ranges of a large document wait until its current version's diagnostics are computed (the
 * response is sent first), or a short while, whichever comes first: a client that never pulls
 * diagnostics still gets them.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ParseCache } from './documents';

/** Below this size every answer is quick, and nothing waits. */
const LARGE_DOCUMENT_CHARS = 512 * 1024;
/** The longest an outline or folding request waits for diagnostics. */
const MAX_WAIT_MS = 400;

export class DiagnosticsFirst {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** `enabled`: the client pulls diagnostics (a pushing server computes them on its own schedule). */
  constructor(
    private readonly cache: ParseCache,
    private readonly enabled: () => boolean,
  ) {
    cache.onAnalysed = (uri) => {
      const waiters = this.waiting.get(uri);
      if (!waiters) return;
      this.waiting.delete(uri);
      // After the diagnostics response is written: the protocol library writes it from a
      // setImmediate of its own, queued after this one, so the waiters resume one turn later still.
      setImmediate(() =>
        setImmediate(() => {
          for (const resume of waiters) resume();
        }),
      );
    };
  }

  /** Resolves when `document`'s current version has its diagnostics, at once for a small one. */
  wait(document: TextDocument): Promise<void> {
    if (!this.enabled() || document.getText().length < LARGE_DOCUMENT_CHARS || this.cache.isAnalysed(document)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.waiting.get(document.uri) ?? new Set();
      this.waiting.set(document.uri, waiters);
      const resume = () => {
        clearTimeout(timer);
        waiters.delete(resume);
        // A waiter that timed out leaves no empty set behind (the document may be closed for good).
        if (waiters.size === 0 && this.waiting.get(document.uri) === waiters) this.waiting.delete(document.uri);
        resolve();
      };
      const timer = setTimeout(resume, MAX_WAIT_MS);
      waiters.add(resume);
    });
  }
}
