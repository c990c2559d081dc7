import { z } from 'zod';
import { fieldMessage, NewPasswordSchema } from '@atende/contract';

/** The profile form's password change, with the spec's messages. */
export const ProfilePasswordFormSchema = z
  .object({
    old_password: z.string(),
    password: z.string(),
    confirm_password: z.string(),
  })
  .superRefine((v, ctx) => {
    if (!v.password) return;
    const strength = NewPasswordSchema.safeParse(v.password);
    if (!strength.success)
      ctx.addIssue({ code: 'custom', path: ['password'], message: strength.error.issues[0]?.message ?? fieldMessage('password_invalid') });
    if (!v.old_password) ctx.addIssue({ code: 'custom', path: ['old_password'], message: fieldMessage('current_password_required') });
    if (v.confirm_password !== v.password)
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: fieldMessage('passwords_mismatch') });
  });
export type ProfilePasswordForm = z.infer<typeof ProfilePasswordFormSchema>;
