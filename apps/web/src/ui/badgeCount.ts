/** A count as a badge shows it: two digits at most, then "99+". */
export const badgeCount = (n: number): string => (n > 99 ? '99+' : String(Math.max(0, Math.trunc(n))));

/** A single digit fits Mantine's round badge; longer counts need the pill shape or they are cut ("5.."). */
export const fitsCircle = (n: number): boolean => n < 10;
