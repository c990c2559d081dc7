-- tenant_admin is a platform role (issue 12): only users of a platform tenant (the operators', never
-- a customer's) may hold it, so a customer's admin can neither hold nor grant it.
ALTER TABLE "Tenant" ADD COLUMN "isPlatform" BOOLEAN NOT NULL DEFAULT false;

-- Customer tenants lose the role. A user who held nothing else has nothing left to do there and is
-- removed (sign-ins ignore removed users); operators get platform accounts back with
-- `pnpm db:platform-admin <email>` (README, Security).
UPDATE "User" u SET roles = array_remove(u.roles, 'tenant_admin'::"Role"),
       "deletedAt" = CASE WHEN u.roles = ARRAY['tenant_admin'::"Role"] THEN COALESCE(u."deletedAt", now()) ELSE u."deletedAt" END
  FROM "Tenant" t
 WHERE t.id = u."tenantId" AND NOT t."isPlatform" AND 'tenant_admin'::"Role" = ANY(u.roles);

-- And can never get it back, whatever writes the row.
CREATE FUNCTION atende_platform_role_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF 'tenant_admin'::"Role" = ANY(NEW.roles)
     AND NOT EXISTS (SELECT 1 FROM "Tenant" t WHERE t.id = NEW."tenantId" AND t."isPlatform") THEN
    RAISE EXCEPTION 'tenant_admin is a platform role: user % is not in a platform tenant', NEW.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "User_platform_role_guard" BEFORE INSERT OR UPDATE OF roles, "tenantId" ON "User"
  FOR EACH ROW EXECUTE FUNCTION atende_platform_role_guard();
