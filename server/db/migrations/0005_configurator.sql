CREATE TABLE "app_assets" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_drafts" (
	"app_id" text PRIMARY KEY NOT NULL,
	"config" jsonb NOT NULL,
	"base_version" integer NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_owners" (
	"app_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_owners_app_id_tenant_id_pk" PRIMARY KEY("app_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "app_versions" (
	"app_id" text NOT NULL,
	"version" integer NOT NULL,
	"config" jsonb NOT NULL,
	"note" text,
	"author" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_versions_app_id_version_pk" PRIMARY KEY("app_id","version")
);
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "published_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "app_assets" ADD CONSTRAINT "app_assets_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_drafts" ADD CONSTRAINT "app_drafts_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_owners" ADD CONSTRAINT "app_owners_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_owners" ADD CONSTRAINT "app_owners_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_assets_app_idx" ON "app_assets" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "app_owners_tenant_idx" ON "app_owners" USING btree ("tenant_id");