/** Portuguese phrases of the phonebook screens, keyed by the English source phrase (merged into ../pt.ts). */
export const ptPhonebook: Record<string, string> = {
};
