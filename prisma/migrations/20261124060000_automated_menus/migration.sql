-- Automated menus as channel entry points (issue 7, spec 002 §3-§5).
CREATE TABLE "AutomatedMenu" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "message" VARCHAR(2000) NOT NULL,
    "invalidOptionMessage" VARCHAR(1000) NOT NULL,
    "answers" JSONB NOT NULL DEFAULT '[]',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "AutomatedMenu_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "AutomatedMenu_tenantId_workspaceId_idx" ON "AutomatedMenu"("tenantId", "workspaceId");

ALTER TABLE "Channel" ADD COLUMN "entryMenuId" UUID;
ALTER TABLE "Conversation" ADD COLUMN "botMenuId" UUID;
