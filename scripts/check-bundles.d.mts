/** See check-bundles.mjs. */
export declare const SIMULATOR_MARKERS: readonly { name: string; pattern: RegExp }[];
export declare function simulatorCodeIn(dirs: string[]): { file: string; what: string }[];
