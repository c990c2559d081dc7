// V8 flags the api and the worker run with, wherever they are started (pnpm start, the e2e stack,
// the benches; package.json "start" and infra/Dockerfile write the same flags out, checked by
// node-flags.test.ts).
// A young generation of at most 8 MB per semi-space instead of V8's 16: an idle process then holds
// about 15-25 MB less (`pnpm bench idle`), and each scavenge has less to copy.
// WebAssembly (Prisma's query compiler) compiled function by function when first called instead of
// all at start: the process holds machine code only for the compiler paths its queries use.
export const NODE_FLAGS = ['--max-semi-space-size=8', '--wasm-lazy-compilation'];

// The api alone: its old generation may grow to 1.3 times what the last full collection kept, not
// V8's up to 4 times. After 10,000 browsers connect at once the api then holds about 320 MB instead
// of 430-450 (`pnpm bench sockets`: what the sockets keep alive is about 180 MB;
// the rest was garbage V8 had no reason to collect while the sockets sat idle). The worker keeps
// V8's default: an import allocates a lot and would collect more often for nothing.
export const API_NODE_FLAGS = [...NODE_FLAGS, '--heap-growing-percent=30'];

// glibc's allocator, for both processes: a block of 128 KB or more gets its own mapping (given back
// when freed) and free memory at the top of the heap is given back once it passes 128 KB. glibc
// otherwise raises both thresholds as a process frees big blocks (up to 32 MB and 64 MB), so the
// memory V8 used once to compile the bundle at start stayed resident: an idle worker held 96-109 MB
// with glibc's defaults and 86-92 MB with these, three runs each (`pnpm bench idle`).
// Ignored where node does not run on glibc; a GLIBC_TUNABLES given to the process, or already in
// this one's environment (the operator's), wins.
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072';

/** The environment an api or worker process starts with: `env` and, unless it or this process's environment says otherwise, MALLOC_TUNABLES. */
export const processEnv = (env) => ({ ...env, GLIBC_TUNABLES: env.GLIBC_TUNABLES ?? process.env.GLIBC_TUNABLES ?? MALLOC_TUNABLES });
