import { ApiError } from '@atende/sdk';
import type { TFunction } from 'i18next';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { apiHandling } from '../../api/client';
import { errorText, fieldText, formMessageText } from '../../api/errors';
import type { FieldError } from '@atende/contract';
import { toastError } from '../../ui/toasts';

/**
 * The client of the settings forms: a 400 (validation), 404 (a referenced row gone) or 409 (name
 * already used) about a field is shown on that field; other failures reach the shared handler.
 */
export const settingsApi = apiHandling(400, 404, 409);

/** The `fields` of an error answer (path, message, and the code and params that word it). */
export function fieldsOf(body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || !('fields' in body) || !Array.isArray(body.fields)) return [];
  return body.fields.filter((f): f is FieldError => typeof f?.path === 'string' && typeof f?.message === 'string');
}

/**
 * For forms on plain state: the server's field errors of a failed call, `on(path)` giving the translated
 * message of a field (matched by its path or its last segment), and whether any came back.
 */
export function serverFieldErrors(error: unknown, t: TFunction): { any: boolean; on(path: string): string | undefined } {
  const fields = error instanceof ApiError ? fieldsOf(error.body) : [];
  return {
    any: fields.length > 0,
    on: (path) => {
      const found = fields.find((f) => f.path === path || f.path.endsWith(`.${path}`));
      return found ? fieldText(found, t) : undefined;
    },
  };
}

/** Puts the server's field errors on the form's fields; a failure with none of them becomes a toast. */
export function showServerErrors<T extends FieldValues>(
  error: unknown,
  form: UseFormReturn<T>,
  fields: readonly Path<T>[],
  t: TFunction,
): void {
  if (!(error instanceof ApiError)) throw error;
  if (![400, 404, 409].includes(error.status)) return; // already shown by the shared handler
  const known = fieldsOf(error.body).filter((f) => (fields as readonly string[]).includes(f.path));
  if (known.length === 0) toastError(errorText(error, t));
  for (const f of known) form.setError(f.path as Path<T>, { message: fieldText(f, t) });
}

/** The translated message of a field's error, for a Mantine input's `error`. */
export function fieldError<T extends FieldValues>(form: UseFormReturn<T>, name: Path<T>, t: TFunction): string | undefined {
  const message = form.getFieldState(name, form.formState).error?.message;
  return message ? formMessageText(message, t) : undefined;
}
