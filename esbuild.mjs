// Bundles the entry points into dist/ (or --outdir=<dir>): the VS Code extension (client),
// the language server and the babelq CLI. `vscode` is provided by the editor at run time and stays
// external. --production minifies, as `npm run package` ships them.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as esbuild from 'esbuild';
import { writeMetaValidator } from './scripts/generate-meta-validator.mjs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const production = process.argv.includes('--production');
const outdir = process.argv.find((arg) => arg.startsWith('--outdir='))?.slice('--outdir='.length) ?? 'dist';

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
  // ES modules first: jsonc-parser's UMD build loads its parts with a require() that no bundler can follow.
  mainFields: ['module', 'main'],
  logLevel: 'warning',
  legalComments: 'none',
  define: { __SERVER_VERSION__: JSON.stringify(version) },
};

/**
 * The broker clients (ioredis, amqplib: about half of what the CLI would bundle) are bundles of
 * their own, which broker/index.ts loads on the first send or peek. Inside the CLI's bundle they
 * would still be read and compiled at every start, `babelq lint` included.
 */
const BROKER_CLIENTS = { './redis': './broker-redis.js', './amqp': './broker-amqp.js' };
const brokerClientsApart = {
  name: 'broker-clients-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/(redis|amqp)$/ }, (args) =>
      args.importer.endsWith('broker/index.ts') ? { path: BROKER_CLIENTS[args.path], external: true } : undefined,
    );
  },
};

const entries = [
  // `require`, not `import()`, loads them: the same CommonJS loading as every other module here.
  { entryPoints: ['client/extension.ts'], outfile: `${outdir}/extension.js`, plugins: [brokerClientsApart], supported: { 'dynamic-import': false } },
  // dist/server.js loads dist/server-main.js with the code cache the editor keeps for it (server/start.ts).
  { entryPoints: ['server/main.ts'], outfile: `${outdir}/server-main.js` },
  { entryPoints: ['server/start.ts'], outfile: `${outdir}/server.js` },
  { entryPoints: ['cli/main.ts'], outfile: `${outdir}/cli-main.js`, plugins: [brokerClientsApart], supported: { 'dynamic-import': false } },
  { entryPoints: ['cli/start.ts'], outfile: `${outdir}/cli.js` },
  { entryPoints: { 'broker-redis': 'broker/redis.ts', 'broker-amqp': 'broker/amqp.ts' }, outdir },
];

if (watch) {
  for (const entry of entries) {
    const context = await esbuild.context({ ...shared, ...entry });
    await context.watch();
  }
} else {
  await Promise.all(entries.map((entry) => esbuild.build({ ...shared, ...entry })));
  // The server's code cache is made where it runs (server/start.ts); its bundle carries the mark that cache is tied to.
  markBuild(`${outdir}/server-main.js`);
  writeCliCodeCache();
}

/** Appends the build mark that ties a code cache to this build of `bundle` (BUILD_MARK in workspace/code-cache.ts). */
function markBuild(bundle) {
  const source = readFileSync(bundle, 'utf8');
  writeFileSync(bundle, `${source}//# babelq-build=${createHash('sha1').update(source).digest('hex')}\n`);
}

/**
 * V8's code cache of the CLI bundle (workspace/code-cache.ts), made by one lint of examples/: what a lint
 * compiles is then compiled already when `babelq` starts. A cache that does not fit the Node that
 * runs it later is ignored, so a failure here is only reported.
 */
function writeCliCodeCache() {
  rmSync(`${outdir}/cli-main.cache`, { force: true });
  markBuild(`${outdir}/cli-main.js`);
  const run = spawnSync(process.execPath, [`${outdir}/cli.js`, 'lint', 'examples', '--format', 'json'], { env: { ...process.env, BABELQ_WRITE_CODE_CACHE: '1' }, encoding: 'utf8' });
  if (run.status === null || run.status > 1 || !existsSync(`${outdir}/cli-main.cache`)) {
    console.warn(`The CLI's code cache was not made (babelq lint examples: exit ${run.status}): babelq works, it starts slower.\n${run.stderr}`);
  }
}
