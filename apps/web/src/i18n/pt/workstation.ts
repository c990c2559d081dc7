/** Portuguese phrases of the workstation screens, keyed by the English source phrase (merged into ../pt.ts). */
export const ptWorkstation: Record<string, string> = {
};
