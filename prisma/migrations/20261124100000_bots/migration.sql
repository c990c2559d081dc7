-- Bot flows edited in the settings (issue 7, spec 002 §3, §5).
CREATE TABLE "Bot" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "nodes" JSONB NOT NULL DEFAULT '[]',
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "Bot_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Bot_tenantId_workspaceId_idx" ON "Bot"("tenantId", "workspaceId");
