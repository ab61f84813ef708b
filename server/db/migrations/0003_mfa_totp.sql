CREATE TABLE "mfa_totp_setups" (
	"login_session_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"secret" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mfa_totp_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mfa_totp_last_step" integer;--> statement-breakpoint
ALTER TABLE "mfa_totp_setups" ADD CONSTRAINT "mfa_totp_setups_login_session_hash_login_sessions_id_hash_fk" FOREIGN KEY ("login_session_hash") REFERENCES "public"."login_sessions"("id_hash") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mfa_totp_setups" ADD CONSTRAINT "mfa_totp_setups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;