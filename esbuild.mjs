// Bundles the three entry points into dist/: the VS Code extension (client), the language server
// and the babelq CLI. `vscode` is provided by the editor at run time and stays external.
import { readFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { writeMetaValidator } from './scripts/generate-meta-validator.mjs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const production = process.argv.includes('--production');

// Generated source that core imports (git-ignored): made before anything is bundled.
writeMetaValidator();
const watch = process.argv.includes('--watch');

const shared = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  external: ['vscode'],
  logLevel: 'warning',
  legalComments: 'none',
  define: { __SERVER_VERSION__: JSON.stringify(version) },
};

const entries = [
  { entryPoints: ['client/extension.ts'], outfile: 'dist/extension.js' },
  { entryPoints: ['server/main.ts'], outfile: 'dist/server.js' },
  { entryPoints: ['cli/main.ts'], outfile: 'dist/cli.js' },
];

if (watch) {
  for (const entry of entries) {
    const context = await esbuild.context({ ...shared, ...entry });
    await context.watch();
  }
} else {
  await Promise.all(entries.map((entry) => esbuild.build({ ...shared, ...entry })));
}
