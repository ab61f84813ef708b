-- Signing keys sealed at rest (server/oidc/keys.ts). The public half is kept in the clear for token
-- verification; existing keys get it here and are sealed under FOYER_SECRET at the next start.
ALTER TABLE "signing_keys" ALTER COLUMN "private_jwk" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "public_jwk" jsonb;--> statement-breakpoint
UPDATE "signing_keys" SET "public_jwk" = "private_jwk" - 'd' - 'p' - 'q' - 'dp' - 'dq' - 'qi' - 'oth';--> statement-breakpoint
ALTER TABLE "signing_keys" ALTER COLUMN "public_jwk" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "sealed_jwk" text;--> statement-breakpoint
ALTER TABLE "signing_keys" ADD COLUMN "sealed_with" text;
