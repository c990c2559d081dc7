-- API tokens for integrations (issue 7, spec 002 §3, §7 /api/v1/oauth/tokens).
CREATE TABLE "ApiToken" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "userId" INTEGER NOT NULL,
    "clientName" VARCHAR(80) NOT NULL,
    "clientId" VARCHAR(64) NOT NULL,
    "tokenHash" VARCHAR(64) NOT NULL,
    "tokenPrefix" VARCHAR(16) NOT NULL,
    "roles" "Role"[],
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ApiToken_clientId_key" ON "ApiToken"("clientId");
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");
CREATE INDEX "ApiToken_tenantId_workspaceId_idx" ON "ApiToken"("tenantId", "workspaceId");
