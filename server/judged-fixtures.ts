/**
 * What the last judging of an open suppressions file found in each fixture it read from disk, kept
 * so that the next judging (at the next pull of the file's diagnostics: at each edit of it) reads
 * and analyses again only a fixture whose file, settings, registry or entries changed. Typing in a
 * suppressions file whose entries name 16 MiB of fixtures analysed all of them at each keystroke.
 * Registries are immutable values swapped on change, so identity says "unchanged"; settings are
 * made anew at each change of a project file (this one's included), so what of them the findings
 * depend on is compared; a file is unchanged while its stamp is (server/file-stamps.ts), and one
 * read within a tick of its modification time while its text is too: a write within that tick at
 * the same size can leave the stamp as it was (two seconds on FAT, a second on HFS+).
 */
import { statSync } from 'node:fs';
import type { RegistryState } from '../core/registry/types';
import { settingsKey, type Settings } from '../core/rules/settings/settings';
import type { Suppression } from '../core/rules/settings/suppressions-file';
import { readBoundedText } from '../workspace/bounded-read';
import { readsAsMarked, stampOf, withinTick, type ReadMark } from './file-stamps';

/** One fixture's judging, with what it depended on. */
export interface FixtureJudgement {
  /** Its file's stamp as read (stampOf). */
  readonly stamp: string;
  /** For a file read within a tick of its modification time: what was read, compared again before reuse (markOf). */
  readonly mark?: ReadMark;
  /** What of the settings its findings depend on (settingsKey). */
  readonly settings: string;
  readonly registry: RegistryState;
  /** The codes and pointers of the entries naming it, in order: whether an entry matches a finding depends on these alone. */
  readonly asked: string;
  /** The characters of its text, charged to the judging's budget again when this is reused. */
  readonly characters: number;
  /** The positions, among the entries naming it, of those that matched a finding. */
  readonly used: readonly number[];
}

/** The codes and pointers of a fixture's entries, the part of them its judging depends on. */
export function askedOf(named: readonly Suppression[]): string {
  return named.map((entry) => `${entry.code}\u0000${entry.pointer}`).join('\u0001');
}

/** One judging of one suppressions file: the judgements of the last complete one (and of any stopped since) to reuse, those of this one kept. */
export class JudgingRound {
  private readonly made = new Map<string, FixtureJudgement>();

  constructor(
    private readonly last: ReadonlyMap<string, FixtureJudgement>,
    private readonly finished: (made: Map<string, FixtureJudgement>) => void,
  ) {}

  /** The last judging's judgement of `fixture` when nothing it depended on has changed since (kept for the next round too). */
  reusable(fixture: string, settings: Settings, registry: RegistryState, named: readonly Suppression[]): FixtureJudgement | undefined {
    const known = this.last.get(fixture);
    if (!known || known.registry !== registry || known.settings !== settingsKey(settings) || known.asked !== askedOf(named)) return undefined;
    let stamp: string;
    try {
      stamp = stampOf(statSync(fixture));
    } catch {
      return undefined;
    }
    if (stamp !== known.stamp) return undefined;
    if (known.mark) {
      // Read again (not analysed) to tell a write within the tick; once past it, the stamp alone tells.
      const read = readsAsMarked(fixture, known.mark, readBoundedText);
      if (!read || stampOf(read) !== known.stamp) return undefined;
      const reused = withinTick(read) ? known : { ...known, mark: undefined };
      this.made.set(fixture, reused);
      return reused;
    }
    this.made.set(fixture, known);
    return known;
  }

  keep(fixture: string, judgement: FixtureJudgement): void {
    this.made.set(fixture, judgement);
  }

  /** The judging ran to its end or its budget: its judgements are the ones the next reuses. */
  finish(): void {
    this.finished(this.made);
  }

  /**
   * The judging stopped before its end (its pull cancelled or superseded, as at each keystroke in
   * the file): what it judged is kept beside the last judging's, so the next one goes on from
   * where it stopped instead of starting over each time. Every judgement is checked again before
   * reuse; the next judging to finish keeps only its own. Past MAX_KEPT_ACROSS_STOPS judgements
   * the last judging's are dropped, so a stream of stopped judgings cannot grow the set.
   */
  stop(): void {
    if (this.made.size === 0) return;
    const kept = new Map(this.last.size + this.made.size <= MAX_KEPT_ACROSS_STOPS ? this.last : []);
    for (const [fixture, judgement] of this.made) kept.set(fixture, judgement);
    this.finished(kept);
  }
}

/** The most judgements kept across judgings that stopped before their end: a judging's own count limit (2,000) twice. */
const MAX_KEPT_ACROSS_STOPS = 4_000;

/** The judgements of each open suppressions file's last judging, by the file's path. */
export class JudgedFixtures {
  private readonly byFile = new Map<string, ReadonlyMap<string, FixtureJudgement>>();

  /**
   * A judging of the open file at `suppressionsPath`. The file is known from its first judging on,
   * so that a judging still running when the file closes (it stops there, or ends unaware of it)
   * keeps nothing: kept, its judgements (and the settings and registries they hold) would stay for
   * a file no longer open, one set for each file closed so. A judging begun after the close is not
   * asked for (server/project-files.ts).
   */
  round(suppressionsPath: string): JudgingRound {
    let last = this.byFile.get(suppressionsPath);
    if (last === undefined) {
      last = new Map();
      this.byFile.set(suppressionsPath, last);
    }
    return new JudgingRound(last, (made) => {
      if (this.byFile.has(suppressionsPath)) this.byFile.set(suppressionsPath, made);
    });
  }

  /** The file was closed: nothing of its judging is kept (nor the settings and registries it held), by a judging running now either. */
  forget(suppressionsPath: string): void {
    this.byFile.delete(suppressionsPath);
  }
}
