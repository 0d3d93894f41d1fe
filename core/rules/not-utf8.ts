/**
 * Bytes that are not UTF-8, which the parser never sees: every reader of a fixture's bytes
 * (`babelq lint`, `preview`, `send`, the language server's report of the files on disk) decodes
 * them strictly (workspace/strict-utf8.ts) and reports such bytes as this one json-syntax finding
 * where the first invalid byte is, instead of guessing what the text was meant to be.
 */
import { applySettings } from './analyze';
import { definitionOf } from './catalogue';
import type { CoreDiagnostic } from './diagnostic';
import type { Settings } from './settings/settings';

/**
 * The json-syntax finding for bytes that are not UTF-8, under the settings' switch and severity,
 * where the first invalid byte is: at the end of `before`, the text before it (positions are
 * then taken on `before`).
 */
export function notUtf8Diagnostics(message: string, settings: Settings, before = ''): CoreDiagnostic[] {
  // analyze() never sees this file, so the same on/off switch and severity override apply here.
  return applySettings([{ code: 'json-syntax', severity: definitionOf('json-syntax').severity, message, offset: before.length, end: before.length }], settings);
}
