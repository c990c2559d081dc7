import { randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptCredentials, providerIdentity } from '@atende/channels';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillChannelIdentities } from './channel-identities';
import { createDb, type Db } from './client';
import { MIGRATIONS_DIR, runMigrations } from './migrations';

/**
 * Upgrading a database that already has channels: migration 20261202010000 gives
 * live channels the identity their settings name (the same as providerIdentity computes), keeps it
 * with the oldest of two clashing channels, and `pnpm db:migrate` then fills the identities held in
 * encrypted credentials (Telegram, 360dialog) the same way.
 */
const IDENTITY_MIGRATION = '20261202010000_channel_provider_identity';
const admin = 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `atende_identity_${randomBytes(5).toString('hex')}`;
const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
const key = Buffer.alloc(32, 9);
let before: string;
let client: pg.Client;
let db: Db;

beforeAll(async () => {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  // The migrations before this one: the database as an older release left it.
  before = await mkdtemp(join(tmpdir(), 'atende-migrations-'));
  for (const entry of await readdir(MIGRATIONS_DIR, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name < IDENTITY_MIGRATION)
      await cp(join(MIGRATIONS_DIR, entry.name), join(before, entry.name), { recursive: true });
  }
  await runMigrations(url, before);
  client = new pg.Client({ connectionString: url });
  await client.connect();
});
afterAll(async () => {
  await db?.$disconnect();
  await client?.end();
  await rm(before, { recursive: true, force: true });
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});

interface OldChannel {
  id: string;
  tenantId: string;
  type: string;
  config: Record<string, string>;
  credentials?: Record<string, string>;
  deleted?: boolean;
}

async function tenant(): Promise<{ tenantId: string; workspaceId: string }> {
  const tenantId = randomUUID();
  const workspaceId = randomUUID();
  await client.query('INSERT INTO "Tenant" (id, name, "updatedAt") VALUES ($1, $2, now())', [tenantId, `T ${tenantId.slice(0, 6)}`]);
  await client.query('INSERT INTO "Workspace" (id, "tenantId", name, "updatedAt") VALUES ($1, $2, $3, now())', [
    workspaceId,
    tenantId,
    'W',
  ]);
  return { tenantId, workspaceId };
}

describe('channel identities on upgrade', () => {
  it('are backfilled from the settings as providerIdentity computes them, the oldest of two clashing channels keeping its identity', async () => {
    const acme = await tenant();
    const globex = await tenant();
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    const rows: (OldChannel & { workspaceId: string; createdAt: Date })[] = [];
    const add = (owner: typeof acme, minute: number, channel: Omit<OldChannel, 'id' | 'tenantId'>) => {
      const row = { id: randomUUID(), tenantId: owner.tenantId, workspaceId: owner.workspaceId, createdAt: at(minute), ...channel };
      rows.push(row);
      return row;
    };
    const owner = add(acme, 1, { type: 'messenger', config: { page_id: '900100' } });
    const squatter = add(globex, 2, { type: 'messenger', config: { page_id: '900100' } });
    const insta = add(acme, 3, { type: 'instagram', config: { page_id: '900100', instagram_account_id: '17841400000900100' } });
    const instaPage = add(globex, 4, { type: 'instagram', config: { page_id: '900200' } });
    const cloud = add(acme, 5, { type: 'whatsapp_cloud', config: { phone_number_id: ' 900300 ' } });
    const hash = add(globex, 6, { type: 'a1b2c3d4e5f6a1b2c3d4e5f6', config: { phone_number_id: '900300' } });
    const sms = add(acme, 7, { type: 'sms', config: { account_sid: 'AC99', from_number: '+1 (500) 555-0006' } });
    const service = add(acme, 8, { type: 'whatsapp_twilio', config: { account_sid: 'AC99', messaging_service_sid: 'MG77' } });
    const email = add(acme, 9, { type: 'email', config: { from_address: 'a@acme.test' } });
    const custom = add(acme, 10, { type: 'custom', config: { webhook_url: 'http://h' } });
    const deleted = add(globex, 0, { type: 'messenger', config: { page_id: '900100' }, deleted: true });
    const bot = add(acme, 11, { type: 'telegram', config: {}, credentials: { bot_token: '700900:AAfirst' } });
    const botAgain = add(globex, 12, { type: 'telegram', config: {}, credentials: { bot_token: '700900:AAsecond' } });
    const dialog = add(globex, 13, { type: 'whatsapp_360dialog', config: {}, credentials: { api_key: 'D360-key', webhook_secret: 's' } });
    for (const row of rows) {
      await client.query(
        'INSERT INTO "Channel" (id, "tenantId", "workspaceId", name, type, config, "credentialsEncrypted", "deletedAt", "createdAt", "updatedAt") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())',
        [
          row.id,
          row.tenantId,
          row.workspaceId,
          row.type.slice(0, 20),
          row.type,
          row.config,
          row.credentials ? encryptCredentials(row.credentials, key) : null,
          row.deleted ? at(0) : null,
          row.createdAt,
        ],
      );
    }

    const upgrade = await runMigrations(url);
    expect(upgrade.applied).toContain(IDENTITY_MIGRATION);
    db = createDb(url);
    const identityOf = async (row: { id: string }) =>
      (await db.channel.findUniqueOrThrow({ where: { id: row.id }, select: { providerIdentity: true } })).providerIdentity;
    // The SQL backfill and providerIdentity agree on every channel its settings identify.
    for (const row of [owner, insta, instaPage, cloud, sms, service, email]) {
      expect(await identityOf(row)).toBe(providerIdentity({ id: row.id, type: row.type, config: row.config, credentials: null })!.identity);
    }
    expect(await identityOf(owner)).toBe('messenger:900100');
    expect(await identityOf(insta)).toBe('instagram:17841400000900100');
    expect(await identityOf(sms)).toBe('sms:ac99:15005550006');
    // Clashes: the oldest live channel keeps the identity; the newer stays without (a deleted one never counted).
    expect(await identityOf(squatter)).toBeNull();
    expect(await identityOf(hash)).toBeNull();
    expect(await identityOf(deleted)).toBeNull();
    expect(await identityOf(custom)).toBeNull();
    // Secrets SQL cannot read: filled after the migrations, with the same rule for clashes.
    expect(await identityOf(bot)).toBeNull();
    expect(await backfillChannelIdentities(db, key)).toEqual({ filled: 2, clashing: 1 });
    expect(await identityOf(bot)).toBe('telegram:700900');
    expect(await identityOf(botAgain)).toBeNull();
    expect(await identityOf(dialog)).toBe(
      providerIdentity({ id: dialog.id, type: dialog.type, config: {}, credentials: dialog.credentials! })!.identity,
    );
    // Idempotent: the clashing one is tried again and left as it is.
    expect(await backfillChannelIdentities(db, key)).toEqual({ filled: 0, clashing: 1 });
    // From now on the index holds: no second live channel of the page, whoever writes it.
    await expect(db.channel.update({ where: { id: squatter.id }, data: { providerIdentity: 'messenger:900100' } })).rejects.toMatchObject({
      code: 'P2002',
    });
  });
});
