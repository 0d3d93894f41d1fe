/**
 * What a diagnostic code is, as one unit: its name, family, default severity, one-line summary,
 * its documentation (what fires it, what to write instead, an example), its quick fixes, and the
 * check that reports it. A rule module (one file under core/rules/<family>/) exports one `rule`:
 * the definitions of the codes its check reports, side by side with that check. The catalogue
 * (catalogue.ts), the code names (code-names.ts), docs/diagnostics.md and the settings' code list
 * in package.json are generated from these modules by `npm run generate`; a test keeps them fresh.
 */
import type { TextEdit } from '../model/edits';
import type { Fresh } from '../model/fresh';
import type { ParsedDocument, PropertyNode, ValueNode } from '../model/tree';
import type { RegistryState } from '../registry/types';
import type { Code } from './code-names';
import type { RuleContext } from './context';
import type { CoreDiagnostic, Severity } from './diagnostic';
import type { EditedValue } from './edited-value';

export type CodeFamily = 'structure' | 'contract' | 'data' | 'registry' | 'project';

/** The catalogue's families in the order the documentation lists them. */
export const FAMILIES: readonly { readonly family: CodeFamily; readonly title: string; readonly intro?: string }[] = [
  { family: 'structure', title: 'Document and structure' },
  { family: 'contract', title: 'Contract rules' },
  { family: 'data', title: 'Data rules (inside `data`)' },
  {
    family: 'registry',
    title: 'Registry rules (when a registry is loaded)',
    intro:
      'The registry is `registry.json` in the bqschema format. Each fixture uses the setting `babelqueue.registry.path` (relative to the workspace folder) or, without it, the nearest `registry.json` at or above the fixture inside its workspace folder (`babelq lint`: `--registry`, or the same search with the current directory as the folder). Paths that leave the folder (through `..`, an absolute path or a symbolic link) are refused unread.',
  },
  {
    family: 'project',
    title: 'Project files (`babelq.json`, `babelq-suppressions.json`)',
    intro:
      '`babelq.json` is the project config that the editor and `babelq lint` both read, found by walking up from each fixture; `babelq-suppressions.json` beside it silences single findings, each with a reason. These codes sit in those two files.',
  },
];

/** A code's documentation, in Markdown: docs/diagnostics.md is made from it. */
export interface CodeDocs {
  /** What makes the code fire. */
  readonly fires: string;
  /** What the fixture's author writes instead. */
  readonly instead: string;
  /** A fixture fragment that fires it, and the same fragment repaired (JSON). */
  readonly example: { readonly fires: string; readonly clean: string };
  /** What the quick fixes do, when the code has any. */
  readonly fixes?: string;
}

/** One quick fix: edits that leave valid JSON without the finding. */
export interface Fix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
  /**
   * Whether the editor offers it as the obvious fix (and `babelq lint --fix` applies it). When a
   * definition leaves it unset, a fix is preferred exactly when it is the only one offered.
   */
  readonly preferred?: boolean;
}

/** What a definition's fixes receive: the document, the finding and the means to build edits. */
export interface FixContext {
  readonly doc: ParsedDocument;
  readonly diagnostic: CoreDiagnostic;
  readonly fresh: Fresh;
  readonly registry: RegistryState | undefined;
  /** The property whose key token the finding covers exactly. */
  propertyAtKey(): PropertyNode | undefined;
  /** The value token the finding covers exactly (an object or array by its opening bracket). */
  valueAt(): ValueNode | undefined;
}

export interface CodeDefinition<C extends Code = Code> {
  readonly code: C;
  readonly family: CodeFamily;
  /** The severity before the user's overrides. */
  readonly severity: Severity;
  /** Levels some findings take instead of the default (unsafe-integer beyond 64 bits is an error). */
  readonly otherSeverities?: readonly Severity[];
  /** One line, for SARIF rule descriptions, settings and the catalogue's tables. */
  readonly summary: string;
  readonly docs: CodeDocs;
  /** The quick fixes for one finding of this code, best first. */
  readonly fixes?: (context: FixContext) => readonly Fix[];
}

/**
 * Reuses the previous version's findings after an edit inside one string value or number literal
 * (see core/parse/incremental.ts): keeps what still holds, checks the edited value again.
 */
export type AfterEdit<C extends Code> = (context: RuleContext<C>, previous: readonly CoreDiagnostic[], edit: EditedValue, keep: (diagnostic: CoreDiagnostic) => void) => void;

/** The check of a rule module: one pass that reports the module's codes. */
export interface Check<C extends Code> {
  (context: RuleContext<C>): void;
}

/** One file under core/rules/<family>/: the codes it defines and the check that reports them. */
export interface RuleModule<C extends Code = Code> {
  readonly codes: readonly CodeDefinition<C>[];
  readonly check: Check<C>;
  /** The keystroke path, for checks whose findings are local to values; without it the check runs again. */
  readonly afterEdit?: AfterEdit<C>;
}

/** Declares a rule module; the codes its check may report are exactly the codes it defines. */
export function defineRule<C extends Code>(module: RuleModule<C>): RuleModule<C> {
  return module;
}
