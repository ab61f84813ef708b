CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"app_id" text NOT NULL,
	"tenant_id" text,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "test_payment_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"kind" text NOT NULL,
	"plan_key" text,
	"currency" text,
	"recurrence_interval" text,
	"amount" numeric(12, 2),
	"trial_days" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"customer_email" text,
	"return_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"plan_key" text NOT NULL,
	"currency" text NOT NULL,
	"recurrence_interval" text NOT NULL,
	"status" text NOT NULL,
	"trial_end" timestamp with time zone,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "plan_currency" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "plan_interval" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "pending_plan" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "pending_currency" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "pending_interval" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "subscription_id" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "subscription_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "current_period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Plans move into each app's config document (settings.payments.plans, schema/app-config.schema.json):
-- the rows become its plans, in their order, each with its prices; a plan without prices is dropped,
-- as the document needs one at least.
UPDATE "apps" SET "settings" = "apps"."settings" || jsonb_build_object('payments', jsonb_build_object('plans', "moved"."plans"))
FROM (
	SELECT "pl"."app_id", jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
		'key', "pl"."key", 'name', "pl"."name", 'description', "pl"."description", 'trialDays', "pl"."trial_days",
		'prices', (SELECT jsonb_agg(jsonb_build_object('amount', "pr"."amount", 'currency', "pr"."currency", 'recurrenceInterval', "pr"."recurrence_interval"))
			FROM "prices" "pr" WHERE "pr"."plan_id" = "pl"."id")
	)) ORDER BY "pl"."position", "pl"."created_at") AS "plans"
	FROM "plans" "pl"
	WHERE EXISTS (SELECT 1 FROM "prices" "pr" WHERE "pr"."plan_id" = "pl"."id")
	GROUP BY "pl"."app_id"
) AS "moved"
WHERE "apps"."id" = "moved"."app_id" AND NOT ("apps"."settings" ? 'payments');--> statement-breakpoint
-- A workspace already on a plan gets that plan's cheapest price, so the plan page can mark it
-- 'Current' (before this migration a workspace held a plan key only).
UPDATE "tenants" SET "plan_currency" = "cheapest"."currency", "plan_interval" = "cheapest"."recurrence_interval"
FROM "plans" "pl"
CROSS JOIN LATERAL (
	SELECT "pr"."currency", "pr"."recurrence_interval" FROM "prices" "pr" WHERE "pr"."plan_id" = "pl"."id"
	ORDER BY "pr"."amount", "pr"."currency", "pr"."recurrence_interval" LIMIT 1
) AS "cheapest"
WHERE "pl"."app_id" = "tenants"."app_id" AND "pl"."key" = "tenants"."plan";--> statement-breakpoint
DROP TABLE "plans" CASCADE;--> statement-breakpoint
DROP TABLE "prices" CASCADE;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_payment_sessions" ADD CONSTRAINT "test_payment_sessions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_payment_sessions" ADD CONSTRAINT "test_payment_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_subscriptions" ADD CONSTRAINT "test_subscriptions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_subscriptions" ADD CONSTRAINT "test_subscriptions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;