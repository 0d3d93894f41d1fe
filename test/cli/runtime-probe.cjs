// Preloaded (node --require) into `babelq` and the lint threads it starts, by
// test/cli/lint-runtime.test.ts. It writes one JSON line per event to BABELQ_TEST_RUNTIME_LOG:
// for each bundle compiled with a code cache, whether V8 took it ({thread, cache}); at the main
// thread's exit, the young generation's size ({youngGenerationMb}), and at a lint thread's, the
// thread's own ({thread, lintThreadYoungGenerationMb}); each time V8's flags are set
// (cli/young-generation.ts), the flags and the setting thread's young generation then
// ({thread, flags, youngGenerationMbThen}); at the main thread's exit, the Node built-in modules
// loaded by then ({builtins}, from process.moduleLoadList). A thread is 'main' or 'lint thread <id>'. With BABELQ_TEST_NO_ICU set,
// every call that reaches ICU (Node's locale data: number and date formats, collation) throws.
const { appendFileSync } = require('node:fs');
const vm = require('node:vm');
const v8 = require('node:v8');
const { isMainThread, threadId } = require('node:worker_threads');

const log = process.env.BABELQ_TEST_RUNTIME_LOG;
const write = (event) => appendFileSync(log, `${JSON.stringify(event)}\n`);
const thread = isMainThread ? 'main' : `lint thread ${threadId}`;

// The bundles are compiled as `new vm.Script(source, { cachedData })` (workspace/code-cache.ts).
const CompiledScript = vm.Script;
vm.Script = class extends CompiledScript {
  constructor(source, options) {
    super(source, options);
    if (options && options.cachedData) write({ thread, file: options.filename, cache: this.cachedDataRejected ? 'rejected' : 'accepted' });
  }
};

const youngGenerationMb = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 2 ** 20;

// The bundle calls it as a property of node:v8 at each call (esbuild's CommonJS output), so this one is called.
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  write({ thread, flags, youngGenerationMbThen: youngGenerationMb() });
  return setFlags(flags);
};

process.on('exit', () => {
  write(isMainThread ? { youngGenerationMb: youngGenerationMb() } : { thread, lintThreadYoungGenerationMb: youngGenerationMb() });
  if (isMainThread) write({ builtins: Array.isArray(process.moduleLoadList) ? process.moduleLoadList.flatMap((entry) => (entry.startsWith('NativeModule ') ? [entry.slice('NativeModule '.length)] : [])) : 'unknown' });
});

if (process.env.BABELQ_TEST_NO_ICU) {
  const refuse = (name) =>
    function () {
      throw new Error(`${name} reached ICU`);
    };
  Number.prototype.toLocaleString = refuse('Number.prototype.toLocaleString');
  BigInt.prototype.toLocaleString = refuse('BigInt.prototype.toLocaleString');
  Array.prototype.toLocaleString = refuse('Array.prototype.toLocaleString');
  Date.prototype.toLocaleString = refuse('Date.prototype.toLocaleString');
  Date.prototype.toLocaleDateString = refuse('Date.prototype.toLocaleDateString');
  Date.prototype.toLocaleTimeString = refuse('Date.prototype.toLocaleTimeString');
  String.prototype.localeCompare = refuse('String.prototype.localeCompare');
  String.prototype.normalize = refuse('String.prototype.normalize');
  String.prototype.toLocaleUpperCase = refuse('String.prototype.toLocaleUpperCase');
  String.prototype.toLocaleLowerCase = refuse('String.prototype.toLocaleLowerCase');
  for (const name of Object.getOwnPropertyNames(Intl)) {
    if (typeof Intl[name] === 'function') Intl[name] = refuse(`Intl.${name}`);
  }
}
