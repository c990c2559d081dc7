/**
 * The phone numbers a simulated Twilio account owns (simulator.ts, `numbers`), as Twilio keeps them:
 * each number has its own incoming-message webhook (the number's "A message comes in" URL; the
 * simulator's webhookUrl is the first number's), and a send From a number the account does not own
 * is refused with error 21606. Without a list every sender is taken and one webhook serves them all.
 */

const digitsOf = (phone: unknown) =>
  String(phone ?? '')
    .replace(/^whatsapp:/, '')
    .replace(/[^0-9]/g, '');

export interface OwnedNumbers {
  /** The number inbound messages reach when none is named: the first owned (undefined without a list). */
  main(): string | undefined;
  /** Whether the account may send From `from` (an E.164 number, with or without 'whatsapp:'). */
  owns(from: unknown): boolean;
  /** Twilio's answer to a send From a number the account does not own. */
  refusal(from: unknown): { code: number; message: string; more_info: string; status: number };
  /** Sets the webhook of an owned number; false when the account does not own it. */
  setWebhook(number: string, url: string): boolean;
  /** Where a message to `number` is posted: its own webhook; the first number (any, without a list) falls back to `mainWebhook`; '' for none. */
  webhookOf(number: string, mainWebhook: string): string;
}

export function ownedNumbers(numbers: readonly string[] | undefined): OwnedNumbers {
  const owned = numbers ? new Set(numbers.map(digitsOf)) : null;
  const webhooks = new Map<string, string>();
  const owns = (from: unknown) => owned === null || owned.has(digitsOf(from));
  return {
    main: () => numbers?.[0],
    owns,
    refusal: (from) => ({
      code: 21606,
      message: `The 'From' phone number provided (${String(from)}) is not a valid message-capable Twilio phone number for this destination/account.`,
      more_info: 'https://www.twilio.com/docs/errors/21606',
      status: 400,
    }),
    setWebhook: (number, url) => {
      if (!owns(number)) return false;
      webhooks.set(digitsOf(number), url);
      return true;
    },
    webhookOf: (number, mainWebhook) => {
      const digits = digitsOf(number);
      return webhooks.get(digits) ?? (!numbers?.[0] || digits === digitsOf(numbers[0]) ? mainWebhook : '');
    },
  };
}
