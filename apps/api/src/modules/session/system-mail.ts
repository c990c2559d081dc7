import type { Transporter } from 'nodemailer';

/** A mail of the system itself (not a channel's): recovery codes. */
export interface SystemMail {
  to: string;
  subject: string;
  text: string;
}

export interface SystemMailer {
  send(mail: SystemMail): Promise<void>;
  close(): void;
}

/**
 * The system's SMTP transport from SMTP_URL / MAIL_FROM, or null when none is
 * configured (then nothing is offered that needs mail). `pnpm start` and the e2e stack point it at the
 * demo mail provider (the SMTP simulator).
 */
export function systemMailer(smtpUrl: string, from: string): SystemMailer | null {
  if (!smtpUrl) return null;
  // nodemailer is loaded with the first recovery mail, so an api that sends none never holds it.
  let transport: Promise<Transporter> | null = null;
  const transportOf = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl, { from })));
  return {
    async send(mail) {
      await (await transportOf()).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => void transport?.then((t) => t.close()),
  };
}
