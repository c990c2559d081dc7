-- Issue 14 items 7 and 8: a campaign's entry point may be a menu or a bot as well as a sector; a
-- campaign whose template's buttons changed is flagged until its reply actions are saved again;
-- DND lists marked default are preselected for new campaigns.
ALTER TABLE "Campaign" ADD COLUMN "entryMenuId" UUID;
ALTER TABLE "Campaign" ADD COLUMN "entryBotId" UUID;
ALTER TABLE "Campaign" ADD COLUMN "actionsOutdated" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "DndList" ADD COLUMN "isDefault" BOOLEAN NOT NULL DEFAULT false;
