-- Automations: timed rules with conditions and operations (issue 7, spec 002 §3, §7 /api/v1/actions).
CREATE TABLE "Automation" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "trigger" VARCHAR(32) NOT NULL,
    "minutes" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "Automation_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Automation_tenantId_workspaceId_idx" ON "Automation"("tenantId", "workspaceId");

CREATE TABLE "AutomationCondition" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "automationId" UUID NOT NULL,
    "field" VARCHAR(32) NOT NULL,
    "operator" VARCHAR(16) NOT NULL,
    "value" VARCHAR(200) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AutomationCondition_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "AutomationCondition_automationId_idx" ON "AutomationCondition"("automationId");
ALTER TABLE "AutomationCondition" ADD CONSTRAINT "AutomationCondition_automationId_fkey" FOREIGN KEY ("automationId") REFERENCES "Automation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "AutomationOperation" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "automationId" UUID NOT NULL,
    "type" VARCHAR(32) NOT NULL,
    "value" VARCHAR(2000),
    "position" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AutomationOperation_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "AutomationOperation_automationId_position_idx" ON "AutomationOperation"("automationId", "position");
ALTER TABLE "AutomationOperation" ADD CONSTRAINT "AutomationOperation_automationId_fkey" FOREIGN KEY ("automationId") REFERENCES "Automation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "AutomationRun" (
    "automationId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "episode" TIMESTAMPTZ(3) NOT NULL,
    "tenantId" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AutomationRun_pkey" PRIMARY KEY ("automationId", "conversationId", "episode")
);
CREATE INDEX "AutomationRun_tenantId_at_idx" ON "AutomationRun"("tenantId", "at");
