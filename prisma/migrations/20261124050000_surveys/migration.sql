-- Satisfaction surveys and the runs sent after finished conversations (issue 7, spec 002 §3).
CREATE TABLE "Survey" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "workspaceId" UUID NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "question" VARCHAR(1000) NOT NULL,
    "options" TEXT[],
    "greetingMessage" VARCHAR(1000) NOT NULL,
    "sectorIds" UUID[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "Survey_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Survey_tenantId_workspaceId_idx" ON "Survey"("tenantId", "workspaceId");

CREATE TABLE "SurveyRun" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "surveyId" UUID NOT NULL,
    "conversationId" UUID NOT NULL,
    "contactId" UUID NOT NULL,
    "channelId" UUID NOT NULL,
    "sectorId" UUID,
    "userId" INTEGER,
    "state" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "answerIndex" INTEGER,
    "answer" VARCHAR(200),
    "sentAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "answeredAt" TIMESTAMPTZ(3),
    CONSTRAINT "SurveyRun_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "SurveyRun_conversationId_key" ON "SurveyRun"("conversationId");
CREATE INDEX "SurveyRun_tenantId_channelId_contactId_state_idx" ON "SurveyRun"("tenantId", "channelId", "contactId", "state");
CREATE INDEX "SurveyRun_surveyId_sentAt_idx" ON "SurveyRun"("surveyId", "sentAt");
ALTER TABLE "SurveyRun" ADD CONSTRAINT "SurveyRun_surveyId_fkey" FOREIGN KEY ("surveyId") REFERENCES "Survey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
