const pad = (n: number) => String(n).padStart(2, '0');

/** Whole seconds as hh:mm:ss (hours may pass 99), as the dashboard and day history print them. */
export function formatHms(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}
