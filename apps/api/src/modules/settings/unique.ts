import { AppError } from '@atende/contract';

/** A name already used by a live row of the same kind: 409 with the field, so the form shows it there. */
export function alreadyUsed(field: string, message: string): AppError {
  return new AppError('conflict', message, [{ path: field, message }]);
}

/** The deleted-at mark of a soft delete: history (conversations, events) keeps pointing at the row. */
export const softDeleted = () => ({ deletedAt: new Date() });
