CREATE SEQUENCE "public"."journal_change_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "journal_keyrings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"keyring" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journal_records" (
	"user_id" text NOT NULL,
	"id" uuid NOT NULL,
	"seq" bigint DEFAULT nextval('journal_change_seq') NOT NULL,
	"iv" text NOT NULL,
	"data" text NOT NULL,
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_records_user_id_id_pk" PRIMARY KEY("user_id","id")
);
--> statement-breakpoint
ALTER TABLE "journal_keyrings" ADD CONSTRAINT "journal_keyrings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_records" ADD CONSTRAINT "journal_records_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journal_records_user_seq_idx" ON "journal_records" USING btree ("user_id","seq");