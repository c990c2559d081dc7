/** A plain shape check, not core's zod-based isEmail: the sign-in page loads no zod. The api checks the address. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
