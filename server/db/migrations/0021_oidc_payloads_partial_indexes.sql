-- Only sessions and interactions have a uid and no artifact has a user code: the rows without one
-- (every refresh token a rotation stores) stay out of these two indexes (server/db/schema.ts).
DROP INDEX "oidc_payloads_uid_idx";--> statement-breakpoint
DROP INDEX "oidc_payloads_user_code_idx";--> statement-breakpoint
CREATE INDEX "oidc_payloads_uid_idx" ON "oidc_payloads" USING btree ("uid") WHERE "oidc_payloads"."uid" is not null;--> statement-breakpoint
CREATE INDEX "oidc_payloads_user_code_idx" ON "oidc_payloads" USING btree ("user_code") WHERE "oidc_payloads"."user_code" is not null;