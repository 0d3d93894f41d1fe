/** Diagnostics for registry.json itself: every problem of the registry as a `registry-error`. */
import { applySettings } from './analyze';
import { definitionOf } from './catalogue';
import { compareDiagnostics, type CoreDiagnostic } from './diagnostic';
import type { Settings } from './settings/settings';
import type { RegistryState } from '../registry/types';

/** The registry-error diagnostics to show in registry.json. */
export function registryFileDiagnostics(state: RegistryState, settings: Settings): CoreDiagnostic[] {
  if (state.kind === 'none') return [];
  const problems = state.kind === 'loaded' ? state.registry.problems : (state.problems ?? [{ offset: 0, end: 0, message: state.error }]);
  const diagnostics: CoreDiagnostic[] = problems.map((problem) => ({
    code: 'registry-error',
    severity: definitionOf('registry-error').severity,
    message: problem.message,
    offset: problem.offset,
    end: problem.end,
  }));
  return applySettings(diagnostics, settings).sort(compareDiagnostics);
}
