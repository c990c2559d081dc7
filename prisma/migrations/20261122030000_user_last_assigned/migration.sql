-- AlterTable
ALTER TABLE "User" ADD COLUMN "lastAssignedAt" TIMESTAMPTZ(3);
