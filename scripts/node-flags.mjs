// V8 flags the api and the worker run with, wherever they are started (pnpm start, the e2e stack,
// the benches; package.json "start" and infra/Dockerfile write the same flags out).
// A young generation of at most 8 MB per semi-space instead of V8's 16: an idle process then holds
// about 15-25 MB less (issue 13 item 2, `pnpm bench idle`), and each scavenge has less to copy.
// WebAssembly (Prisma's query compiler) compiled function by function when first called instead of
// all at start: the process holds machine code only for the compiler paths its queries use.
export const NODE_FLAGS = ['--max-semi-space-size=8', '--wasm-lazy-compilation'];
