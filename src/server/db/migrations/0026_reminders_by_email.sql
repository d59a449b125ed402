CREATE TABLE "reminder_mail_deliveries" (
	"user_id" text NOT NULL,
	"day" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_mail_deliveries_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "reminder_settings" ADD COLUMN "channel" text DEFAULT 'push' NOT NULL;--> statement-breakpoint
ALTER TABLE "reminder_settings" ADD COLUMN "mail_off_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reminder_mail_deliveries" ADD CONSTRAINT "reminder_mail_deliveries_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminder_mail_deliveries_claimed_idx" ON "reminder_mail_deliveries" USING btree ("claimed_at");