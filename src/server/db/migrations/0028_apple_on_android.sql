CREATE TABLE "native_sign_in_flows" (
	"id" text PRIMARY KEY NOT NULL,
	"challenge" text NOT NULL,
	"user_id" text,
	"code_hash" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "native_sign_in_flows_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
ALTER TABLE "native_sign_in_flows" ADD CONSTRAINT "native_sign_in_flows_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "native_sign_in_flows_expires_idx" ON "native_sign_in_flows" USING btree ("expires_at");