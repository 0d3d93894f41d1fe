/**
 * `npm run test:vscode-desktop`: the packaged extension in desktop VS Code through
 * @vscode/test-electron. OPTIONAL, for contributors with internet access: test-electron downloads
 * a VS Code build from Microsoft's servers, which these machines and CI cannot reach. CI relies on
 * `npm run test:e2e` (code-server from the npm registry, driven in Chromium) instead.
 *
 * The suite (suite.cjs) runs inside VS Code's extension host on a copy of examples/.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runTests } from '@vscode/test-electron';

const ROOT = resolve(__dirname, '../../..');

async function main(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'babelq-desktop-'));
  const folder = join(base, 'examples');
  cpSync(join(ROOT, 'examples'), folder, { recursive: true });
  try {
    await runTests({
      version: process.env.VSCODE_VERSION ?? 'stable',
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: join(__dirname, 'suite.cjs'),
      launchArgs: [folder, '--disable-extensions', '--disable-workspace-trust', '--user-data-dir', join(base, 'user-data')],
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`Desktop VS Code tests failed: ${error instanceof Error ? error.message : String(error)}`);
  console.error('(They need to download VS Code; without internet access use `npm run test:e2e`.)');
  process.exit(1);
});
