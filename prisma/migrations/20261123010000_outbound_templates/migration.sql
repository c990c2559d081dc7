-- WhatsApp message templates (issue 5, spec 002 §3).
CREATE TABLE "OutboundTemplate" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "channelId" UUID NOT NULL,
    "name" VARCHAR(512) NOT NULL,
    "language" VARCHAR(16) NOT NULL,
    "category" VARCHAR(32) NOT NULL,
    "status" VARCHAR(32) NOT NULL,
    "components" JSONB NOT NULL,
    "externalId" VARCHAR(200),
    "rejectedReason" VARCHAR(2000),
    "syncPending" VARCHAR(16),
    "syncError" VARCHAR(2000),
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "OutboundTemplate_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "OutboundTemplate_tenantId_createdAt_idx" ON "OutboundTemplate"("tenantId", "createdAt");
CREATE INDEX "OutboundTemplate_channelId_name_idx" ON "OutboundTemplate"("channelId", "name");
-- One live template per (channel, name, language), as at the providers; deleted ones keep their rows.
CREATE UNIQUE INDEX "OutboundTemplate_live_name_key" ON "OutboundTemplate"("channelId", "name", "language") WHERE "deletedAt" IS NULL;

ALTER TABLE "OutboundTemplate" ADD CONSTRAINT "OutboundTemplate_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
