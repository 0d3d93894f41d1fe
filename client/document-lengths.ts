/**
 * The lengths of the documents a preview follows, in UTF-16 code units, carried from one version
 * to the next by their change events. The preview needs a document's length on every render (a
 * large envelope is rendered by the server, a small one in place), and asking VS Code for it (the
 * offset of the end) right after an edit near the top of a 5 MB document costs the extension host
 * 4–22 ms: it computes the line starts again from the edited line on. Every keystroke while the
 * preview is open paid that before its request left for the server.
 * No `vscode` import (tested on its own).
 */

/** One change of a change event, as VS Code gives it: `rangeLength` units replaced by `text`. */
export interface LengthChange {
  readonly rangeLength: number;
  readonly text: string;
}

export class DocumentLengths {
  private readonly known = new Map<string, { version: number; length: number }>();

  /** The length of `key` at `version`: carried over its changes when known, else measured. */
  of(key: string, version: number, measure: () => number): number {
    const known = this.known.get(key);
    if (known?.version === version) return known.length;
    const length = measure();
    this.known.set(key, { version, length });
    return length;
  }

  /**
   * A change event of `key`, which made `version`: a length known for an earlier version is carried
   * over it (the changes of one event replace disjoint ranges, so their order does not matter).
   */
  changed(key: string, version: number, changes: readonly LengthChange[]): void {
    const known = this.known.get(key);
    if (!known || changes.length === 0) return;
    // An event for a version not after the one known would be counted twice: measure again instead.
    if (version <= known.version) {
      this.known.delete(key);
      return;
    }
    let length = known.length;
    for (const change of changes) length += change.text.length - change.rangeLength;
    this.known.set(key, { version, length });
  }

  forget(key: string): void {
    this.known.delete(key);
  }
}
