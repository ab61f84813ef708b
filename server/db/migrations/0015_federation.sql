CREATE TABLE "federated_identities" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "federation_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"provider" text NOT NULL,
	"intent" text NOT NULL,
	"upstream" text NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "federated_identities" ADD CONSTRAINT "federated_identities_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federated_identities" ADD CONSTRAINT "federated_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "federation_states" ADD CONSTRAINT "federation_states_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "federated_identities_subject_idx" ON "federated_identities" USING btree ("app_id","provider","subject");--> statement-breakpoint
CREATE INDEX "federated_identities_user_idx" ON "federated_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "federation_states_expiry_idx" ON "federation_states" USING btree ("expires_at");--> statement-breakpoint
-- New apps used to start with Google switched on, a button that could not work. Google stays on only
-- where the owner gave it credentials (live config and shared drafts alike).
UPDATE "apps" SET "settings" = jsonb_set("settings", '{googleSsoEnabled}', 'false')
  WHERE ("settings"->>'googleSsoEnabled') = 'true' AND coalesce("settings"#>>'{socialProviders,google,clientId}', '') = '';--> statement-breakpoint
UPDATE "app_drafts" SET "config" = jsonb_set("config", '{googleSsoEnabled}', 'false')
  WHERE ("config"->>'googleSsoEnabled') = 'true' AND coalesce("config"#>>'{socialProviders,google,clientId}', '') = '';
