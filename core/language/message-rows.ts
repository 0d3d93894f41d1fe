/**
 * The rows of a message list (peek, dead letters): each body's text linted with the same
 * engine as a fixture, and described by core/message/dead-letter.ts. Here rather than there
 * because the lint verdict needs the rules, which sit above the message layer.
 */
import { messageRow, type LintCounts, type MessageRow } from '../message/dead-letter';
import { redisFrame, type RedisFrame } from '../message/redis-frame';
import { utf8Bytes } from '../model/utf8';
import { analyzeStoredText } from '../rules/byte-order-mark';
import type { CoreDiagnostic } from '../rules/diagnostic';
import { decodeAsLint, notUtf8Diagnostics, type LintDecoders } from '../rules/not-utf8';
import { NO_REGISTRY, type RegistryState } from '../registry/types';
import { DEFAULT_SETTINGS, type Settings } from '../rules/settings/settings';

/** A row and the diagnostics behind its verdict. */
export interface LintedRow {
  readonly row: MessageRow;
  readonly diagnostics: readonly CoreDiagnostic[];
}

/**
 * A body as read, decoded as lint decodes a file's bytes (messageBody): strict UTF-8 keeping a
 * byte-order mark in the text, so the BOM is lint's json-syntax error (analyzeStoredText).
 */
export interface ReadBody {
  /** The text; for bytes that are not UTF-8, a lossy decode (U+FFFD for the bad bytes), shown but not linted. */
  readonly text: string;
  readonly bytes: number;
  /**
   * Bytes that are not UTF-8: lint's message for them and the text before the first invalid
   * byte (decodeAsLint). The verdict is then that one json-syntax error, as lint's is.
   */
  readonly notUtf8?: { readonly message: string; readonly before: string };
}

/**
 * A message's bytes as read from a queue, decoded as `babelq lint` decodes a file's (decodeAsLint,
 * with the adapter's decoders), so a peek's verdict, the CLI's and the editor's alike, is lint's:
 * a BOM kept in the text (lint's json-syntax error, the rest analysed as lint does), and bytes
 * that are not UTF-8 judged as that one finding, their text shown with U+FFFD for the bad bytes
 * but never linted as the message.
 */
export function messageBody(body: Uint8Array, decoders: LintDecoders): ReadBody {
  const decoded = decodeAsLint(body, decoders);
  if (decoded.ok) return { text: decoded.text, bytes: body.byteLength };
  return { text: decoders.lenient.decode(body), bytes: body.byteLength, notUtf8: { message: decoded.message, before: decoded.before } };
}

/**
 * A stored message's body as the SDK consumers read it: on Redis, the envelope inside a header
 * frame (core/message/redis-frame.ts), with the frame; anything else as stored. The stored bytes
 * stay what a redrive finds the message by.
 */
export function consumedBody(stored: Uint8Array, decoders: LintDecoders, redis: boolean): { readonly body: ReadBody; readonly frame?: RedisFrame } {
  const frame = redis ? frameOf(stored, decoders) : undefined;
  return frame ? { body: messageBody(utf8Bytes(frame.body), decoders), frame } : { body: messageBody(stored, decoders) };
}

/** The header frame stored bytes are, when they are UTF-8 and one. */
function frameOf(stored: Uint8Array, decoders: LintDecoders): RedisFrame | undefined {
  const decoded = decodeAsLint(stored, decoders);
  return decoded.ok ? redisFrame(decoded.text) : undefined;
}

/**
 * The rows of bodies read from a queue, in the order given (position 0 = the first body), each
 * judged with `settings` and `registry` (the CLI's: those of a fixture at the top of the current
 * folder; without them, the bytes and the contract alone).
 */
export function lintedRows(bodies: readonly ReadBody[], settings: Settings = DEFAULT_SETTINGS, registry: RegistryState = NO_REGISTRY): LintedRow[] {
  return bodies.map(({ text, bytes, notUtf8 }, position) => {
    const diagnostics = notUtf8 ? notUtf8Diagnostics(notUtf8.message, settings, notUtf8.before) : analyzeStoredText(text, settings, registry).diagnostics;
    return { row: messageRow(text, bytes, position, verdictOf(diagnostics)), diagnostics };
  });
}

/**
 * What a list shows of a message and what a redrive's question counts: its errors and warnings,
 * and the code of each error (the send guards ask about some codes in words of their own).
 */
export interface MessageVerdict extends LintCounts {
  readonly errorCodes: readonly string[];
}

/** A message's verdict from its findings. */
export function verdictOf(diagnostics: readonly CoreDiagnostic[]): MessageVerdict {
  const errorCodes = diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
  return { errors: errorCodes.length, warnings: diagnostics.filter((d) => d.severity === 'warning').length, errorCodes };
}

/**
 * A message's text judged as `babelq lint` judges a fixture's (a BOM kept in the text is its
 * json-syntax error), with `settings` and `registry`: the language server's answer to the
 * editor's lists and redrives (server/handlers/message-verdicts.ts).
 */
export function judgedText(text: string, settings: Settings, registry: RegistryState): MessageVerdict {
  return verdictOf(analyzeStoredText(text, settings, registry).diagnostics);
}
