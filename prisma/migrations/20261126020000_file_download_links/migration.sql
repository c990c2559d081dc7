-- Downloads are allowed through what a file belongs to (issue 12, Low): a conversation the caller
-- may read (the messages holding the file), a campaign they manage (its subscriber import), a
-- template, or their own upload.

-- The campaign a subscriber file was imported into.
ALTER TABLE "StoredFile" ADD COLUMN "campaignId" UUID;

-- The messages that hold a file, found from the file.
CREATE INDEX "Message_annexId_idx" ON "Message"("annexId");
