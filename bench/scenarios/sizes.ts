/** The production build the server and CLI scenarios start, and the sizes: the server bundle as built, minified as `npm run package` builds it, and the .vsix. */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { info, log, OUT, ROOT, SHIPPED_CLI, SHIPPED_SERVER, SHIPPED_SERVER_BUNDLE, STAGE } from '../context';
import { SERVER_CODE_CACHE } from '../lsp';
import { bytes } from '../measure';

export function buildProduction(): void {
  rmSync(STAGE, { recursive: true, force: true });
  rmSync(SERVER_CODE_CACHE, { recursive: true, force: true });
  const result = spawnSync(process.execPath, ['esbuild.mjs', '--production', `--outdir=${join(STAGE, 'dist')}`], { cwd: ROOT, encoding: 'utf8' });
  // Both starts and their bundles, and the CLI's code cache, which ships too: without it `babelq` would start slower than users' does.
  const built = [SHIPPED_SERVER, SHIPPED_SERVER_BUNDLE, SHIPPED_CLI, join(STAGE, 'dist/cli-main.cache')];
  if (result.status !== 0 || !built.every((file) => existsSync(file))) throw new Error(`the production build failed:\n${result.stderr || result.stdout}`);
}

export async function sizeScenario(): Promise<void> {
  log('\nSizes');
  info('dist/server-main.js, the server bundle (npm run build: unminified, source map linked)', bytes(statSync(join(ROOT, 'dist/server-main.js')).size));
  const stage = STAGE;
  info('server bundle, production (minified, as npm run package builds it)', bytes(statSync(SHIPPED_SERVER_BUNDLE).size));
  for (const entry of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'language-configuration.json', '.vscodeignore']) copyFileSync(join(ROOT, entry), join(stage, entry));
  for (const dir of ['syntaxes', 'snippets', 'schemas', 'images']) cpSync(join(ROOT, dir), join(stage, dir), { recursive: true });
  const vsix = join(OUT, 'babelqueue-envelope-tools.vsix');
  rmSync(vsix, { force: true });
  const vsce = join(ROOT, 'node_modules/@vscode/vsce/vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--allow-missing-repository', '--out', vsix], { cwd: stage, encoding: 'utf8', timeout: 120_000 });
  if (result.status === 0 && existsSync(vsix)) info('.vsix (vsce package of the production bundles)', bytes(statSync(vsix).size));
  else info('.vsix', `not built: ${(result.stderr || result.stdout || String(result.error)).trim().split('\n')[0]}`);
}
