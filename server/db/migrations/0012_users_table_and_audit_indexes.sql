-- The users table reads tenant_users alone (server/graphql/users/list.ts): what it shows of the
-- identity is copied onto each membership by the triggers below, and searched through a trigram index.
-- pg_trgm is a trusted extension (PostgreSQL 13+: the database owner may create it); PGlite loads it
-- at open (server/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "tenant_users" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_users" ADD COLUMN "name_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_users" ADD COLUMN "email_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The texts the table shows of a membership: its identity's names only once the invitation is
-- accepted (server/graphql/users/service.ts), 'Invited user' when blank, the status and the role.
CREATE FUNCTION tenant_users_shown_texts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  person record;
  shown_name text;
BEGIN
  SELECT first_name, last_name, email INTO person FROM users WHERE id = NEW.user_id;
  shown_name := coalesce(nullif(concat_ws(' ',
    nullif(trim(CASE WHEN NOT NEW.invitation_pending THEN person.first_name END), ''),
    nullif(trim(CASE WHEN NOT NEW.invitation_pending THEN person.last_name END), '')), ''), 'Invited user');
  NEW.name_key := lower(shown_name);
  NEW.email_key := lower(person.email);
  NEW.search_text := lower(shown_name || chr(10) || person.email || chr(10)
    || CASE WHEN NEW.enabled THEN 'Active' ELSE 'Deactivated' END || chr(10) || NEW.role);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER tenant_users_shown_texts BEFORE INSERT OR UPDATE OF user_id, role, enabled, invitation_pending ON tenant_users
  FOR EACH ROW EXECUTE FUNCTION tenant_users_shown_texts();--> statement-breakpoint
-- A renamed person or changed address: setting user_id to itself runs the trigger above on each of
-- their memberships.
CREATE FUNCTION users_shown_texts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tenant_users SET user_id = user_id WHERE user_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_shown_texts AFTER UPDATE OF first_name, last_name, email ON users
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION users_shown_texts();--> statement-breakpoint
UPDATE tenant_users SET user_id = user_id;--> statement-breakpoint
CREATE INDEX "tenant_users_created_idx" ON "tenant_users" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tenant_users_name_idx" ON "tenant_users" USING btree ("tenant_id",("name_key" collate "C"),"created_at","id");--> statement-breakpoint
CREATE INDEX "tenant_users_email_idx" ON "tenant_users" USING btree ("tenant_id",("email_key" collate "C"),"created_at","id");--> statement-breakpoint
CREATE INDEX "tenant_users_search_idx" ON "tenant_users" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "audit_events_attempt_ip_idx" ON "audit_events" USING btree ("type","ip","app_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_events_attempt_username_idx" ON "audit_events" USING btree ("type",("detail"->>'username'),"app_id","created_at");
--> statement-breakpoint
CREATE INDEX "tenant_users_status_idx" ON "tenant_users" USING btree ("tenant_id",(case when "enabled" then 'Active' else 'Deactivated' end collate "C"),"created_at","id");--> statement-breakpoint
CREATE INDEX "tenant_users_status_desc_idx" ON "tenant_users" USING btree ("tenant_id",(case when "enabled" then 'Active' else 'Deactivated' end collate "C") desc,"created_at","id");--> statement-breakpoint
CREATE INDEX "tenant_users_role_idx" ON "tenant_users" USING btree ("tenant_id",(case "role" when 'OWNER' then 0 when 'ADMIN' then 1 when 'MANAGER' then 2 when 'VIEWER' then 3 else 4 end),"created_at","id");--> statement-breakpoint
CREATE INDEX "tenant_users_role_desc_idx" ON "tenant_users" USING btree ("tenant_id",(case "role" when 'OWNER' then 0 when 'ADMIN' then 1 when 'MANAGER' then 2 when 'VIEWER' then 3 else 4 end) desc,"created_at","id");
