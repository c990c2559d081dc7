// `pnpm db:platform-admin <email>`: makes (or completes) an operator account in the platform tenant
// with the tenant_admin role, the only place that role may live (docs/security.md). The password is
// PLATFORM_ADMIN_PASSWORD, or a random one printed once.
import { randomBytes } from 'node:crypto';
import { readSharedSettings } from '@atende/config';
import { createDb } from '../client';
import { ensureTenant, PLATFORM_TENANT_NAME } from '../fixtures';

const email = (process.argv[2] ?? '').trim().toLowerCase();
const match = /^([^@\s]+)@([^@\s]+\.[^@\s]+)$/.exec(email);
if (!match) {
  process.stderr.write('usage: pnpm db:platform-admin <email>   (password from PLATFORM_ADMIN_PASSWORD, else a random one)\n');
  process.exit(2);
}
const password = process.env.PLATFORM_ADMIN_PASSWORD || randomBytes(12).toString('base64url');
const db = createDb(readSharedSettings(['DATABASE_URL'], process.env).DATABASE_URL);
try {
  const before = await db.user.count({ where: { email, tenant: { isPlatform: true } } });
  await ensureTenant(db, {
    name: PLATFORM_TENANT_NAME,
    isPlatform: true,
    users: { [match[1]!]: ['tenant_admin'] },
    emailDomain: match[2]!,
    password,
  });
  if (before > 0) process.stdout.write(`platform-admin: ${email} already exists (password unchanged)\n`);
  else
    process.stdout.write(
      `platform-admin: ${email} created with tenant_admin${process.env.PLATFORM_ADMIN_PASSWORD ? '' : `, password ${password}`}\n`,
    );
} finally {
  await db.$disconnect();
}
