import { z } from 'zod';
import { dataOf, IsoDate, Ok, Uuid, UserIdParam } from './common';
import { RoleSchema } from './roles';
import { route } from './route';
import { fieldMessage } from './field-messages';

export const UserStateSchema = z.enum(['online', 'paused', 'offline']);
export const PauseRefSchema = z.object({ uuid: Uuid, description: z.string() });

/** User. */
export const UserSchema = z.object({
  id: z.number().int(),
  uuid: Uuid,
  username: z.string(),
  email: z.string(),
  roles: z.array(z.object({ name: RoleSchema })),
  workspace: z.object({ uuid: Uuid, name: z.string(), tenant: z.object({ uuid: Uuid, name: z.string() }) }),
  is_logged: z.boolean(),
  logged_off_by: z.string().nullable(),
  state: UserStateSchema,
  current_pause: PauseRefSchema.nullable(),
  logged_at: IsoDate.nullable(),
});
export type User = z.infer<typeof UserSchema>;

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: fieldMessage('email_invalid') }));

export const login = route({
  method: 'POST',
  path: '/api/v1/login',
  tags: ['session'],
  auth: false,
  bodyEncoding: 'form',
  errors: ['invalid_credentials', 'login_rate_limited'],
  summary: 'Signs in with email and password; sets the session cookie and returns the same token for bearer use.',
  body: z.object({
    email: z.string().trim().min(1, fieldMessage('required')).max(254),
    password: z.string().min(1, fieldMessage('required')).max(512),
  }),
  response: z.object({
    data: z.object({ uuid: Uuid, email: z.string(), username: z.string(), tenant: z.object({ uuid: Uuid }), roles: z.array(RoleSchema) }),
    token: z.string(),
  }),
});
export const loginWithCode = route({
  method: 'POST',
  path: '/api/v1/login/code',
  tags: ['session'],
  auth: false,
  bodyEncoding: 'form',
  summary: 'Signs in with a one-time code from the QR login modal (GET /api/v1/users/me/login_qr_code).',
  body: z.object({ login_code: z.string().trim().min(16).max(128) }),
  response: login.response,
  errors: ['login_rate_limited', 'login_code_invalid', 'feature_disabled'],
});
export const logout = route({
  method: 'POST',
  path: '/api/v1/logout',
  tags: ['session'],
  bodyEncoding: 'form',
  summary: "Ends the caller's session: the token is revoked and the agent's active chats go back to the queue.",
  body: z.object({}).optional(),
  response: Ok,
  errors: ['api_token_sign_out_refused'],
});

export const getMe = route({
  method: 'GET',
  path: '/api/v1/users/me',
  tags: ['users'],
  summary: 'The signed-in user.',
  response: dataOf(UserSchema),
});
export const updateMe = route({
  method: 'PATCH',
  path: '/api/v1/users/me',
  tags: ['users'],
  summary: 'Pause (current_pause_uuid), unpause (current_pause_uuid null), and back_to_queue for active chats when pausing.',
  body: z.strictObject({
    state: z.enum(['online', 'offline']).optional(),
    current_pause_uuid: Uuid.nullable().optional(),
    back_to_queue: z.boolean().optional(),
  }),
  response: dataOf(UserSchema),
  errors: ['missing_parameters', 'pause_not_found', 'pause_or_online'],
});

/** Minimum 8 characters, at least one number, letters required. */
export const NewPasswordSchema = z
  .string()
  .min(8, fieldMessage('password_too_short'))
  .max(256, fieldMessage('password_too_long'))
  .regex(/\d/, fieldMessage('password_number_required'))
  .regex(/\p{L}/u, fieldMessage('password_letter_required'));

/** A user's name has at least 3 letters, and letters and spaces only. */
export const USER_NAME_MIN_LETTERS = fieldMessage('user_name_min_letters');
export const USER_NAME_LETTERS_ONLY = fieldMessage('user_name_letters_only');
export const UserNameSchema = z
  .string()
  .trim()
  .max(120, fieldMessage('user_name_too_long'))
  .regex(/^[\p{L} ]*$/u, USER_NAME_LETTERS_ONLY)
  .refine((name) => (name.match(/\p{L}/gu) ?? []).length >= 3, USER_NAME_MIN_LETTERS);
/** At least one role. */
export const AT_LEAST_ONE_ROLE = fieldMessage('role_required');
export const UserRolesSchema = z.array(RoleSchema, { message: AT_LEAST_ONE_ROLE }).min(1, AT_LEAST_ONE_ROLE).max(7);
export const UserEmailSchema = z
  .string({ message: fieldMessage('email_required') })
  .trim()
  .toLowerCase()
  .min(1, fieldMessage('email_required'))
  .max(254)
  .pipe(z.email({ message: fieldMessage('email_invalid') }));

