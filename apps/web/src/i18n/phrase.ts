/**
 * Marks an English phrase translated later by `t(variable)`: scripts/check-i18n.ts finds these calls
 * as it finds t() calls, so indirect phrases (notices, system messages, toasts chosen in advance) are
 * checked too.
 */
export const phrase = <T extends string>(key: T): T => key;
