/**
 * A real VS Code for the end-to-end tests and `npm start`: code-server (VS Code's own server and
 * workbench, installed from the npm registry by prepare-code-server.sh), with our packaged
 * extension installed into an extensions folder of its own (README, "A real VS Code").
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
export const VSIX = join(ROOT, 'babelqueue-envelope-tools.vsix');
export const EXTENSION_ID = 'babelqueue-tools.babelqueue-envelope-tools';

/** The flags real-vscode.md gives for Debian's Chromium on these machines (closed network, root). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Runs the idempotent prepare script (fast once prepared) and returns code-server's entry.js. */
export function prepareCodeServer(): string {
  const out = execFileSync('bash', [join(ROOT, 'scripts/e2e/prepare-code-server.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const entry = out.trim().split('\n').pop() ?? '';
  if (!entry.endsWith('entry.js')) throw new Error(`prepare-code-server.sh printed no entry.js: ${out}`);
  return entry;
}

/** The packaged extension's size in bytes (it must exist: `npm run package` builds it). */
export function vsixSize(): number {
  return statSync(VSIX).size;
}

/** A free loopback port: the preferred one when it is free, else one the system picks. */
export async function freePort(preferred = 0): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | undefined>((done) => {
      const server = createServer();
      server.once('error', () => done(undefined));
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => done(typeof address === 'object' && address ? address.port : undefined));
      });
    });
  return (preferred ? await tryPort(preferred) : undefined) ?? (await tryPort(0)) ?? Promise.reject(new Error('no free port'));
}

/** The folders one code-server profile keeps: settings, trust decisions, extensions, its config. */
export interface Profile {
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** XDG_CONFIG_HOME/XDG_DATA_HOME for code-server's own config.yaml, away from the user's. */
  readonly configDir: string;
}

/**
 * Creates the folders of a profile under `base`, with user settings that keep the workbench quiet
 * (written once: a kept profile keeps the user's own changes).
 */
export function createProfile(base: string, settings: Record<string, unknown> = {}): Profile {
  const profile = { userDataDir: join(base, 'user-data'), extensionsDir: join(base, 'extensions'), configDir: join(base, 'config') };
  for (const dir of Object.values(profile)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(profile.userDataDir, 'User'), { recursive: true });
  const defaults = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'workbench.enableExperiments': false,
    'git.enabled': false,
  };
  const file = join(profile.userDataDir, 'User', 'settings.json');
  if (!existsSync(file)) writeFileSync(file, JSON.stringify({ ...defaults, ...settings }, null, 2));
  return profile;
}

function environment(profile: Profile): NodeJS.ProcessEnv {
  return { ...process.env, XDG_CONFIG_HOME: profile.configDir, XDG_DATA_HOME: profile.configDir };
}

/** Installs the .vsix into the profile's extensions folder with code-server's own CLI. */
export function installExtension(entry: string, profile: Profile, vsix = VSIX): void {
  execFileSync(
    process.execPath,
    [entry, '--install-extension', vsix, '--force', '--extensions-dir', profile.extensionsDir, '--user-data-dir', profile.userDataDir],
    { env: environment(profile), stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

export interface RunningCodeServer {
  readonly port: number;
  /** code-server's process id: the extension host and the language servers run below it. */
  readonly pid: number | undefined;
  /** The workbench URL that opens `folder`. */
  readonly url: string;
  /** What code-server printed so far (for failure reports). */
  log(): string;
  /** Ends code-server and everything it started (extension host, our language server). */
  stop(): Promise<void>;
}

/**
 * Starts code-server without authentication on a loopback port, opening `folder` (or the
 * `.code-workspace` file it names). It runs in its
 * own process group, so stop() ends the extension host and the language server with it.
 */
export async function startCodeServer(options: { entry: string; profile: Profile; folder: string; port?: number; inheritOutput?: boolean }): Promise<RunningCodeServer> {
  const port = options.port ?? (await freePort());
  const args = [
    options.entry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir', options.profile.userDataDir,
    '--extensions-dir', options.profile.extensionsDir,
    options.folder,
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: environment(options.profile),
    detached: true,
    stdio: ['ignore', options.inheritOutput ? 'inherit' : 'pipe', options.inheritOutput ? 'inherit' : 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((done) => child.once('exit', () => ((exited = true), done())));

  const stop = async () => {
    if (exited || child.pid === undefined) return;
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    signalGroup('SIGTERM');
    const timer = new Promise<void>((done) => setTimeout(done, 5000).unref());
    await Promise.race([exit, timer]);
    signalGroup('SIGKILL');
    await Promise.race([exit, new Promise<void>((done) => setTimeout(done, 2000).unref())]);
  };

  // A .code-workspace file opens as a (multi-root) workspace, anything else as a folder.
  const opens = options.folder.endsWith('.code-workspace') ? 'workspace' : 'folder';
  const url = `http://127.0.0.1:${port}/?${opens}=${encodeURIComponent(options.folder).replace(/%2F/g, '/')}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited before it served:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on port ${port} within 60 s:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  return { port, pid: child.pid, url, log: () => output, stop };
}
