/** See node-flags.mjs. */
export declare const NODE_FLAGS: readonly string[];
export declare const API_NODE_FLAGS: readonly string[];
