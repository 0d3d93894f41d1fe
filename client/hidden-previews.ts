/**
 * When a preview that VS Code keeps off screen is rendered again. VS Code keeps a closed preview's
 * document for minutes and shows it again as it was; a preview is rendered again only while it is
 * on screen (./preview.ts), so one whose envelope changed while it was hidden is remembered as out
 * of date. It is rendered again when the preview command runs rather than when VS Code reports the
 * editor visible (120-140 ms later on a 5 MB fixture, traced in the real workbench's extension
 * host; VS Code's own update of the kept document with the new text then takes longer still, so
 * little of that shows on screen), and only once: a render that brought it up to date meanwhile,
 * or VS Code letting go of the document, clears the mark.
 * Keyed by the source envelope's URI. No `vscode` import (tested on its own).
 */

/** What the preview command does before VS Code shows the preview. */
export type PreviewOpening =
  /** No document kept: render now, while VS Code opens the editor and asks for the content. */
  | 'render-early'
  /** A document kept from before, out of date: render it again now. */
  | 'render-again'
  /** A document kept from before, still the envelope as it is: VS Code shows it as it is. */
  | 'show-as-kept';

export class HiddenPreviews {
  private readonly outOfDate = new Set<string>();

  /** The envelope `source` changed while its preview was kept but not on screen. */
  changedWhileHidden(source: string): void {
    this.outOfDate.add(source);
  }

  /** The preview command runs for `source`, whose preview document VS Code keeps (`kept`) or not. */
  opening(source: string, kept: boolean): PreviewOpening {
    const wasOutOfDate = this.outOfDate.delete(source);
    if (!kept) return 'render-early';
    return wasOutOfDate ? 'render-again' : 'show-as-kept';
  }

  /** VS Code shows `source`'s preview (a tab brought back, or the command's editor): whether it must be rendered again. */
  shown(source: string): boolean {
    return this.outOfDate.delete(source);
  }

  /**
   * `source`'s preview needs no render of its own any more: it was rendered as the envelope is now
   * (a refresh that came while it was hidden, new fresh ids), or VS Code let go of its document
   * (the next opening renders afresh anyway).
   */
  settled(source: string): void {
    this.outOfDate.delete(source);
  }
}
