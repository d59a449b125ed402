CREATE TABLE "programme_days" (
	"programme_id" uuid NOT NULL,
	"day_number" integer NOT NULL,
	"meditation_id" uuid,
	"reflection" text,
	CONSTRAINT "programme_days_programme_id_day_number_pk" PRIMARY KEY("programme_id","day_number"),
	CONSTRAINT "programme_days_number_check" CHECK ("programme_days"."day_number" >= 1)
);
--> statement-breakpoint
CREATE TABLE "programme_enrolments" (
	"user_id" text NOT NULL,
	"programme_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"opened_early" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programme_enrolments_user_id_programme_id_pk" PRIMARY KEY("user_id","programme_id")
);
--> statement-breakpoint
CREATE TABLE "programmes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"cover" text NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "programmes_slug_uq" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "programme_days" ADD CONSTRAINT "programme_days_programme_id_programmes_id_fk" FOREIGN KEY ("programme_id") REFERENCES "public"."programmes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_days" ADD CONSTRAINT "programme_days_meditation_id_meditation_previews_id_fk" FOREIGN KEY ("meditation_id") REFERENCES "public"."meditation_previews"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_enrolments" ADD CONSTRAINT "programme_enrolments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programme_enrolments" ADD CONSTRAINT "programme_enrolments_programme_id_programmes_id_fk" FOREIGN KEY ("programme_id") REFERENCES "public"."programmes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "programme_days_meditation_idx" ON "programme_days" USING btree ("meditation_id");--> statement-breakpoint
CREATE INDEX "programme_enrolments_programme_idx" ON "programme_enrolments" USING btree ("programme_id");--> statement-breakpoint
CREATE INDEX "programmes_position_idx" ON "programmes" USING btree ("position","created_at");