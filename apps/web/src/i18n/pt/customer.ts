/** Portuguese phrases of the customer screens, keyed by the English source phrase (merged into ../pt.ts). */
export const ptCustomer: Record<string, string> = {
};
