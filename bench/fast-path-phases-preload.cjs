'use strict';
// A `--require` preload for bench/fast-path-phases.mjs: marks when each phase of a fast path starts and ends, with
// the process's own CPU at that moment, and writes them as one JSON line to the file FAST_PATH_PHASES_OUT names when
// the process exits. It loads nothing of its own (node:module, node:fs and performance are loaded before any preload
// runs), and wraps only what the fast path calls: the first line of bin/tollgate.cjs, the require of a bundle or of a
// built-in module, a child's start and end, the compile and the evaluation of a bundle, the file reads, the write of
// the answer, and the exit.
const Module = require('node:module');
const fs = require('node:fs');

const out = process.env.FAST_PATH_PHASES_OUT;
const origin = performance.timeOrigin;
const marks = [];
/** Epoch milliseconds (same clock as the parent's `performance.timeOrigin + performance.now()`) and own CPU. */
function mark(name) {
  const cpu = process.cpuUsage();
  marks.push({ name, at: origin + performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 });
}
const timing = performance.nodeTiming;
marks.push({ name: 'process start (V8 start)', at: origin + timing.v8Start, cpuMs: null });
marks.push({ name: 'bootstrap complete', at: origin + timing.bootstrapComplete, cpuMs: null });
mark('preload');

const wrapped = new WeakSet();
function wrapMethod(object, key, before, after) {
  const original = object[key];
  if (typeof original !== 'function' || wrapped.has(original)) return;
  const replacement = function (...args) {
    const label = before(args);
    if (label) mark(`${label} begin`);
    const result = original.apply(this, args);
    if (label) (after ?? (() => mark(`${label} end`)))(result, label);
    return result;
  };
  wrapped.add(replacement);
  object[key] = replacement;
}

const short = (file) => String(file).split('/').slice(-2).join('/');

// Every first require of a module: built-ins and our bundles, timed (nested requires are marked inside their parent's).
const required = new Set();
wrapMethod(Module, '_load', ([request]) => {
  if (typeof request !== 'string' || required.has(request)) return undefined;
  required.add(request);
  if (request.startsWith('node:') || !request.includes('/')) return `require ${request}`;
  if (/fast-start|tollgate\.cjs$/.test(request)) return `require ${short(request)}`;
  return undefined;
});
const originalLoad = Module._load;
Module._load = function (request, ...rest) {
  const exports = originalLoad.call(this, request, ...rest);
  if (request === 'node:child_process' || request === 'child_process') wrapChildProcess(exports);
  if (request === 'node:vm' || request === 'vm') wrapVm(exports);
  if (request === 'node:fs/promises' || request === 'fs/promises') wrapPromises(exports);
  return exports;
};

// The first line of bin/tollgate.cjs: when Node compiles it.
const originalCompile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  if (filename.endsWith('bin/tollgate.cjs')) mark('bin/tollgate.cjs compiled, first line');
  return originalCompile.call(this, content, filename);
};

function wrapChildProcess(childProcess) {
  for (const key of ['spawn', 'spawnSync', 'execFile']) {
    if (wrapped.has(childProcess[key])) continue;
    const original = childProcess[key];
    const replacement = function (command, ...args) {
      const label = `${key} ${short(command)}`;
      mark(`${label} called`);
      const child = original.call(this, command, ...args);
      mark(`${label} returned`);
      if (child && typeof child.once === 'function') child.once('close', () => mark(`${label} child closed`));
      return child;
    };
    wrapped.add(replacement);
    childProcess[key] = replacement;
  }
}

function wrapVm(vm) {
  if (wrapped.has(vm.Script)) return;
  const Original = vm.Script;
  class Script extends Original {
    constructor(source, options) {
      const label = `compile ${short(options?.filename ?? 'script')}${options?.cachedData ? ' (code cache)' : ''}`;
      mark(`${label} begin`);
      super(source, options);
      mark(`${label} end`);
      this.__label = short(options?.filename ?? 'script');
    }
    runInThisContext(...args) {
      mark(`evaluate ${this.__label} begin`);
      const result = super.runInThisContext(...args);
      mark(`evaluate ${this.__label} end`);
      return result;
    }
  }
  wrapped.add(Script);
  vm.Script = Script;
}

wrapMethod(fs, 'readFileSync', ([file]) => (typeof file === 'string' ? `readFileSync ${short(file)}` : undefined));
function wrapPromises(promises) {
  for (const key of ['readFile', 'lstat', 'readdir', 'open']) {
    const original = promises[key];
    if (typeof original !== 'function' || wrapped.has(original)) continue;
    const replacement = function (file, ...args) {
      const label = `${key} ${short(file)}`;
      mark(`${label} begin`);
      const result = original.call(this, file, ...args);
      result.then(
        () => mark(`${label} end`),
        () => mark(`${label} failed`),
      );
      return result;
    };
    wrapped.add(replacement);
    promises[key] = replacement;
  }
}

/** Calls `made` with process[name] (a stream Node makes on first use) when something first uses it, not here. */
function onFirstUse(name, made) {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable,
    get() {
      mark(`process.${name} begin`);
      const stream = descriptor.get.call(process);
      Object.defineProperty(process, name, { configurable: true, enumerable: descriptor.enumerable, value: stream });
      mark(`process.${name} end`);
      made(stream);
      return stream;
    },
  });
}
// Making process.stdout loads the stream modules: wrapped when made, not here.
onFirstUse('stdout', (stream) => {
  const write = stream.write;
  stream.write = function (...args) {
    mark('stdout write begin');
    const result = write.apply(this, args);
    mark('stdout write end');
    return result;
  };
});
onFirstUse('stdin', (stream) => stream.once('end', () => mark('stdin end')));

process.once('exit', () => {
  mark('exit');
  if (!out) return;
  const cpu = process.cpuUsage();
  const line = {
    marks,
    ownCpu: { userMs: cpu.user / 1000, systemMs: cpu.system / 1000 },
    modules: process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).map((name) => name.slice(13)),
  };
  fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
});
