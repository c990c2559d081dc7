/** See node-flags.mjs. */
export declare const NODE_FLAGS: readonly string[];
export declare const API_NODE_FLAGS: readonly string[];
export declare const MALLOC_TUNABLES: string;
export declare function processEnv<E extends Record<string, string | undefined>>(env: E): E & { GLIBC_TUNABLES: string };
