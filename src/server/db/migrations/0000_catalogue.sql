CREATE TABLE "meditation_content" (
	"meditation_id" uuid PRIMARY KEY NOT NULL,
	"storage_key" text NOT NULL,
	"audio_file_name" text NOT NULL,
	"audio_file_type" text NOT NULL,
	"audio_file_size" integer NOT NULL,
	"transcript" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meditation_previews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"duration" text DEFAULT '0 minutes' NOT NULL,
	"duration_seconds" integer,
	"category" text NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meditation_content" ADD CONSTRAINT "meditation_content_meditation_id_meditation_previews_id_fk" FOREIGN KEY ("meditation_id") REFERENCES "public"."meditation_previews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meditation_previews_created_at_idx" ON "meditation_previews" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "meditation_previews_category_idx" ON "meditation_previews" USING btree ("category");--> statement-breakpoint
CREATE INDEX "meditation_previews_categories_idx" ON "meditation_previews" USING gin ("categories");