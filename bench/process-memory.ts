/**
 * The memory of code-server's extension host and every process it started (the language servers:
 * ours, or VS Code's JSON server for the anchor), read from /proc: what the workbench's language
 * features cost the user in memory, beside the same figure for the anchor.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Resident memory in bytes of the extension host below `rootPid` and its descendants; undefined when none is found. */
export function extensionHostMemory(rootPid: number): number | undefined {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(Number(name));
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(Number(name));
    children.set(parent, list);
  }
  const below = (pid: number): number[] => [pid, ...(children.get(pid) ?? []).flatMap(below)];
  const host = below(rootPid).find((pid) => commandLine(pid).includes('--type=extensionHost'));
  if (host === undefined) return undefined;
  return below(host).reduce((sum, pid) => sum + residentBytes(pid), 0);
}

function parentOf(pid: number): number | undefined {
  try {
    // "pid (comm) state ppid …": comm may hold spaces or parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // gone since the listing
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
