/**
 * A unified diff of two texts, line by line (`babelq lint --fix-dry-run`), in the format `patch`
 * and `git apply` read: `--- a/<file>`, `+++ b/<file>`, hunks with three lines of context.
 * Lines are compared with their line breaks, so a changed line ending shows as a change.
 * Myers' O(ND) algorithm: a fix changes a few lines of a large file, so D is small.
 */

const CONTEXT = 3;

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

export function unifiedDiff(before: string, after: string, file: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  const out = [`--- ${headerName('a/', file)}\n`, `+++ ${headerName('b/', file)}\n`];
  // Group the changes into hunks with CONTEXT lines around each; close changes share a hunk.
  let index = 0;
  while (index < ops.length) {
    while (index < ops.length && ops[index].kind === ' ') index++;
    if (index >= ops.length) break;
    const start = Math.max(0, index - CONTEXT);
    let end = index;
    let lastChange = index;
    while (end < ops.length) {
      if (ops[end].kind !== ' ') lastChange = end;
      else if (end - lastChange > 2 * CONTEXT) break;
      end++;
    }
    end = Math.min(ops.length, lastChange + CONTEXT + 1);
    let oldStart = 1;
    let newStart = 1;
    for (let i = 0; i < start; i++) {
      if (ops[i].kind !== '+') oldStart++;
      if (ops[i].kind !== '-') newStart++;
    }
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n`);
    for (const op of hunk) {
      out.push(op.kind + (op.line.endsWith('\n') ? op.line : `${op.line}\n\\ No newline at end of file\n`));
    }
    index = end;
  }
  return out.join('');
}

/**
 * A header's file name as git writes it: a name with a tab, a line break, a control character, `"`
 * or a backslash is quoted C-style (`"a/tab\tname"`), which `git apply` and GNU patch read back; raw, a
 * tab would end the name and a line break would start a line of the diff.
 */
function headerName(side: string, file: string): string {
  const name = side + file;
  if (!/["\\\u0000-\u001f\u007f]/.test(name)) return name;
  const escaped = name.replace(/["\\\u0000-\u001f\u007f]/g, (char) => {
    const named = QUOTED[char];
    return named ?? `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`;
  });
  return `"${escaped}"`;
}

const QUOTED: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\u0007': '\\a', '\b': '\\b', '\v': '\\v', '\f': '\\f' };

function range(start: number, count: number): string {
  // An empty side starts one line earlier, as diff(1) writes it.
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}

/**
 * The shortest edit script from `a` to `b` (Myers 1986), as kept, removed and added lines. The
 * common first and last lines are set aside first, and each round keeps only its own diagonals,
 * so memory grows with the square of the number of changed lines, not with the file.
 */
function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const middle = myers(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix));
  const kept = (lines: readonly string[]): Op[] => lines.map((line) => ({ kind: ' ', line }));
  return [...kept(a.slice(0, prefix)), ...middle, ...kept(a.slice(a.length - suffix))];
}

function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  /** trace[d]: the furthest x on diagonals -(d-1)…d-1 before round d (index k + d - 1). */
  const trace: Int32Array[] = [];
  let done = max === 0;
  for (let d = 0; d <= max && !done; d++) {
    trace.push(v.slice(offset - d + 1, offset + d));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
  }
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const before = trace[d];
    const at = (k: number): number => before[k + d - 1];
    const k = x - y;
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      ops.push({ kind: ' ', line: a[--x] });
      y--;
    }
    if (x === previousX) ops.push({ kind: '+', line: b[--y] });
    else ops.push({ kind: '-', line: a[--x] });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: a[--x] });
    y--;
  }
  return ops.reverse();
}
