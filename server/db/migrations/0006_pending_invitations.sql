ALTER TABLE "tenant_users" ADD COLUMN "invitation_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_users" ADD COLUMN "custom_params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Custom values were collected by the signup that created the identity: they move to its first membership.
UPDATE "tenant_users" SET "custom_params" = "users"."custom_params" FROM "users" WHERE "users"."id" = "tenant_users"."user_id" AND "tenant_users"."id" = (SELECT "first"."id" FROM "tenant_users" "first" WHERE "first"."user_id" = "users"."id" ORDER BY "first"."created_at", "first"."id" LIMIT 1);--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "custom_params";--> statement-breakpoint
-- oidc-provider artifacts are now stored under the SHA-256 of their id with the id sealed
-- (server/oidc/adapter.ts): those stored in the clear are dropped, which signs everyone out once.
DELETE FROM "oidc_payloads";
