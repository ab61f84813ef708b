ALTER TABLE "apps" ADD COLUMN "client_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "client_secret_created_at" timestamp with time zone;