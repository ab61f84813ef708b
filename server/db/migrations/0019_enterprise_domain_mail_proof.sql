ALTER TABLE "enterprise_domains" ADD COLUMN "mail_token_hash" text;--> statement-breakpoint
ALTER TABLE "enterprise_domains" ADD COLUMN "mail_sent_to" text;--> statement-breakpoint
ALTER TABLE "enterprise_domains" ADD COLUMN "mail_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "enterprise_domains_mail_token_idx" ON "enterprise_domains" USING btree ("mail_token_hash");