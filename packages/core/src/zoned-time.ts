/** An instant as the api writes it (Date.toISOString). */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** The wall-clock fields of `instant` in the IANA `zone` (the caller's day and hour). */
export function zonedFields(instant: Date, zone: string): { y: number; m: number; d: number; h: number; min: number; s: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  return { y: parts.year!, m: parts.month!, d: parts.day!, h: parts.hour!, min: parts.minute!, s: parts.second! };
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A time as reports show and export it: `yyyy-mm-dd hh:mm:ss`, 24-hour, in `zone` (the same text on
 * screen, in CSV, and as the Excel date cell's value, in either language).
 */
export function zonedText(iso: string, zone: string): string {
  const w = zonedFields(new Date(iso), zone);
  return `${w.y}-${pad(w.m)}-${pad(w.d)} ${pad(w.h)}:${pad(w.min)}:${pad(w.s)}`;
}
