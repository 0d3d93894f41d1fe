/**
 * `npm start`: builds and packages the extension, prepares code-server (a real VS Code, from the
 * npm registry), installs the .vsix and opens the examples/ workspace. Prints the URL to open in a
 * browser and runs until Ctrl-C.
 *
 * The profile (settings, the workspace-trust answer, the installed extension) is kept in
 * .vscode-test/start/, so the trust question is asked once. Environment: PORT (default 8765, or a
 * free one when it is taken), BABELQ_FOLDER (another folder to open instead of examples/).
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createProfile, freePort, installExtension, prepareCodeServer, ROOT, startCodeServer, vsixSize } from './code-server';

async function main(): Promise<void> {
  const step = (what: string) => console.log(`\n▸ ${what}`);
  step('Building and packaging the extension (npm run package)');
  execFileSync('npm', ['run', '--silent', 'package'], { cwd: ROOT, stdio: 'inherit' });
  step('Preparing code-server (VS Code 1.96.4 from the npm registry; cached in .vscode-test/)');
  const entry = prepareCodeServer();
  step(`Installing babelqueue-envelope-tools.vsix (${Math.round(vsixSize() / 1024)} KB)`);
  const profile = createProfile(join(ROOT, '.vscode-test', 'start'));
  installExtension(entry, profile);
  const folder = resolve(ROOT, process.env.BABELQ_FOLDER ?? 'examples');
  const port = await freePort(Number(process.env.PORT ?? 8765));
  step(`Starting code-server on ${folder}`);
  const server = await startCodeServer({ entry, profile, folder, port });
  console.log(`\nBabelQueue Envelope Tools in VS Code: ${server.url}\n`);
  console.log('Open it in a browser (no password; it listens on 127.0.0.1 only). Try bad/contract.babel.json,');
  console.log('then "BabelQueue: Preview Published Bytes" from the command palette (F1). Ctrl-C stops it.');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping code-server…');
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Keep running until a signal arrives.
  setInterval(() => undefined, 1 << 30);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
