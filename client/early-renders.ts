/**
 * Renders started before they are asked for: on the click that opens a preview, and on a refresh,
 * the preview's render starts at once and runs while VS Code opens the editor or passes the
 * change round to ask for the content, instead of after. Each is kept for one version of its
 * source, for a short while: VS Code asks within milliseconds, or not at all.
 * No `vscode` import (tested on its own).
 */
export class EarlyRenders<T> {
  private readonly started = new Map<string, { readonly version: number; readonly content: Promise<T>; readonly timer: NodeJS.Timeout }>();

  constructor(private readonly keptMs: number) {}

  /** Starts `render` for `key` at `version` of its source, in place of any render started before. */
  start(key: string, version: number, render: () => Promise<T>): void {
    this.forget(key);
    const content = render();
    // Nobody may come for it: its failure is the caller's to see when it takes it, not an unhandled one.
    content.catch(() => undefined);
    const timer = setTimeout(() => this.forget(key), this.keptMs);
    timer.unref?.();
    this.started.set(key, { version, content, timer });
  }

  /** The render started for `key`, once, when it renders `version` (the source as it is now). */
  take(key: string, version: number | undefined): Promise<T> | undefined {
    const started = this.started.get(key);
    if (!started) return undefined;
    this.forget(key);
    return started.version === version ? started.content : undefined;
  }

  dispose(): void {
    for (const key of [...this.started.keys()]) this.forget(key);
  }

  private forget(key: string): void {
    clearTimeout(this.started.get(key)?.timer);
    this.started.delete(key);
  }
}
