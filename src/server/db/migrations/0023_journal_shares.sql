CREATE TABLE "journal_shares" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"iv" text NOT NULL,
	"data" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "journal_shares" ADD CONSTRAINT "journal_shares_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journal_shares_user_idx" ON "journal_shares" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "journal_shares_expires_idx" ON "journal_shares" USING btree ("expires_at");