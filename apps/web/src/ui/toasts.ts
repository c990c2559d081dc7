import { notifications } from '@mantine/notifications';

/**
 * Toasts keyed by their text, so a message already on screen is not stacked again (retries of a
 * failing call, several queries failing at once); at most 3 show.
 */
export function toastError(message: string, options: { persistent?: boolean } = {}): void {
  notifications.show({ id: `error:${message}`, color: 'red', message, autoClose: options.persistent ? false : 5000 });
}

export function toastSuccess(message: string): void {
  notifications.show({ id: `ok:${message}`, color: 'green', message });
}

/** A notice (transfers, a waiting customer): informative, not an error. */
export function toastInfo(message: string): void {
  notifications.show({ id: `info:${message}`, color: 'blue', message });
}
