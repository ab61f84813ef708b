CREATE TABLE "legacy_tokens" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"login_session_hash" text NOT NULL,
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"mfa_token_hash" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "legacy_tokens_login_session_hash_unique" UNIQUE("login_session_hash")
);
--> statement-breakpoint
ALTER TABLE "legacy_tokens" ADD CONSTRAINT "legacy_tokens_login_session_hash_login_sessions_id_hash_fk" FOREIGN KEY ("login_session_hash") REFERENCES "public"."login_sessions"("id_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legacy_tokens" ADD CONSTRAINT "legacy_tokens_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legacy_tokens" ADD CONSTRAINT "legacy_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "legacy_tokens_user_idx" ON "legacy_tokens" USING btree ("user_id");