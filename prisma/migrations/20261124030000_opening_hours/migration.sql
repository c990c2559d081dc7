-- Opening hours of a workspace and the once-per-conversation out-of-hours reply (issue 7, spec 002 §3).
CREATE TABLE "OpeningHours" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "timezone" VARCHAR(64) NOT NULL,
    "days" JSONB NOT NULL,
    "outOfHoursMessage" VARCHAR(1000) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "OpeningHours_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "OpeningHours_workspaceId_key" ON "OpeningHours"("workspaceId");
CREATE INDEX "OpeningHours_tenantId_idx" ON "OpeningHours"("tenantId");
ALTER TABLE "OpeningHours" ADD CONSTRAINT "OpeningHours_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "Conversation" ADD COLUMN "outOfHoursRepliedAt" TIMESTAMPTZ(3);
