/**
 * dist/server.js, the language server's entry: runs the server bundle (dist/server-main.js, built
 * from ./main.ts), with V8's code cache kept in the folder BABELQ_CODE_CACHE_DIR names
 * (workspace/code-cache.ts): the VS Code extension names one in its own storage, so every start
 * after the first compiles little of the bundle. Without the variable, or with a relative path in
 * it (another editor's `babelq lsp`, the tests), the bundle is loaded as any module is.
 */
import { isAbsolute, join } from 'node:path';
import { CODE_CACHE_DIR_VARIABLE } from '../core/language/protocol';
import { runWithCacheDirectory } from '../workspace/code-cache';

const bundle = join(__dirname, 'server-main.js');
const cacheDirectory = process.env[CODE_CACHE_DIR_VARIABLE];
// Only an absolute folder: a relative one would resolve against the working folder, which for
// another editor is usually the project, and the cache must never be written into a workspace.
if (cacheDirectory && isAbsolute(cacheDirectory)) runWithCacheDirectory(bundle, cacheDirectory);
// A path known only at run time: esbuild leaves this require to Node.
else require(bundle);
