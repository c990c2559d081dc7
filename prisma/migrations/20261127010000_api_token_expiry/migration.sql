-- API tokens expire (issue 12 item 3). Tokens made before this change get the default lifetime
-- (90 days) from now, so nothing that works today stops without warning.
ALTER TABLE "ApiToken" ADD COLUMN "expiresAt" TIMESTAMPTZ(3);
UPDATE "ApiToken" SET "expiresAt" = now() + interval '90 days' WHERE "expiresAt" IS NULL;
ALTER TABLE "ApiToken" ALTER COLUMN "expiresAt" SET NOT NULL;
