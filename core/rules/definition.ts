/**
 * What a diagnostic code is, as one unit: its name, family, default severity, one-line summary,
 * its documentation (what fires it, what to write instead, an example), its quick fixes, and the
 * checks that report it. A rule module (one file under core/rules/<family>/) exports one `rule`:
 * the definitions of the codes its checks report, side by side with those checks: `check` for
 * envelope fixtures, `files` for the other files a code is found in (a registry's schema files,
 * registry.json, babelq.json, the suppressions file). The catalogue (catalogue.ts), the code names
 * (code-names.ts), the list of modules (modules.ts), docs/diagnostics.md and the settings' code
 * list in package.json are generated from these modules by `npm run generate`; a test keeps them
 * fresh. Nothing else names a code: core/rules/file-diagnostics.ts runs every module's file checks.
 */
import type { TextEdit } from '../model/edits';
import type { Fresh } from '../model/fresh';
import type { ParsedDocument, PropertyNode, ValueNode } from '../model/tree';
import type { Registry, RegistryEntry, RegistryState } from '../registry/types';
import type { Code } from './code-names';
import type { Range, RuleContext } from './context';
import type { CoreDiagnostic, Severity } from './diagnostic';
import type { EditedValue } from './edited-value';
import type { ProjectConfig } from './settings/project-config';
import type { Settings } from './settings/settings';
import type { Suppression, SuppressionsFile, UncheckedSuppressions } from './settings/suppressions-file';

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
      'The registry is `registry.json` in the bqschema format. Each fixture uses the setting `babelqueue.registry.path` (relative to the workspace folder) or, without it, the nearest `registry.json` at or above the fixture inside its workspace folder (`babelq lint`: `--registry`, or the same search with the repository as the folder: the nearest folder at or above the current directory holding `.git`, else `GITHUB_WORKSPACE` when the current directory lies in it, else the current directory). Paths that leave the folder (through `..`, an absolute path or a symbolic link) are refused unread; the CLI\'s message names the repository, the GitHub workspace or the current folder it left.',
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

/**
 * One quick fix: edits that leave valid JSON without the finding (a json-syntax fix repairs its
 * own problem; others in the same document stay, each with its own fix).
 */
export interface Fix {
  readonly title: string;
  /** The edits of the document the finding is in. */
  readonly edits: readonly TextEdit[];
  /**
   * Whether the editor offers it as the obvious fix (and `babelq lint --fix` applies it). When a
   * definition leaves it unset, a fix is preferred exactly when it is the only one offered.
   */
  readonly preferred?: boolean;
  /**
   * Other files the fix writes (breaking-change's "Register as a new URN" creates the next schema
   * file and edits registry.json). Only an editor that can create files offers such a fix, and the
   * adapter refuses one whose file would leave the registry's folder or replace anything.
   */
  readonly otherFiles?: readonly OtherFileChange[];
}

/** A file a fix creates (at `ref`, relative to the folder of the file `beside`), or edits. */
export type OtherFileChange =
  | { readonly kind: 'create'; readonly beside: string; readonly ref: string; readonly text: string }
  | { readonly kind: 'edit'; readonly path: string; readonly text: string; readonly edits: readonly TextEdit[] };

/** A registry entry whose schema is the file a finding is in (a schema file can serve several registries). */
export interface SchemaOwner {
  readonly registry: Registry;
  readonly entry: RegistryEntry;
}

/** What a definition's fixes receive: the document, the finding and the means to build edits. */
export interface FixContext {
  readonly doc: ParsedDocument;
  readonly diagnostic: CoreDiagnostic;
  readonly fresh: Fresh;
  readonly registry: RegistryState | undefined;
  /** For a finding in a schema file: the registry entries the file is the schema of (none elsewhere). */
  readonly owners: readonly SchemaOwner[];
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

/** The check of a rule module on an envelope fixture: one pass that reports the module's codes. */
export interface Check<C extends Code> {
  (context: RuleContext<C>): void;
}

/** A schema file against its version at a base, as `bqschema compat OLD NEW` compares them. */
export interface SchemaChange {
  readonly base: ParsedDocument;
  readonly current: ParsedDocument;
  /** The registry entry the file is the schema of, when known: the advice names the URN to mint. */
  readonly urn?: string;
  /** The workspace's fixtures of that URN and how many of them the schema as it is now rejects (the editor counts them). */
  readonly fixtures?: { readonly rejected: number; readonly total: number };
}

/** registry.json against its version at a base (`babelq compat --base`). */
export interface RegistryChange {
  /** The git revision the base is read at, as the user named it. */
  readonly baseName: string;
  /** The URNs registered at the base. */
  readonly baseUrns: readonly string[];
  /** registry.json as it is now, and the URNs it registers. */
  readonly current: ParsedDocument;
  readonly currentUrns: ReadonlySet<string>;
}

/** The files other than envelope fixtures that codes are found in, and what a check of each receives. */
export interface FileInputs {
  /** A JSON Schema file that a registry references (or any schema file the user opens beside one). */
  readonly schemaFile: ParsedDocument;
  readonly schemaChange: SchemaChange;
  /** registry.json as loaded. */
  readonly registryFile: RegistryState;
  readonly registryChange: RegistryChange;
  /** babelq.json as read. */
  readonly configFile: ProjectConfig;
  /**
   * babelq-suppressions.json, with its entries known to match nothing (an entry whose file was not
   * checked is not judged), and those a judging within a budget did not reach.
   */
  readonly suppressionsFile: { readonly file: SuppressionsFile; readonly stale: readonly Suppression[]; readonly unchecked?: UncheckedSuppressions };
}

export type FileKind = keyof FileInputs;

/** Records a finding in the file a check reads; `report` takes the module's own codes. */
export type FileReport<C extends Code> = (code: C, range: Range, message: string) => void;

/** The checks of a rule module on the files other than envelope fixtures, by kind of file (with the file's settings). */
export type FileChecks<C extends Code> = { readonly [K in FileKind]?: (input: FileInputs[K], report: FileReport<C>, settings: Settings) => void };

/** One file under core/rules/<family>/: the codes it defines and the checks that report them. */
export interface RuleModule<C extends Code = Code> {
  readonly codes: readonly CodeDefinition<C>[];
  /** The check on envelope fixtures, for codes found there. */
  readonly check?: Check<C>;
  /** The keystroke path, for checks whose findings are local to values; without it the check runs again. */
  readonly afterEdit?: AfterEdit<C>;
  /** The checks on other files, for codes found there. */
  readonly files?: FileChecks<C>;
  /** For a code that no check reports, what does (too-many-findings: the analysis itself, at its cap). */
  readonly reportedBy?: string;
}

/** Declares a rule module; the codes its check may report are exactly the codes it defines. */
export function defineRule<C extends Code>(module: RuleModule<C>): RuleModule<C> {
  return module;
}
