CREATE TABLE "app_store_transactions" (
	"original_transaction_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"app_account_token" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "app_account_token" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "app_store_transactions" ADD CONSTRAINT "app_store_transactions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_store_transactions_user_id_idx" ON "app_store_transactions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_app_account_token_unique" UNIQUE("app_account_token");--> statement-breakpoint
-- gen_random_uuid() is volatile, so ADD COLUMN above gave every existing user its own token.
-- App Store purchases linked before this migration keep their owner (the subscribers row names it).
INSERT INTO "app_store_transactions" ("original_transaction_id", "user_id", "app_account_token")
SELECT s."provider_subscription_id", s."user_id", u."app_account_token"
FROM "subscribers" s JOIN "user" u ON u."id" = s."user_id"
WHERE s."provider" = 'app_store' AND s."provider_subscription_id" IS NOT NULL
ON CONFLICT DO NOTHING;
