-- A session acts with the roles its user held when it signed in. So that a demoted or removed user's
-- open sessions cannot keep acting with the old roles, the change of the user row
-- ends them in the same transaction, whatever writes it (the users api, a script, psql):
-- * roles changed (as a set): every live session of the user is revoked ('roles_changed'), except
--   the session making the change, named by the transaction setting atende.acting_session, which
--   takes the new roles instead (an owner editing their own roles stays signed in);
-- * removed (deletedAt set): every live session is revoked ('deleted').
-- The api drops the revoked sessions' sockets after the commit; a revoked session answers 401.
CREATE FUNCTION atende_sessions_follow_user() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  acting uuid := NULLIF(current_setting('atende.acting_session', true), '')::uuid;
BEGIN
  IF NEW."deletedAt" IS NOT NULL AND OLD."deletedAt" IS NULL THEN
    UPDATE "UserSession" SET "revokedAt" = now(), "revokedReason" = 'deleted'
     WHERE "userId" = NEW.id AND "revokedAt" IS NULL AND "expiresAt" > now();
  ELSIF NOT (OLD.roles @> NEW.roles AND NEW.roles @> OLD.roles) THEN
    UPDATE "UserSession" SET roles = NEW.roles
     WHERE id = acting AND "userId" = NEW.id AND "revokedAt" IS NULL;
    UPDATE "UserSession" SET "revokedAt" = now(), "revokedReason" = 'roles_changed'
     WHERE "userId" = NEW.id AND "revokedAt" IS NULL AND "expiresAt" > now() AND id IS DISTINCT FROM acting;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "User_sessions_follow_user" AFTER UPDATE OF roles, "deletedAt" ON "User"
  FOR EACH ROW EXECUTE FUNCTION atende_sessions_follow_user();
