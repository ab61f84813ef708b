ALTER TABLE "login_sessions" ADD COLUMN "chosen_tenant_user_id" text;--> statement-breakpoint
ALTER TABLE "login_sessions" ADD COLUMN "chosen_at" timestamp with time zone;