/**
 * Where the parser's columns (`./columns.ts`) live, and the reuse of that memory between parses.
 *
 * A parse writes about 38 bytes per slot into typed arrays and one `keys` entry per slot. Memory a
 * process touches for the first time costs a page fault per 4 KB, and on a virtual machine that can
 * be ~10 µs a page: the columns of a 5 MB document are ~1,800 fresh pages, about as long as the
 * whole scan. So a caller that is done with a parse (`recycleColumns`) hands its storage back, and
 * the next parse that fits takes it (zeroed again), the way a JavaScript engine reuses its heap.
 * Only one-shot callers recycle (`analyzeText`, `babelq lint`): the editor keeps a document's parse
 * while it is open, and an incremental reparse shares columns with the version before it.
 */
import type { Columns } from './columns';

/** The typed columns and the keys for `capacity` slots, zeroed (keys unset). */
export type ColumnStorage = Pick<Columns, 'info' | 'start' | 'end' | 'parent' | 'next' | 'keyStart' | 'keyEnd' | 'colon' | 'values'> & {
  readonly capacity: number;
  readonly keys: (string | undefined)[];
};

/** Bytes per slot: `values` (8), seven Int32 columns (28) and `info` (2), in that order (each aligned). */
const BYTES_PER_SLOT = 38;

/** Small documents share 64 KB buffers (a buffer is an allocation the collector tracks apart). */
const SLAB_BYTES = 1 << 16;
let slab: ArrayBuffer | undefined;
let slabUsed = 0;

/** The largest storage kept for reuse (2M slots, about 90 MB with keys): beyond that, memory goes back to the system. */
const MAX_SPARE_SLOTS = 1 << 21;

/** Storage handed back by `recycleColumns`, with the number of slots its last parse wrote. */
let spare: { storage: ColumnStorage; used: number } | undefined;

/** Storage for at least `capacity` slots: the spare when it is large enough, otherwise new memory. */
export function takeColumnStorage(capacity: number): ColumnStorage {
  if (spare !== undefined && spare.storage.capacity >= capacity) {
    const { storage, used } = spare;
    spare = undefined;
    // Only the slots the last parse wrote can be dirty.
    storage.info.fill(0, 0, used);
    storage.values.fill(0, 0, used);
    for (const column of [storage.start, storage.end, storage.parent, storage.next, storage.keyStart, storage.keyEnd, storage.colon]) column.fill(0, 0, used);
    return storage;
  }
  return newColumnStorage(capacity);
}

/** Fresh zeroed storage for exactly `capacity` slots (with `keys` when the caller grows its own). */
export function newColumnStorage(capacity: number, keys = new Array<string | undefined>(capacity)): ColumnStorage {
  const bytes = (capacity * BYTES_PER_SLOT + 7) & ~7;
  let buffer: ArrayBuffer;
  let base = 0;
  if (bytes > SLAB_BYTES >> 3) {
    buffer = new ArrayBuffer(bytes);
  } else {
    if (!slab || slabUsed + bytes > SLAB_BYTES) {
      slab = new ArrayBuffer(SLAB_BYTES);
      slabUsed = 0;
    }
    buffer = slab;
    base = slabUsed;
    slabUsed += bytes;
  }
  // `base` is a multiple of 8 (slab regions are rounded up to 8 bytes), so `values` is aligned.
  const int32 = (index: number) => new Int32Array(buffer, base + capacity * 8 + index * capacity * 4, capacity);
  return {
    capacity,
    values: new Float64Array(buffer, base, capacity),
    start: int32(0),
    end: int32(1),
    parent: int32(2),
    next: int32(3),
    keyStart: int32(4),
    keyEnd: int32(5),
    colon: int32(6),
    info: new Uint16Array(buffer, base + capacity * 36, capacity),
    keys,
  };
}

/**
 * Hands the storage of `columns` back for the next parse. The caller made them with `parseText`
 * (not an incremental reparse, whose columns share arrays with another version) and promises that
 * nothing reads them again: the document that holds them is dropped.
 */
export function recycleColumns(columns: Columns): void {
  const { info, start, end, parent, next, keyStart, keyEnd, colon, values } = columns;
  const keys = columns.keys as (string | undefined)[];
  const capacity = info.length;
  if (capacity > MAX_SPARE_SLOTS || (spare !== undefined && spare.storage.capacity >= capacity)) return;
  // The keys are cleared now, not when the storage is taken again: a key is a view into the text
  // it was cut from, and the spare must not keep the dropped document alive until the next parse.
  keys.fill(undefined, 0, columns.count);
  spare = { storage: { capacity, info, start, end, parent, next, keyStart, keyEnd, colon, values, keys }, used: columns.count };
}
