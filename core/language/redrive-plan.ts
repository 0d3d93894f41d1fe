/**
 * What a redrive of chosen dead letters would move, for `babelq dlq redrive` and the editor's
 * Redrive alike: per message, its stored bytes checked (a BOM or bytes that are not UTF-8 are
 * left where they are, unless the user wrote the text to send) and the chosen SDK's redrive made;
 * and, apart, the errors of what would be published, for the send guards.
 */
import { bytesNotRedriven, redriveMessage, type RedriveOptions } from '../message/dead-letter';
import { shortened } from '../model/describe-value';
import { invalidUtf8At } from '../model/utf8';
import { showOnOneLine } from './markdown';
import type { RedriveMove } from '../message/types';
import { NO_REGISTRY, type RegistryState } from '../registry/types';
import { analyzeText } from '../rules/analyze';
import { DEFAULT_SETTINGS, type Settings } from '../rules/settings/settings';

/** A dead letter chosen for a redrive. */
export interface RedriveCandidate {
  readonly metaId: string;
  /** Its bytes exactly as stored: the broker finds it in the DLQ by them. */
  readonly body: Uint8Array;
  /** Its text as read, or the text the user wrote to send instead. */
  readonly text: string;
  /** True when `text` is the user's own: their edit is sent whatever the stored bytes were. */
  readonly edited?: boolean;
}

export interface RedrivePlan {
  readonly moves: RedriveMove[];
  /** For each move, the index of its candidate. */
  readonly movedCandidates: number[];
  /** Why each candidate not moved stays (`meta.id …: reason`). */
  readonly skipped: string[];
  /**
   * What to say before moving (`meta.id …: note`): a target queue whose name is only white space,
   * an edited copy of bytes that are not UTF-8 that still holds the U+FFFD shown in their place.
   */
  readonly notes: string[];
}

/** The longest meta.id a plan's line names whole (a SHA-256 in hex is 64). */
const MAX_NAMED_ID = 200;

export function planRedrive(candidates: readonly RedriveCandidate[], options: RedriveOptions): RedrivePlan {
  const plan: RedrivePlan = { moves: [], movedCandidates: [], skipped: [], notes: [] };
  candidates.forEach((candidate, index) => {
    // As a line names a meta.id (whoever dead-lettered the message wrote it): bounded, on one line, escaped.
    const id = showOnOneLine(shortened(candidate.metaId, MAX_NAMED_ID));
    const notRedriven = candidate.edited ? undefined : bytesNotRedriven(candidate.body);
    if (notRedriven !== undefined) {
      plan.skipped.push(`meta.id ${id}: ${notRedriven}`);
      return;
    }
    const redriven = redriveMessage(candidate.text, options, !candidate.edited);
    if (!redriven.ok) {
      plan.skipped.push(`meta.id ${id}: ${redriven.error}`);
      return;
    }
    // On one line: the note quotes queue names a producer wrote (a bidirectional override, U+2028).
    if (redriven.note) plan.notes.push(showOnOneLine(`meta.id ${id}: ${redriven.note}`));
    // The copy was made from the view, which shows U+FFFD for bytes that are not UTF-8: left in the
    // edit, they are published in place of the stored bytes, which the user may not have noticed.
    if (candidate.edited && candidate.text.includes('\uFFFD') && invalidUtf8At(candidate.body) !== undefined) {
      plan.notes.push(`meta.id ${id}: its stored bytes are not UTF-8, and this copy still holds U+FFFD where they were: the redrive publishes U+FFFD (EF BF BD) in place of the stored bytes.`);
    }
    plan.moves.push({ original: candidate.body, message: redriven.message });
    plan.movedCandidates.push(index);
  });
  return plan;
}

/**
 * The error codes of the bytes the moves would publish, re-linted with `settings` and `registry`
 * (by default the contract alone): what the send guards ask about. Apart from the plan, so the
 * editor, whose language server judges the texts with the registry, lints them here only when the
 * server cannot answer.
 */
export function redriveErrorCodes(moves: readonly RedriveMove[], settings: Settings = DEFAULT_SETTINGS, registry: RegistryState = NO_REGISTRY): string[] {
  return moves.flatMap(({ message }) => analyzeText(message.text, settings, registry).flatMap((found) => (found.severity === 'error' ? [found.code] : [])));
}

/**
 * A send guard's question (core/message/send-policy.ts) in a redrive's words, for `babelq dlq
 * redrive` and the editor's Redrive alike: the envelopes it would publish, counted when more than
 * one, and "Redrive" where a send says "Send".
 */
export function redriveQuestion(question: string, envelopes: number): string {
  const subject = envelopes === 1 ? question : question.replace(/^This envelope has /, `The ${envelopes} envelopes to redrive have `);
  return subject.replace(/ Send anyway\?$/, ' Redrive anyway?').replace(/ Send a test envelope to it\?$/, ` Redrive ${envelopes === 1 ? 'the message' : `${envelopes} messages`} to it?`);
}
