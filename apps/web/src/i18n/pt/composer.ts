/** Portuguese phrases of the composer screens, keyed by the English source phrase (merged into ../pt.ts). */
export const ptComposer: Record<string, string> = {
};
