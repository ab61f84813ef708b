CREATE TABLE "enterprise_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"default_role" text DEFAULT 'VIEWER' NOT NULL,
	"oidc_issuer" text,
	"oidc_client_id" text,
	"oidc_client_secret_sealed" text,
	"saml_idp_entity_id" text,
	"saml_sso_url" text,
	"saml_idp_certs" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enterprise_domains" (
	"connection_id" text NOT NULL,
	"app_id" text NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprise_domains_connection_id_domain_pk" PRIMARY KEY("connection_id","domain")
);
--> statement-breakpoint
CREATE TABLE "saml_message_ids" (
	"kind" text NOT NULL,
	"connection_id" text NOT NULL,
	"id" text NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "saml_message_ids_kind_connection_id_id_pk" PRIMARY KEY("kind","connection_id","id")
);
--> statement-breakpoint
ALTER TABLE "federation_states" ADD COLUMN "connection_id" text;--> statement-breakpoint
ALTER TABLE "federation_states" ADD COLUMN "profile" jsonb;--> statement-breakpoint
ALTER TABLE "enterprise_connections" ADD CONSTRAINT "enterprise_connections_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_connections" ADD CONSTRAINT "enterprise_connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_domains" ADD CONSTRAINT "enterprise_domains_connection_id_enterprise_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."enterprise_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_domains" ADD CONSTRAINT "enterprise_domains_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_message_ids" ADD CONSTRAINT "saml_message_ids_connection_id_enterprise_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."enterprise_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enterprise_connections_tenant_idx" ON "enterprise_connections" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "enterprise_domains_domain_idx" ON "enterprise_domains" USING btree ("app_id","domain");--> statement-breakpoint
CREATE INDEX "saml_message_ids_expiry_idx" ON "saml_message_ids" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "federation_states" ADD CONSTRAINT "federation_states_connection_id_enterprise_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."enterprise_connections"("id") ON DELETE cascade ON UPDATE no action;