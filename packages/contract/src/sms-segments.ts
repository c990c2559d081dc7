/**
 * How many SMS segments a text is sent as (3GPP TS 23.038, as Twilio counts them): a text made only
 * of the GSM-7 alphabet goes as GSM-7, 160 characters in one segment or 153 per segment once split
 * (the rest carries the concatenation header), characters of the extension table (€ [ ] { } ...)
 * taking two; any other character sends the whole text as UCS-2, 70 code units in one segment or 67
 * per segment. A segment never ends inside an escape sequence or a surrogate pair.
 */

const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM7_EXTENSION = new Set('^{}\\[~]|€\f');

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** 0 for an empty text. */
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  /** What still fits in the last segment before another one starts. */
  left: number;
}

const LIMITS: Record<SmsEncoding, { single: number; part: number }> = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
};

export const smsEncodingOf = (text: string): SmsEncoding =>
  [...text].every((c) => GSM7_BASIC.has(c) || GSM7_EXTENSION.has(c)) ? 'GSM-7' : 'UCS-2';

export function smsSegments(text: string): SmsSegments {
  const encoding = smsEncodingOf(text);
  const { single, part } = LIMITS[encoding];
  // Each character's width: GSM-7 extension characters are an escape plus the character; in UCS-2 an astral character is a surrogate pair.
  const widths = [...text].map((c) => (encoding === 'GSM-7' ? (GSM7_EXTENSION.has(c) ? 2 : 1) : c.length));
  const units = widths.reduce((a, b) => a + b, 0);
  if (units === 0) return { encoding, segments: 0, units: 0, left: single };
  if (units <= single) return { encoding, segments: 1, units, left: single - units };
  let segments = 1;
  let used = 0;
  for (const width of widths) {
    if (used + width > part) {
      segments++;
      used = 0;
    }
    used += width;
  }
  return { encoding, segments, units, left: part - used };
}
