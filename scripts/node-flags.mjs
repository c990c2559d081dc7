// V8 flags the api and the worker run with, wherever they are started (pnpm start, the e2e stack,
// the benches; package.json "start" and infra/Dockerfile write the same flags out, checked by
// node-flags.test.ts).
// A young generation of at most 8 MB per semi-space instead of V8's 16: an idle process then holds
// about 15-25 MB less (issue 13 item 2, `pnpm bench idle`), and each scavenge has less to copy.
// WebAssembly (Prisma's query compiler) compiled function by function when first called instead of
// all at start: the process holds machine code only for the compiler paths its queries use.
export const NODE_FLAGS = ['--max-semi-space-size=8', '--wasm-lazy-compilation'];

// The api alone: its old generation may grow to 1.3 times what the last full collection kept, not
// V8's up to 4 times. After 10,000 browsers connect at once the api then holds about 320 MB instead
// of 430-450 (issue 13 item 2, `pnpm bench sockets`: what the sockets keep alive is about 180 MB;
// the rest was garbage V8 had no reason to collect while the sockets sat idle). The worker keeps
// V8's default: an import allocates a lot and would collect more often for nothing.
export const API_NODE_FLAGS = [...NODE_FLAGS, '--heap-growing-percent=30'];
