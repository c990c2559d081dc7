-- When the worker began posting an agent's message to its provider. A delivery
-- attempt that finds it set does not post again (the earlier attempt may have delivered it, and
-- the providers do not drop a repeat): the message is marked failed with its outcome unknown.
ALTER TABLE "Message" ADD COLUMN "postedAt" TIMESTAMPTZ(3);
