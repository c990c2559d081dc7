import { AppError, type ErrorCode } from '@atende/contract';

/** A name already used by a live row of the same kind: 409 with the field, so the form shows it there. */
export function alreadyUsed(code: ErrorCode, field: string, message: string): AppError {
  return new AppError(code, message, [{ path: field, message, code }]);
}

/** The deleted-at mark of a soft delete: history (conversations, events) keeps pointing at the row. */
export const softDeleted = () => ({ deletedAt: new Date() });
