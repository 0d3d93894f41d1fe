/**
 * The catalogue: every code's definition, found by code, in catalogue order. It is read from the
 * rule modules (modules.ts), so nothing about a code is written twice.
 */
import { CODE_NAMES, type Code } from './code-names';
import type { CodeDefinition } from './definition';
import { RULE_MODULES } from './modules';

const BY_CODE: ReadonlyMap<Code, CodeDefinition> = new Map(RULE_MODULES.flatMap((module) => module.codes.map((definition) => [definition.code, definition] as const)));

/** The definition of a code of the catalogue. */
export function definitionOf(code: Code): CodeDefinition {
  const definition = BY_CODE.get(code);
  // code-names.ts and modules.ts are generated together, so a code without a definition is a stale generate.
  if (!definition) throw new Error(`The code "${code}" has no definition: run npm run generate.`);
  return definition;
}

/** Every code's definition, in catalogue order (by family, then by name). */
export const DEFINITIONS: readonly CodeDefinition[] = CODE_NAMES.map(definitionOf);