export const createUser = route({
  method: 'POST',
  path: '/api/v1/users',
  tags: ['users'],
  summary:
    "Creates a user in the caller's workspace (admin): name of 3+ letters and spaces only, a valid email, a password " +
    '(8+ characters, a number and letters), at least one role; an email already used in the tenant answers 409 "Email already being used".',
  body: z.strictObject({
    username: UserNameSchema,
    email: UserEmailSchema,
    password: z
      .string({ message: fieldMessage('password_required') })
      .min(1, fieldMessage('password_required'))
      .pipe(NewPasswordSchema),
    roles: UserRolesSchema,
  }),
  response: dataOf(UserSchema),
  status: 201,
  errors: ['user_email_taken', 'tenant_admin_role_locked', 'owner_role_owner_only'],
});

export const updateUser = route({
  method: 'PATCH',
  path: '/api/v1/users/:id',
  tags: ['users'],
  summary:
    'One of: your own password (password + old_password); forcing a user offline (state offline, supervisor and above); or editing a ' +
    "user's username, email and roles (admin; the rules of POST /api/v1/users). A role change ends the user's other sessions: it takes effect at their next sign-in, at once.",
  params: UserIdParam,
  body: z
    .strictObject({
      password: NewPasswordSchema.optional(),
      old_password: z.string().max(512).optional(),
      state: z.literal('offline').optional(),
      username: UserNameSchema.optional(),
      email: UserEmailSchema.optional(),
      roles: UserRolesSchema.optional(),
    })
    .superRefine((body, ctx) => {
      const profile = body.username !== undefined || body.email !== undefined || body.roles !== undefined;
      if (body.password !== undefined && !body.old_password) {
        ctx.addIssue({ code: 'custom', path: ['old_password'], message: fieldMessage('current_password_required') });
      }
      if (body.password === undefined && body.state === undefined && !profile) {
        ctx.addIssue({ code: 'custom', path: [], message: fieldMessage('missing_parameters') });
      }
      if (body.password !== undefined && body.state !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['state'], message: fieldMessage('password_or_state') });
      } else if (profile && (body.password !== undefined || body.state !== undefined)) {
        ctx.addIssue({ code: 'custom', path: [], message: fieldMessage('password_state_or_profile') });
      }
    }),
  response: dataOf(UserSchema),
  errors: [
    'user_not_found',
    'password_own_only',
    'login_rate_limited',
    'wrong_current_password',
    'owner_sign_off_owner_only',
    'owner_edit_owner_only',
    'tenant_admin_role_locked',
    'owner_role_owner_only',
    'own_admin_role_kept',
    'user_email_taken',
  ],
});
/** The sectors (queues) an agent serves; none means every sector (distribution, transfer destinations). */
export const UserSectorsSchema = z.object({ sector_uuids: z.array(Uuid) });
export const getUserSectors = route({
  method: 'GET',
  path: '/api/v1/users/:id/sectors',
  tags: ['users'],
  summary: 'The sectors a user belongs to (admin). An agent with none serves every sector.',
  params: UserIdParam,
  response: dataOf(UserSectorsSchema),
  errors: ['user_not_found'],
});
export const setUserSectors = route({
  method: 'PUT',
  path: '/api/v1/users/:id/sectors',
  tags: ['users'],
  summary:
    "Replaces the sectors a user belongs to (admin): sectors of the caller's workspace, at most 200; an empty list means every sector. " +
    'Distribution and transfers follow at once; waiting conversations are offered again.',
  params: UserIdParam,
  body: z.strictObject({ sector_uuids: z.array(Uuid).max(200, fieldMessage('sectors_too_many')) }),
  response: dataOf(UserSectorsSchema),
  errors: ['user_not_found', 'sector_not_found'],
});
/** An admin gives a user a new password; the user's sessions and API tokens end. */
export const resetUserPassword = route({
  method: 'POST',
  path: '/api/v1/users/:id/password',
  tags: ['users'],
  summary:
    "Sets another user's password (admin; an owner's only by an owner). Every session of that user ends at once (their browsers " +
    'go to sign-in, their chats follow the sign-off rule) and the API tokens they made are revoked. Your own password: PATCH with old_password.',
  params: UserIdParam,
  body: z.strictObject({
    password: z
      .string({ message: fieldMessage('password_required') })
      .min(1, fieldMessage('password_required'))
      .pipe(NewPasswordSchema),
  }),
  response: dataOf(UserSchema),
  errors: ['user_not_found', 'own_password_by_profile', 'owner_password_owner_only'],
});
export const listUsers = route({
  method: 'GET',
  path: '/api/v1/users',
  tags: ['users'],
  summary: "Users of the caller's workspace, unpaged, optionally only those holding a role (supervisor and above).",
  query: z.object({ role: RoleSchema.optional() }),
  response: z.object({ data: z.array(UserSchema) }),
});
export const deleteUser = route({
  method: 'DELETE',
  path: '/api/v1/users/:id',
  tags: ['users'],
  summary: 'Removes a user (admin): their sessions end; what they did stays in history.',
  params: UserIdParam,
  response: Ok,
  errors: ['user_not_found', 'own_user_kept', 'owner_remove_owner_only'],
});
export const getLoginQrCode = route({
  method: 'GET',
  path: '/api/v1/users/me/login_qr_code',
  tags: ['users'],
  summary: 'A fresh one-time login code for the mobile app (flag qr_code_login); valid 60 s, single use.',
  response: z.object({ data: z.object({ login_code: z.string(), tenant_domain: z.string(), expires_in: z.number().int() }) }),
});

