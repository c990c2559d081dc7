-- One provider identity, one live channel: the page, account, number or bot by which
-- a provider routes its webhooks may belong to one channel of one tenant, or a delivery would land in
-- two tenants (or twice in one). The api writes the identity on every create, update and setup
-- (packages/channels providerIdentity); this index is the guarantee, whatever writes the row.
ALTER TABLE "Channel" ADD COLUMN "providerIdentity" VARCHAR(200);

-- Backfill of the identities settings give (the same rules as providerIdentity, in SQL). Telegram's bot
-- id and 360dialog's key are in the encrypted credentials: `pnpm db:migrate` fills those after the
-- migrations (packages/db channel-identities.ts), as the api would on the channel's next update.
-- Where live channels already clash, the oldest keeps the identity and the newer ones stay NULL: they
-- keep working through their own webhook address, but the Meta app's shared webhook no longer reaches
-- them, and saving them answers 409 channel_identity_taken until their admin picks another page/number.
WITH computed AS (
  SELECT c.id, c."createdAt",
         CASE
           WHEN c.type = 'messenger' THEN 'messenger:' || NULLIF(lower(btrim(c.config->>'page_id')), '')
           WHEN c.type = 'instagram' THEN 'instagram:' || COALESCE(NULLIF(lower(btrim(c.config->>'instagram_account_id')), ''), NULLIF(lower(btrim(c.config->>'page_id')), ''))
           WHEN c.type = 'whatsapp_cloud' OR c.type ~* '^[0-9a-f]{24,64}$' THEN 'whatsapp:' || NULLIF(lower(btrim(c.config->>'phone_number_id')), '')
           WHEN c.type IN ('sms', 'whatsapp_twilio') THEN c.type || ':' || NULLIF(lower(btrim(c.config->>'account_sid')), '') || ':'
             || COALESCE(NULLIF(regexp_replace(COALESCE(c.config->>'from_number', ''), '[^0-9]', '', 'g'), ''), NULLIF(lower(btrim(c.config->>'messaging_service_sid')), ''))
           WHEN c.type = 'email' THEN 'email:' || replace(c.id::text, '-', '')
         END AS identity
    FROM "Channel" c
   WHERE c."deletedAt" IS NULL
), ranked AS (
  SELECT id, identity, row_number() OVER (PARTITION BY identity ORDER BY "createdAt", id) AS n
    FROM computed
   WHERE identity IS NOT NULL
)
UPDATE "Channel" c SET "providerIdentity" = r.identity FROM ranked r WHERE r.id = c.id AND r.n = 1;

CREATE UNIQUE INDEX "Channel_providerIdentity_idx" ON "Channel"("providerIdentity") WHERE "deletedAt" IS NULL;
