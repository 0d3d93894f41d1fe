/** What every handler shares: the connection, the open documents, the parse cache and settings. */
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Fresh } from '../core/model/fresh';
import type { DiagnosticsFirst } from './diagnostics-first';
import type { ParseCache } from './documents';
import type { MalformedRequests } from './request-shape';
import type { RegistryService } from './registry';
import type { SettingsStore } from './settings';
import type { ProjectConfigs } from '../workspace/project-config';
import type { RegistryStatusReporter } from './registry-status';
import type { StoredByteOrderMarks } from './stored-byte-order-marks';
import type { JudgedFixtures } from './judged-fixtures';

export interface ServerContext {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly cache: ParseCache;
  readonly settings: SettingsStore;
  readonly registries: RegistryService;
  /** The babelq.json and suppressions files, read through open editors first. */
  readonly configs: ProjectConfigs;
  readonly fresh: Fresh;
  /** Outline and folding of a large document wait for its diagnostics. */
  readonly diagnosticsFirst: DiagnosticsFirst;
  /** Requests whose params do not have the protocol's shape, logged once per kind. */
  readonly malformed: MalformedRequests;
  /** The registry status of each open envelope, sent to the client when it changes. */
  readonly registryStatus: RegistryStatusReporter;
  /** Which open documents' files start with a byte-order mark the editor hides. */
  readonly byteOrderMarks: StoredByteOrderMarks;
  /** What the last judging of each open suppressions file found in each fixture, reused while nothing it depends on changed. */
  readonly judgedFixtures: JudgedFixtures;
}