export const emailSchema = email;

/**
 * Domain switch: a signed-in user moving to another domain of the same
 * deployment. The answer is a signed token valid 60 s and usable once, and the page path that uses it.
 */
export const getDomainSwitchJwt = route({
  method: 'GET',
  path: '/sso/domain_switch/jwt',
  tags: ['session'],
  summary:
    'A one-time sign-in token (JWT, 60 s, single use) for the same user on another domain of this deployment: open ' +
    '`https://<other domain>` + ssoload_path (the /ssoload page signs in with it, then loads ?page=). Browser sessions only.',
  query: z.object({
    page: z
      .string()
      .max(512)
      .regex(/^\/(?!\/)/, fieldMessage('page_path_invalid'))
      .optional(),
  }),
  response: z.object({ data: z.object({ jwt: z.string(), expires_in: z.number().int(), ssoload_path: z.string() }) }),
  errors: ['api_token_switches_domain'],
});
export const loginWithDomainSwitchJwt = route({
  method: 'POST',
  path: '/api/v1/login/sso',
  tags: ['session'],
  auth: false,
  bodyEncoding: 'form',
  summary: 'Signs in with a token from GET /sso/domain_switch/jwt (used by /ssoload); a token works once, within 60 s.',
  body: z.object({ jwt: z.string().trim().min(20).max(4096) }),
  response: login.response,
  errors: ['login_rate_limited', 'sign_in_link_invalid'],
});

/** What the sign-in page may offer, asked before anyone signs in. */
export const getSignInOptions = route({
  method: 'GET',
  path: '/api/v1/login/options',
  tags: ['session'],
  auth: false,
  summary:
    'What the sign-in page offers: password_recovery is true when the server has a mail transport (SMTP_URL) to send recovery codes.',
  response: z.object({ data: z.object({ password_recovery: z.boolean() }) }),
});
/** Six digits, as mailed by POST /api/v1/password/forgot. */
export const PASSWORD_RESET_CODE = /^\d{6}$/;
export const requestPasswordReset = route({
  method: 'POST',
  path: '/api/v1/password/forgot',
  tags: ['session'],
  auth: false,
  summary:
    "Mails a 6-digit code (valid 15 minutes, single use, 5 tries) to the address when it is an account's; the answer is the same " +
    'whether or not it is. Limited per address and per client IP (429). 404 when the server sends no mail.',
  body: z.object({ email }),
  response: z.object({ data: z.object({ ok: z.literal(true), expires_in: z.number().int() }) }),
  status: 202,
  errors: ['password_recovery_not_configured', 'password_recovery_rate_limited'],
});
export const resetPasswordWithCode = route({
  method: 'POST',
  path: '/api/v1/password/reset',
  tags: ['session'],
  auth: false,
  summary:
    'Sets a new password (the rules of POST /api/v1/users/:id/password) with the mailed code; every session and API token of the ' +
    'account ends, as an admin reset does. Then sign in with POST /api/v1/login.',
  body: z.object({
    email,
    code: z.string().trim().regex(PASSWORD_RESET_CODE, fieldMessage('reset_code_format')),
    password: z
      .string({ message: fieldMessage('password_required') })
      .min(1, fieldMessage('password_required'))
      .pipe(NewPasswordSchema),
  }),
  response: Ok,
  errors: ['password_recovery_not_configured', 'password_recovery_rate_limited', 'reset_code_invalid', 'reset_code_attempts_exceeded'],
});
