// Runs a WASI preview1 module (e.g. target/wasm32-wasip1/release/rapier-pinned.wasm) under
// Node's `node:wasi`, as a command: `node --no-warnings scripts/lib/wasi-run.mjs FILE.wasm ARGS...`.
//
// - ARGS are the guest's arguments (argv[0] is the module's file name, as a native argv[0]).
// - The guest sees the host environment (so RUST_BACKTRACE etc. behave as natively).
// - Preopened directories, each at the SAME absolute path inside the guest as on the host:
//   the repository root (the tool finds conformance/ and golden/ through the compile-time absolute
//   path env!("CARGO_MANIFEST_DIR")/../..), the current directory, and the temp dir ($TMPDIR or
//   /tmp, mapped to itself). The current directory is also preopened as `.`, which wasi-libc uses
//   for relative paths, so `--out t.snap` writes ./t.snap as it would natively. Extra directories:
//   WASI_RUN_DIRS=dir1:dir2 (colon-separated host paths, mapped to themselves).
// - stdin/stdout/stderr are the process's own fds 0/1/2, written to directly by the guest (a pipe
//   through a fresh blocking open file description of it: see "Blocking stdout/stderr" below).
// - Exits with the guest's exit code (proc_exit, or 0 when _start returns). A trap (e.g. a Rust
//   panic, which aborts on wasm32-wasip1, or an out-of-bounds access) prints the trap to stderr
//   and exits 134, like a native abort; a module that cannot be read or instantiated: exit 127.
//
// `node:wasi` is experimental in Node 20 and prints an ExperimentalWarning: run with
// `node --no-warnings` to keep stderr clean.
//
// Blocking stdout/stderr: the guest's fd_write is a plain write(2) on the host fd, so a pipe in
// O_NONBLOCK mode makes a write to a full pipe fail with EAGAIN, which a Rust guest sees as a write
// error (`rapier-pinned digests` then stops early, exit 0). Node puts a pipe in O_NONBLOCK as soon
// as `process.stdout` / `process.stderr` is touched, and importing 'node:process' in ESM touches
// them all (its named exports are read from the object's getters): so this file never imports
// 'node:process', never writes to process.stdout, writes to process.stderr only after the guest
// has run, and hands the guest a fresh, blocking open file description of a pipe
// (/proc/self/fd/N), in case the inherited one was made non-blocking elsewhere.
import { readFile } from 'node:fs/promises';
import { closeSync, constants, fstatSync, openSync, realpathSync, statSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { tmpdir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const { argv, env } = process; // the global: see above, never `import ... from 'node:process'`
const [, , wasmPath, ...guestArgs] = argv;
if (!wasmPath) {
  process.stderr.write('usage: node --no-warnings scripts/lib/wasi-run.mjs FILE.wasm [ARGS...]\n');
  process.exit(2);
}

// A blocking descriptor for host fd N: a new open file description of a pipe, else N itself
// (a regular file must keep the shared offset; a terminal or socket is left as it is). The
// non-blocking open first fails (ENXIO) when the pipe has no reader left, where a blocking open
// would wait forever; the guest then writes to fd N and gets EPIPE, as natively.
const blocking = (n) => {
  try {
    if (!fstatSync(n).isFIFO()) return n;
    closeSync(openSync(`/proc/self/fd/${n}`, constants.O_WRONLY | constants.O_NONBLOCK));
    return openSync(`/proc/self/fd/${n}`, constants.O_WRONLY);
  } catch {
    return n; // no /proc, no reader, or not reopenable: keep the inherited fd
  }
};

const real = (p) => realpathSync(resolve(p));
const isDir = (p) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

// scripts/lib/wasi-run.mjs -> repository root.
const repoRoot = real(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const here = real(process.cwd());
const preopens = {};
const mapSelf = (p) => {
  // Same absolute path inside the guest; the logical path too, if a symlink differs from it.
  if (!isDir(p)) return;
  preopens[resolve(p)] = resolve(p);
  preopens[real(p)] = real(p);
};
mapSelf(repoRoot);
mapSelf(here);
mapSelf(process.cwd());
mapSelf(env.TMPDIR || tmpdir());
for (const d of (env.WASI_RUN_DIRS || '').split(':').filter(Boolean)) mapSelf(d);
preopens['.'] = here;

const wasi = new WASI({
  version: 'preview1',
  args: [basename(wasmPath), ...guestArgs],
  env,
  preopens,
  returnOnExit: true,
  stdin: 0,
  stdout: blocking(1),
  stderr: blocking(2),
});

let instance;
try {
  const module = await WebAssembly.compile(await readFile(wasmPath));
  instance = await WebAssembly.instantiate(module, wasi.getImportObject());
} catch (e) {
  process.stderr.write(`wasi-run: cannot load ${wasmPath}: ${(e && e.message) || e}\n`);
  process.exit(127);
}
let code;
try {
  code = wasi.start(instance);
} catch (e) {
  // A Rust panic has already printed its message; keep the trap's first frames, not all of them.
  const stack = String((e && e.stack) || e).split('\n').slice(0, 8).join('\n');
  process.stderr.write(`wasi-run: ${basename(wasmPath)} trapped: ${stack}\n`);
  code = 134;
}
process.exit(code ?? 0);
