/** Portuguese phrases of the views screens, keyed by the English source phrase (merged into ../pt.ts). */
export const ptViews: Record<string, string> = {
};
